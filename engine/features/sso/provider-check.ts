import { X509Certificate } from 'node:crypto';
import type { EngineServices } from '../../ops/context.js';
import type { IdentityProviderRow } from '../../model/identity-providers.entity.js';
import { readSetting } from '../settings/settings.rules.js';
import { kindOf, organizationsOf } from './sso-providers.js';

// A provider's test button: what an administrator would check by hand, said in words. It reaches
// only the addresses the provider names (its issuer's discovery document, its endpoints, its
// sign-in URL), each within a few seconds.

export interface ProviderCheck {
  what: string;
  ok: boolean;
  message: string;
}

const TIMEOUT_MS = 5_000;

/** Whether an address answers at all (any HTTP status counts: a token endpoint refuses a GET). */
async function answers(url: string): Promise<string | null> {
  try {
    await fetch(url, { method: 'GET', redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
    return null;
  } catch (e) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? (e as Error).message;
  }
}

function certificateCheck(p: IdentityProviderRow, now: Date): ProviderCheck {
  const text = (p.certificatePublicKey || p.certificateFile || '').trim();
  if (!text) return { what: 'Certificate', ok: false, message: 'No certificate is set: signatures cannot be checked' };
  const pem = text.includes('-----BEGIN')
    ? text
    : `-----BEGIN CERTIFICATE-----\n${text.replace(/\s+/g, '')}\n-----END CERTIFICATE-----`;
  try {
    const cert = new X509Certificate(pem);
    const until = new Date(cert.validTo);
    if (until < now) return { what: 'Certificate', ok: false, message: `The certificate expired on ${cert.validTo}` };
    return {
      what: 'Certificate',
      ok: true,
      message: `${cert.subject.replace(/\n/g, ', ')}, valid until ${cert.validTo}`,
    };
  } catch {
    return { what: 'Certificate', ok: false, message: 'The certificate is not a PEM or base64 X.509 certificate' };
  }
}

async function reachable(what: string, url: string | null, missing: string): Promise<ProviderCheck> {
  if (!url) return { what, ok: false, message: missing };
  const problem = await answers(url);
  return problem
    ? { what, ok: false, message: `${url} could not be reached (${problem})` }
    : { what, ok: true, message: `${url} answers` };
}

export async function checkProvider(s: EngineServices, p: IdentityProviderRow): Promise<ProviderCheck[]> {
  const kind = kindOf(p);
  const checks: ProviderCheck[] = [];
  const orgs = await organizationsOf(s, p.id);
  checks.push(
    orgs.length
      ? { what: 'Organizations', ok: true, message: `Used by ${orgs.length} organization${orgs.length > 1 ? 's' : ''}` }
      : {
          what: 'Organizations',
          ok: false,
          message: "No organization uses it yet: choose it in an organization's sign-in settings",
        },
  );
  if (!p.isActive) checks.push({ what: 'Active', ok: false, message: 'It is turned off: nobody signs in through it' });
  if (kind === 'oidc') {
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
  } else if (kind === 'saml') {
    checks.push(certificateCheck(p, s.now()));
    checks.push(await reachable('Single sign-on URL', p.singleSignOnUrl, 'No single sign-on URL is set'));
  } else if (kind === 'jwt') {
    checks.push(certificateCheck(p, s.now()));
    const on = (await readSetting(s, 'authenticationMethods')).jwtAuth;
    checks.push(
      on
        ? { what: 'System', ok: true, message: 'JWT sign-in is on for the system' }
        : { what: 'System', ok: false, message: 'JWT sign-in is off for the system (Settings)' },
    );
  } else checks.push({ what: 'Type', ok: false, message: `"${p.type}" is not a type Broadsheet signs in with` });
  return checks;
}
