import type { EngineServices, Principal } from '../../ops/context.js';
import { allPermissions, noPermissions, ROLE_PERMISSIONS, type PermissionFlags } from '../../core/permissions.js';
import { tokenHash } from '../../core/passwords.js';
import { User, UserOrganization, UserRole, type UserRow } from '../users/users.entity.js';
import { Role } from '../roles/roles.entity.js';
import { ApiKey } from '../api-keys/api-keys.entity.js';
import { Session } from './sessions.entity.js';

export const SESSION_PREFIX = 'bss_';
export const API_KEY_PREFIX = 'bsk_';

/** Effective permissions: the union over the user's active roles; owners and tenant admins hold all. */
export async function principalFor(
  s: EngineServices,
  user: UserRow,
  via: Principal['via'],
  credentialId: string,
): Promise<Principal> {
  // One read for the active roles through the user's links: each read is a trip to the database's thread.
  const roles = await s.db
    .getRepository(Role)
    .createQueryBuilder('r')
    .innerJoin(UserRole.options.name, 'ur', 'ur.targetId = r.id AND ur.userId = :userId', { userId: user.id })
    .where('r.isActive = :active', { active: true })
    .getMany();
  const admin = user.isTenantOwner || user.isTenantAdmin;
  const permissions: PermissionFlags = admin ? allPermissions() : noPermissions();
  let allProjects = admin;
  const projectIds = new Set<string>();
  for (const role of roles) {
    for (const p of ROLE_PERMISSIONS) if (role.permissions?.[p]) permissions[p] = true;
    if (role.allProjects) allProjects = true;
    for (const p of role.projects ?? []) projectIds.add(p.id);
  }
  return {
    user,
    via,
    credentialId,
    isTenantOwner: user.isTenantOwner,
    isTenantAdmin: user.isTenantAdmin,
    permissions,
    roleIds: roles.map((r) => r.id),
    allProjects,
    projectIds: [...projectIds],
    organizationIds: admin
      ? null
      : (await s.db.getRepository(UserOrganization).findBy({ userId: user.id })).map((l) => l.targetId),
  };
}

/** The active user holding a live credential (a session or an API key), found in one read. */
async function activeHolder(
  s: EngineServices,
  credential: typeof Session | typeof ApiKey,
  live: string,
  values: { hash: string; now: Date },
): Promise<{ user: UserRow; credentialId: string } | null> {
  const { entities, raw } = await s.db
    .getRepository(User)
    .createQueryBuilder('u')
    .innerJoin(credential.options.name, 'c', `c.userId = u.id AND ${live}`, values)
    .addSelect('c.id', 'credentialId')
    .where('u.isActive = :active', { active: true })
    .getRawAndEntities<{ credentialId: string }>();
  return entities[0] ? { user: entities[0], credentialId: raw[0].credentialId } : null;
}

/** Resolves a bearer credential (session token or API key) to a principal, or null when it is not valid now. */
export async function resolveCredential(s: EngineServices, token: string): Promise<Principal | null> {
  const now = s.now();
  const hash = tokenHash(token);
  if (token.startsWith(SESSION_PREFIX)) {
    const found = await activeHolder(s, Session, 'c.tokenHash = :hash AND c.expiresAt > :now', { hash, now });
    return found ? principalFor(s, found.user, 'session', found.credentialId) : null;
  }
  if (token.startsWith(API_KEY_PREFIX)) {
    const found = await activeHolder(s, ApiKey, 'c.keyHash = :hash AND c.expiryDate > :now', { hash, now });
    if (!found) return null;
    const principal = await principalFor(s, found.user, 'apiKey', found.credentialId);
    // A key acts for its owner only while the owner may still use API keys.
    return principal.permissions.useApiKeys ? principal : null;
  }
  return null;
}
