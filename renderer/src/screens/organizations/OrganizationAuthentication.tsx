import { useEffect, useState } from 'react';
import { invoke } from '../../bridge';
import type { RowOf } from '../../../../engine/catalogue';
import { Form, submitOutcome } from '../../components/Form';
import { toastOutcome } from '../../stores/feedback/toasts';
import { flag, idList } from '../../components/options';

const providerOptions = async () => {
  const a = await invoke('v1.identityProviders.list', { query: { get_all: true } });
  return a.ok ? a.data.map((p) => ({ id: p.id, name: `${p.name} (${p.type})` })) : [];
};

/** How members of one organization sign in: NTLM, JWT, and which identity providers. */
export function OrganizationAuthentication({
  org,
}: {
  org: Pick<RowOf<'v1.organizations.list'>, 'id' | 'displayName' | 'allowNtlm' | 'allowJwt'>;
}) {
  const [providers, setProviders] = useState<string[] | null>(null);
  const [passwords, setPasswords] = useState(true);
  useEffect(() => {
    void invoke('app.organizations.getAuthentication', { params: { id: org.id } }).then((a) => {
      setProviders(a.ok ? a.data.identityProviders.map((p) => p.id) : []);
      if (a.ok) setPasswords(a.data.serviceAuth);
    });
  }, [org.id]);
  if (!providers) return null;
  return (
    <div className="panel">
      <h2>Sign-in for {org.displayName}</h2>
      <Form
        fields={[
          { name: 'allowNtlm', label: 'Allow Windows (NTLM) sign-in', kind: 'checkbox' },
          { name: 'allowJwt', label: 'Allow JWT sign-in', kind: 'checkbox' },
          { name: 'identityProviders', label: 'Identity providers', kind: 'multi', options: providerOptions },
          {
            name: 'serviceAuth',
            label: 'Allow password sign-in',
            kind: 'checkbox',
            hint: 'Off: its people sign in only through its identity providers (the tenant owner keeps a password)',
          },
        ]}
        initial={{
          allowNtlm: org.allowNtlm,
          allowJwt: org.allowJwt,
          identityProviders: providers,
          serviceAuth: passwords,
        }}
        submitLabel="Save sign-in settings"
        onSubmit={async (v) => {
          const a = await invoke('v1.organizations.updateAuthentication', {
            params: { id: org.id },
            body: {
              allowNtlm: flag(v.allowNtlm),
              allowJwt: flag(v.allowJwt),
              identityProviders: idList(v.identityProviders),
            },
          });
          if (!a.ok) return submitOutcome(a);
          // Password sign-in is set B's switch; its other field (one provider) is left as the list above set it.
          const b = await invoke('v2.organizations.updateAuthentication', {
            params: { id: org.id },
            body: { qalyptusAuth: flag(v.serviceAuth) },
          });
          if (b.ok) toastOutcome(b, `Sign-in settings of ${org.displayName} saved.`);
          return submitOutcome(b);
        }}
      />
    </div>
  );
}
