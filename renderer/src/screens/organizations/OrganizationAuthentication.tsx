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
  useEffect(() => {
    void invoke('app.organizations.getAuthentication', { params: { id: org.id } }).then((a) =>
      setProviders(a.ok ? a.data.identityProviders.map((p) => p.id) : []),
    );
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
        ]}
        initial={{ allowNtlm: org.allowNtlm, allowJwt: org.allowJwt, identityProviders: providers }}
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
          if (a.ok) toastOutcome(a, `Sign-in settings of ${org.displayName} saved.`);
          return submitOutcome(a);
        }}
      />
    </div>
  );
}
