import { useState } from 'react';
import { toastFailed, toastSucceeded } from '../../stores/feedback/toasts';
import type { ResultOf, RowOf } from '../../../../engine/catalogue';
import { invoke } from '../../bridge';

type Provider = RowOf<'v1.identityProviders.list'>;
type Checks = ResultOf<'app.identityProviders.check'>;

const kindOf = (type: string) => {
  const t = type.toLowerCase().replace(/[^a-z0-9]/g, '');
  return t.startsWith('saml') ? 'saml' : t === 'jwt' ? 'jwt' : 'oidc';
};

/** This server's address as the browser reaches it (the desktop's own server when not served). */
const serverAddress = () => (location.protocol.startsWith('http') ? location.origin : 'http://127.0.0.1:<port>');

/**
 * What the identity provider's administrator needs from Broadsheet, to copy, and a check of what
 * Broadsheet needs from the provider, said in words.
 */
export function ProviderAddresses({ provider }: { provider: Provider }) {
  const [checks, setChecks] = useState<Checks | null>(null);
  const [checking, setChecking] = useState(false);
  const base = `${serverAddress()}/api/app/sso/${provider.id}`;
  const kind = kindOf(provider.type);
  const rows: [string, string][] =
    kind === 'saml'
      ? [
          ['Service provider entity ID', `${base}/metadata`],
          ['Assertion consumer service (ACS, HTTP-POST)', `${base}/acs`],
          ['Single logout service (HTTP-POST and HTTP-Redirect)', `${base}/slo`],
          ['Metadata to import at the identity provider', `${base}/metadata`],
        ]
      : kind === 'oidc'
        ? [['Redirect URI to register with the provider', `${base}/callback`]]
        : [
            ['Send calls with', 'Authorization: Bearer <JWT signed with this certificate, with email and exp>'],
            ['Or turn a token into a browser session', `POST ${serverAddress()}/api/app/auth/jwt`],
          ];
  return (
    <section className="panel" aria-label={`Addresses of ${provider.name}`}>
      <h2>Connect {provider.name}</h2>
      <dl className="addresses">
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>
              <code>{value}</code>{' '}
              <button
                type="button"
                className="small"
                aria-label={`Copy ${label}`}
                onClick={() =>
                  void navigator.clipboard.writeText(value).then(
                    () => toastSucceeded(`Copied: ${value}`),
                    () => toastFailed('The address could not be copied: select it and copy it by hand.'),
                  )
                }
              >
                Copy
              </button>
            </dd>
          </div>
        ))}
      </dl>
      <button
        type="button"
        disabled={checking}
        onClick={() => {
          setChecking(true);
          void invoke('app.identityProviders.check', { params: { id: provider.id } }).then((a) => {
            setChecking(false);
            setChecks(a.ok ? a.data : { ok: false, checks: [{ what: 'Check', ok: false, message: a.error ?? '' }] });
          });
        }}
      >
        {checking ? 'Checking…' : 'Check the provider'}
      </button>
      {checks && (
        <ul className="checks" aria-label="Check results">
          {checks.checks.map((c) => (
            <li key={c.what} className={c.ok ? 'ok' : 'problem'}>
              <strong>
                {c.ok ? '✓' : '✗'} {c.what}:
              </strong>{' '}
              {c.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
