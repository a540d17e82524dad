import type { OpContext, Principal } from '../../ops/context.js';
import { me } from '../../ops/context.js';
import { EngineError } from '../../core/errors.js';
import { ROLE_PERMISSIONS, type PermissionFlags, type RolePermission } from '../../core/permissions.js';
import { principalFor } from '../auth/principal.js';
import type { UserRow } from './users.entity.js';

// The rules wherever a privilege is granted (users, roles, conversions; API keys act through
// their owner's current principal): nobody grants a permission they do not hold; only tenant
// administrators assign roles or the tenant-admin flag; nobody but the owner changes the owner;
// only tenant administrators change the password, e-mail or status of someone who outranks them.

export const isTenantAdministrator = (p: Principal) => p.isTenantOwner || p.isTenantAdmin;

const refuse = (field: string, message: string) => new EngineError(403, message, [{ field, message }]);

/** The permissions among `flags` that the principal does not hold. */
export function missingPermissions(p: Principal, flags: Partial<PermissionFlags>): RolePermission[] {
  if (isTenantAdministrator(p)) return [];
  return ROLE_PERMISSIONS.filter((name) => flags[name] === true && !p.permissions[name]);
}

/** A principal outranks another when it is a tenant administrator or holds a permission the other lacks. */
export function outranks(target: Principal, actor: Principal): boolean {
  if (actor.isTenantOwner) return false;
  if (target.isTenantOwner || (target.isTenantAdmin && !actor.isTenantAdmin)) return true;
  return missingPermissions(actor, target.permissions).length > 0 || (target.allProjects && !actor.allProjects && !isTenantAdministrator(actor));
}

/** A role's content as a grant: permissions and project reach the actor must hold to give. */
export function refuseGrantBeyondOwn(ctx: OpContext, role: { permissions: Partial<PermissionFlags>; allProjects: boolean; projectIds: string[] }) {
  const actor = me(ctx);
  if (isTenantAdministrator(actor)) return;
  const missing = missingPermissions(actor, role.permissions);
  if (missing.length) throw refuse(`body.permissions.${missing[0]}`, `You cannot grant permissions you do not hold: ${missing.join(', ')}`);
  if (actor.allProjects) return;
  if (role.allProjects) throw refuse('body.allProjects', 'You cannot grant access to all projects: your own roles reach only some');
  const beyond = role.projectIds.filter((id) => !actor.projectIds.includes(id));
  if (beyond.length) throw refuse('body.projects', 'You cannot grant access to projects your own roles do not reach');
}

/** Whether a role in its current state holds more than the actor, so that only an administrator may change it. */
export function refuseChangingStrongerRole(ctx: OpContext, current: { name: string; permissions: Partial<PermissionFlags>; allProjects: boolean; projects: { id: string }[] | null }) {
  const actor = me(ctx);
  if (isTenantAdministrator(actor)) return;
  const beyondProjects = !actor.allProjects && (current.allProjects || (current.projects ?? []).some((p) => !actor.projectIds.includes(p.id)));
  if (missingPermissions(actor, current.permissions).length || beyondProjects) {
    throw refuse('params.id', `The role "${current.name}" holds rights you do not hold; only a tenant administrator may change it`);
  }
}

export interface UserChange {
  /** The role ids the caller asks for; null or undefined keeps the current ones. */
  roleIds?: string[] | null;
  /** Roles the product assigns by rule (a recipient's "Hub users"), not chosen by the caller. */
  rolesByRule?: boolean;
  email?: string | null;
  password?: string | null;
  isActive?: boolean;
  tenantAdmin?: boolean;
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Checks a change to a user (or a new user, when `target` is null) against the rules above. */
export async function refuseUserChangeBeyondRights(ctx: OpContext, target: UserRow | null, currentRoleIds: string[], change: UserChange) {
  const actor = me(ctx);
  if (target?.isTenantOwner && !actor.isTenantOwner) throw refuse('params.id', "Only the tenant owner may change the owner's account");
  if (isTenantAdministrator(actor)) return;
  if (change.tenantAdmin !== undefined && change.tenantAdmin !== (target?.isTenantAdmin ?? false)) {
    throw refuse('body.isTenantAdmin', 'Only a tenant administrator may grant or remove the tenant-admin role');
  }
  if (change.roleIds && !change.rolesByRule && !sameSet([...new Set(change.roleIds)], currentRoleIds)) {
    throw refuse('body.roles', 'Only a tenant administrator may assign roles');
  }
  if (!target || target.id === actor.user.id) return;
  const touchesAccess =
    !!change.password || (change.email !== undefined && change.email !== target.email) || (change.isActive !== undefined && change.isActive !== target.isActive);
  if (touchesAccess && outranks(await principalFor(ctx, target, 'session', ''), actor)) {
    const field = change.password ? 'body.password' : change.email !== undefined && change.email !== target.email ? 'body.email' : 'body.isActive';
    throw refuse(field, `${target.firstName} ${target.lastName} has rights you do not hold; only a tenant administrator may change their password, e-mail or status`);
  }
}
