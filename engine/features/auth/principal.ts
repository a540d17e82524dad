import { In, MoreThan } from 'typeorm';
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
  const links = await s.db.getRepository(UserRole).findBy({ userId: user.id });
  const roles = links.length
    ? await s.db.getRepository(Role).findBy({ id: In(links.map((l) => l.targetId)), isActive: true })
    : [];
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

/** Resolves a bearer credential (session token or API key) to a principal, or null when it is not valid now. */
export async function resolveCredential(s: EngineServices, token: string): Promise<Principal | null> {
  const now = s.now();
  const hash = tokenHash(token);
  if (token.startsWith(SESSION_PREFIX)) {
    const session = await s.db.getRepository(Session).findOneBy({ tokenHash: hash, expiresAt: MoreThan(now) });
    if (!session) return null;
    const user = await s.db.getRepository(User).findOneBy({ id: session.userId, isActive: true });
    return user ? principalFor(s, user, 'session', session.id) : null;
  }
  if (token.startsWith(API_KEY_PREFIX)) {
    const key = await s.db.getRepository(ApiKey).findOneBy({ keyHash: hash, expiryDate: MoreThan(now) });
    if (!key) return null;
    const user = await s.db.getRepository(User).findOneBy({ id: key.userId, isActive: true });
    if (!user) return null;
    const principal = await principalFor(s, user, 'apiKey', key.id);
    // A key acts for its owner only while the owner may still use API keys.
    return principal.permissions.useApiKeys ? principal : null;
  }
  return null;
}
