import { badInput } from '../../core/errors.js';
import { forbiddenHost } from '../../core/outgoing-hosts.js';

// "Fill from issuer": the OpenID provider's own discovery document, read from the issuer the
// administrator typed (the only host asked), so its endpoints are copied rather than retyped. The
// document must name that very issuer, as OpenID Connect Discovery says, or nothing is filled.

const TIMEOUT_MS = 10_000;
const loopback = (u: URL) => ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);

export interface DiscoveredEndpoints {
  issuer: string;
  authorizationEndpoint: string;
  accessTokenEndpoint: string;
  userinfoEndpoint: string | null;
  logoutEndpoint: string | null;
}

const refuse = (message: string) =>
  badInput(`The issuer could not be read: ${message}`, [{ field: 'body.issuer', message }]);

export async function discoverIssuer(issuer: string): Promise<DiscoveredEndpoints> {
  const url = new URL(issuer);
  const forbidden = forbiddenHost(issuer);
  if (forbidden) throw refuse(forbidden);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback(url)))
    throw refuse('must be an https:// address');
  const at = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  let doc: Record<string, unknown>;
  try {
    const res = await fetch(at, { redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!res.ok) throw new Error(`it answered ${res.status} at ${at}`);
    doc = (await res.json()) as Record<string, unknown>;
  } catch (e) {
    throw refuse(`no OpenID discovery document was read (${(e as Error).message.slice(0, 200)})`);
  }
  const text = (k: string) => (typeof doc[k] === 'string' && doc[k] ? (doc[k] as string) : null);
  if (text('issuer') !== issuer.replace(/\/+$/, '') && text('issuer') !== issuer)
    throw refuse(`its document names another issuer (${String(doc.issuer).slice(0, 200)})`);
  const authorization = text('authorization_endpoint');
  const token = text('token_endpoint');
  if (!authorization || !token) throw refuse('its document names no authorization or token endpoint');
  return {
    issuer: text('issuer')!,
    authorizationEndpoint: authorization,
    accessTokenEndpoint: token,
    userinfoEndpoint: text('userinfo_endpoint'),
    logoutEndpoint: text('end_session_endpoint'),
  };
}
