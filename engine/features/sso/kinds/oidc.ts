import type { ProviderKindSeam } from './kind.js';
import { reachable, TIMEOUT_MS, type ProviderCheck } from './checks.js';
import { oidcCallback, oidcLogoutUrl, oidcStart } from '../oidc-flow.js';

// OpenID Connect: the browser and the desktop sign in through the provider's authorization page and
// come back to `/callback`; signing out goes on to its end-session address.

export const oidcKind: ProviderKindSeam = {
  kind: 'oidc',
  start: (s, p, base, returnTo) => oidcStart(s, p, `${base}/callback`, returnTo),
  finish: (s, p, _base, answer) => oidcCallback(s, p, answer.url),
  desktop: true,
  bearer: false,
  serviceProvider: false,
  signOutUrl: (s, p) => oidcLogoutUrl(s, p),
  async check(_s, p) {
    const checks: ProviderCheck[] = [];
    if (p.entityID) {
      const discovery = `${p.entityID.replace(/\/$/, '')}/.well-known/openid-configuration`;
      try {
        const res = await fetch(discovery, { signal: AbortSignal.timeout(TIMEOUT_MS) });
        const doc = (await res.json()) as { issuer?: string; jwks_uri?: string };
        checks.push(
          res.ok && doc.issuer === p.entityID
            ? {
                what: 'Issuer',
                ok: true,
                message: `Its discovery document names the issuer and its keys (${doc.jwks_uri})`,
              }
            : {
                what: 'Issuer',
                ok: false,
                message: res.ok
                  ? `The discovery document names the issuer "${doc.issuer}", not "${p.entityID}"`
                  : `${discovery} answered ${res.status}`,
              },
        );
      } catch (e) {
        checks.push({ what: 'Issuer', ok: false, message: `${discovery} could not be read (${(e as Error).message})` });
      }
    } else
      checks.push({
        what: 'Issuer',
        ok: true,
        message: 'No issuer is set: who signs in is read from userinfo, and no ID token is asked for',
      });
    checks.push(await reachable('Authorization endpoint', p.authorizationEndpoint, 'No authorization endpoint is set'));
    checks.push(await reachable('Token endpoint', p.accessTokenEndpoint, 'No token endpoint is set'));
    if (!p.clientID) checks.push({ what: 'Client', ok: false, message: 'No client ID is set' });
    return checks;
  },
};
