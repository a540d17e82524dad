import { useEffect, useState } from 'react';
import { invokeAny } from '../../bridge';
import { Form } from '../../components/Form';

const providerOptions = async () => {
  const a = await invokeAny('v1.identityProviders.list', { query: { get_all: true } });
  return a.ok ? (a.data as { id: string; name: string; type: string }[]).map((p) => ({ id: p.id, name: `${p.name} (${p.type})` })) : [];
};

/** How members of one organization sign in: NTLM, JWT, and which identity providers. */
export function OrganizationAuthentication({ org }: { org: { id: string; displayName: string; allowNtlm: boolean; allowJwt: boolean } }) {
  const [providers, setProviders] = useState<string[] | null>(null);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    void invokeAny('app.organizations.getAuthentication', { params: { id: org.id } }).then((a) =>
      setProviders(a.ok ? (a.data.identityProviders as { id: string }[]).map((p) => p.id) : []),
    );
  }, [org.id]);
  if (!providers) return null;
  return (
    <div className="panel">
      <h2>Sign-in for {org.displayName}</h2>
      {saved && <div className="notice" role="status">Saved.</div>}
      <Form
        fields={[
          { name: 'allowNtlm', label: 'Allow Windows (NTLM) sign-in', kind: 'checkbox' },
          { name: 'allowJwt', label: 'Allow JWT sign-in', kind: 'checkbox' },
          { name: 'identityProviders', label: 'Identity providers', kind: 'multi', options: providerOptions },
        ]}
        initial={{ allowNtlm: org.allowNtlm, allowJwt: org.allowJwt, identityProviders: providers }}
        submitLabel="Save sign-in settings"
        onSubmit={async (v) => {
          const a = await invokeAny('v1.organizations.updateAuthentication', {
            params: { id: org.id },
            body: { allowNtlm: !!v.allowNtlm, allowJwt: !!v.allowJwt, identityProviders: ((v.identityProviders as string[]) ?? []).map((id) => ({ id })) },
          });
          setSaved(a.ok);
          return a.ok ? null : { error: a.error, errorDetails: a.errorDetails };
        }}
      />
    </div>
  );
}
