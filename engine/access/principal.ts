// Who the caller is allowed to be: a user's effective role flags and project reach, the union over
// their active roles (owners and tenant administrators hold all).
import type { EngineServices, Principal } from '../ops/context.js';
import { allPermissions, noPermissions, ROLE_PERMISSIONS, type PermissionFlags } from '../core/permissions.js';
import { UserOrganization, UserRole, type UserRow } from '../model/users.entity.js';
import { Role } from '../model/roles.entity.js';
import { isTenantAdministrator } from './tenant-administrator.js';

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
    .innerJoin(UserRole.options.name, 'ur', 'ur."targetId" = r.id AND ur."userId" = :userId', { userId: user.id })
    .where('r."isActive" = :active', { active: true })
    .getMany();
  const admin = isTenantAdministrator(user);
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
