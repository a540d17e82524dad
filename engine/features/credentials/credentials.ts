import type { EngineServices, Principal } from '../../ops/context.js';
import { tokenHash } from '../../core/passwords.js';
import { dataVersion, localWrites } from '../../core/db.js';
import { sqliteDate } from '../../core/entity-base.js';
import { User, type UserRow } from '../../model/users.entity.js';
import { ApiKey } from '../../model/api-keys.entity.js';
import { Session } from '../../model/sessions.entity.js';
import { looksLikeJwt, userOfJwt } from '../sso/jwt-bearer.js';
import { principalFor } from '../../access/principal.js';
import { API_KEY_PREFIX, SESSION_PREFIX } from '../auth/credential-prefixes.js';

/** The active user holding a live credential (a session or an API key), found in one read. */
async function activeHolder(
  s: EngineServices,
  credential: typeof Session | typeof ApiKey,
  live: { hash: string; expiry: 'expiresAt' | 'expiryDate' },
  now: Date,
): Promise<{ user: UserRow; credentialId: string; expires: Date } | null> {
  const hashColumn = credential === Session ? 'tokenHash' : 'keyHash';
  const { entities, raw } = await s.db
    .getRepository(User)
    .createQueryBuilder('u')
    .innerJoin(
      credential.options.name,
      'c',
      `c.userId = u.id AND c.${hashColumn} = :hash AND c.${live.expiry} > :now`,
      {
        hash: live.hash,
        now,
      },
    )
    .addSelect('c.id', 'credentialId')
    .addSelect(`c.${live.expiry}`, 'expires')
    .where('u."isActive" = :active', { active: true })
    .getRawAndEntities<{ credentialId: string; expires: string }>();
  return entities[0]
    ? { user: entities[0], credentialId: raw[0].credentialId, expires: sqliteDate(raw[0].expires) }
    : null;
}

/** The principal of a credential (or null), read from the database. */
async function readCredential(s: EngineServices, token: string, hash: string, now: Date) {
  if (token.startsWith(SESSION_PREFIX)) {
    const found = await activeHolder(s, Session, { hash, expiry: 'expiresAt' }, now);
    return (
      found && { principal: await principalFor(s, found.user, 'session', found.credentialId), expires: found.expires }
    );
  }
  if (token.startsWith(API_KEY_PREFIX)) {
    const found = await activeHolder(s, ApiKey, { hash, expiry: 'expiryDate' }, now);
    if (!found) return null;
    const principal = await principalFor(s, found.user, 'apiKey', found.credentialId);
    // A key acts for its owner only while the owner may still use API keys.
    return principal.permissions.useApiKeys ? { principal, expires: found.expires } : null;
  }
  if (looksLikeJwt(token)) {
    const found = await userOfJwt(s, token);
    return found && { principal: await principalFor(s, found.user, 'jwt', found.providerId), expires: found.expires };
  }
  return null;
}

/**
 * Principals read since the database last changed, by credential hash. Every call of a signed-in
 * user resolves its credential; while nothing was written (by this engine or another on the same
 * file) the answer cannot differ, so it is read once, not three times a call. Any write at all
 * forgets them (a revoked key, a deactivated user, a changed role), and each is kept only until
 * its credential expires.
 */
interface Remembered {
  /** This engine's finished writes and the file's data_version, both taken before the read. */
  writes: number;
  version: number;
  principal: Principal;
  expires: Date;
}
const REMEMBERED_MAX = 1000;
const remembered = new WeakMap<object, Map<string, Remembered>>();
const rememberedOf = (s: EngineServices) => {
  let byHash = remembered.get(s.db);
  if (!byHash) remembered.set(s.db, (byHash = new Map()));
  return byHash;
};

/** A copy the caller may change without changing what is remembered. */
const copyOf = (p: Principal): Principal => ({
  ...p,
  user: { ...p.user },
  permissions: { ...p.permissions },
  roleIds: [...p.roleIds],
  projectIds: [...p.projectIds],
  organizationIds: p.organizationIds && [...p.organizationIds],
});

/** A remembered principal, with whether the file is still as it was when it was read. */
export interface RememberedCredential {
  principal: Principal;
  /** True when no other connection committed since: asked of SQLite, so it takes one trip. */
  unchanged: Promise<boolean>;
}

/**
 * The principal remembered for a credential, when this engine has written nothing since it was
 * read and it has not expired; whether another engine changed the file is asked at the same
 * moment and answered by `unchanged`. A reader may start its work meanwhile and must not answer
 * (nor write) before `unchanged` is true (`ops/dispatch.ts`).
 */
export function rememberedCredential(s: EngineServices, token: string): RememberedCredential | null {
  const known = rememberedOf(s).get(tokenHash(token));
  if (!known || known.writes !== localWrites(s.db) || !(s.now() < known.expires)) return null;
  return {
    principal: copyOf(known.principal),
    unchanged: dataVersion(s.db).then(
      (version) => version === known.version,
      () => false,
    ),
  };
}

/** Resolves a bearer credential (session token or API key) to a principal, or null when it is not valid now. */
export async function resolveCredential(s: EngineServices, token: string): Promise<Principal | null> {
  const now = s.now();
  const hash = tokenHash(token);
  const byHash = rememberedOf(s);
  // Taken before the read: a write that ends while it runs makes them differ next time.
  const writes = localWrites(s.db);
  const version = await dataVersion(s.db);
  const known = byHash.get(hash);
  if (known && known.writes === writes && known.version === version && now < known.expires)
    return copyOf(known.principal);
  const found = await readCredential(s, token, hash, now);
  if (!found) {
    byHash.delete(hash);
    return null;
  }
  if (byHash.size >= REMEMBERED_MAX) byHash.clear();
  byHash.set(hash, { writes, version, principal: copyOf(found.principal), expires: found.expires });
  return found.principal;
}
