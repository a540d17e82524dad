import type { EngineServices } from '../../ops/context.js';
import { sql } from '../../core/sql.js';
import { readSetting } from '../settings/settings.rules.js';
import { IdentityProvider, type IdentityProviderRow } from '../../model/identity-providers.entity.js';
import { User, type UserRow } from '../../model/users.entity.js';
import { seamOf } from './kinds/index.js';

// Sign-in with a JWT (API and embedded use): `Authorization: Bearer <JWT>` signed with the key of a
// JWT provider's X.509 certificate acts as the user whose e-mail is the token's `email` claim. jose
// verifies it (signature, `exp` required, `aud` equal to the provider's audience, which is required,
// `iss` equal to the provider's entity id when one is set, a minute of clock skew), and a token may
// live at most 24 hours (from `iat`, or from now when it has none): a token for another application,
// or one minted to last for years, signs nobody in. Only asymmetric algorithms are taken, so a
// certificate's public key can never be used as an HMAC secret. The system setting `jwtAuth` and the organization's `allowJwt`
// must both be on, and the provider linked to that organization.

/** Three base64url parts: the shape of a compact JWS (session tokens and API keys have prefixes). */
export const looksLikeJwt = (token: string) => /^[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+$/.test(token);

const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const SKEW_S = 60;
/** The longest a token may be valid for: a bearer token is a password while it lives. */
export const JWT_MAX_LIFETIME_S = 24 * 3600;

type Services = Pick<EngineServices, 'db' | 'now' | 'log'>;

export interface JwtHolder {
  user: UserRow;
  providerId: string;
  expires: Date;
}

/** The certificate's PEM: as stored, or bare base64 wrapped as a certificate. */
function pemOf(p: IdentityProviderRow): string | null {
  const text = (p.certificatePublicKey || p.certificateFile || '').trim();
  if (!text) return null;
  if (text.includes('-----BEGIN')) return text;
  const body = text.replace(/\s+/g, '').replace(/(.{64})/g, '$1\n');
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----`;
}

/**
 * The user a JWT acts for, or null (a forged, expired or foreign token, a disabled provider, an
 * inactive user, JWT sign-in turned off). Each refusal is logged with its reason, never the token.
 */
export async function userOfJwt(s: Services, token: string): Promise<JwtHolder | null> {
  const refuse = (reason: string, fields: Record<string, unknown> = {}) => {
    s.log.warn('JWT refused', { reason, ...fields });
    return null;
  };
  if (!(await readSetting(s as EngineServices, 'authenticationMethods')).jwtAuth)
    return refuse('JWT sign-in is turned off for the system');
  const jose = await import('jose');
  let alg: string;
  try {
    alg = String(jose.decodeProtectedHeader(token).alg);
  } catch {
    return refuse('not a JWT');
  }
  if (!ASYMMETRIC.includes(alg)) return refuse('algorithm not taken', { alg });
  const providers = (await s.db.getRepository(IdentityProvider).findBy({ isActive: true })).filter(
    (p) => !!seamOf(p)?.bearer,
  );
  let lastReason = 'no active JWT provider';
  for (const p of providers) {
    const pem = pemOf(p);
    if (!pem) continue;
    if (!p.audience?.trim()) {
      lastReason = 'the provider has no audience set';
      continue;
    }
    let payload: Record<string, unknown>;
    try {
      const key = await jose.importX509(pem, alg);
      ({ payload } = await jose.jwtVerify(token, key, {
        algorithms: [alg],
        requiredClaims: ['exp'],
        audience: p.audience.trim(),
        ...(p.entityID && { issuer: p.entityID }),
        clockTolerance: SKEW_S,
        currentDate: s.now(),
      }));
    } catch (e) {
      lastReason = (e as { code?: string }).code ?? 'signature';
      // A token signed by this provider's key but wrong otherwise says so; another provider's key may still fit.
      if (lastReason !== 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' && lastReason !== 'ERR_JOSE_NOT_SUPPORTED')
        return refuse(lastReason, { provider: p.id });
      continue;
    }
    const from = typeof payload.iat === 'number' ? payload.iat : Math.floor(s.now().getTime() / 1000);
    if (Number(payload.exp) - from > JWT_MAX_LIFETIME_S + SKEW_S)
      return refuse('lives longer than 24 hours', { provider: p.id });
    const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : '';
    if (!email) return refuse('no email claim', { provider: p.id });
    const user = await jwtUser(s, p.id, email);
    if (!user)
      return refuse('no active user of an organization that allows JWT with this provider', { provider: p.id });
    return { user, providerId: p.id, expires: new Date(Number(payload.exp) * 1000) };
  }
  return refuse(lastReason);
}

/** The active user with this e-mail in an organization that allows JWT and has this provider. */
async function jwtUser(s: Services, providerId: string, email: string): Promise<UserRow | null> {
  const ids = await sql<{ id: string }>(
    s.db,
    `SELECT u.id FROM users u
     JOIN user_organizations uo ON uo."userId" = u.id
     JOIN organizations o ON o.id = uo."targetId" AND o."allowJwt" = TRUE
     WHERE LOWER(u.email) = ? AND u."isActive" = TRUE
       AND (o."identityProviderId" = ? OR EXISTS (SELECT 1 FROM organization_identity_providers l
            WHERE l."organizationId" = o.id AND l."identityProviderId" = ?))`,
    [email, providerId, providerId],
  );
  return ids.length ? s.db.getRepository(User).findOneBy({ id: ids[0].id }) : null;
}
