import type { OpContext, Principal } from '../ops/context.js';
import { me } from '../ops/context.js';
import { EngineError } from '../core/errors.js';
import { ROLE_PERMISSIONS, type PermissionFlags, type RolePermission } from '../core/permissions.js';
import { principalFor } from './principal.js';
import type { UserRow } from '../model/users.entity.js';
import { MemberPermission, PERMISSION_FLAGS, type MemberPermissionRow } from '../model/members.entity.js';
import { heldFlags } from './member-access.js';
import { In } from 'typeorm';

// The rules wherever a privilege is granted (users, roles, conversions; API keys act through
// their owner's current principal): nobody grants a permission they do not hold; only tenant
// administrators assign roles or the tenant-admin flag; nobody but the owner changes the owner;
// only tenant administrators change the password, e-mail or status of someone who outranks them.

import { isTenantAdministrator } from './tenant-administrator.js';

export { isTenantAdministrator };

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
  return (
    missingPermissions(actor, target.permissions).length > 0 ||
    (target.allProjects && !actor.allProjects && !isTenantAdministrator(actor))
  );
}

/** A role's content as a grant: permissions and project reach the actor must hold to give. */
export function refuseGrantBeyondOwn(
  ctx: OpContext,
  role: { permissions: Partial<PermissionFlags>; allProjects: boolean; projectIds: string[] },
) {
  const actor = me(ctx);
  if (isTenantAdministrator(actor)) return;
  const missing = missingPermissions(actor, role.permissions);
  if (missing.length)
    throw refuse(
      `body.permissions.${missing[0]}`,
      `You cannot grant permissions you do not hold: ${missing.join(', ')}`,
    );
  if (actor.allProjects) return;
  if (role.allProjects)
    throw refuse('body.allProjects', 'You cannot grant access to all projects: your own roles reach only some');
  const beyond = role.projectIds.filter((id) => !actor.projectIds.includes(id));
  if (beyond.length) throw refuse('body.projects', 'You cannot grant access to projects your own roles do not reach');
}

/** Whether a role in its current state holds more than the actor, so that only an administrator may change it. */
export function refuseChangingStrongerRole(
  ctx: OpContext,
  current: {
    name: string;
    permissions: Partial<PermissionFlags>;
    allProjects: boolean;
    projects: { id: string }[] | null;
  },
) {
  const actor = me(ctx);
  if (isTenantAdministrator(actor)) return;
  const beyondProjects =
    !actor.allProjects &&
    (current.allProjects || (current.projects ?? []).some((p) => !actor.projectIds.includes(p.id)));
  if (missingPermissions(actor, current.permissions).length || beyondProjects) {
    throw refuse(
      'params.id',
      `The role "${current.name}" holds rights you do not hold; only a tenant administrator may change it`,
    );
  }
}

/**
 * Member permission sets the actor could not have given themselves: a group's rows count as rights
 * of everyone who joins it, and a transfer hands a user's rows on. Answers the first flag beyond.
 */
export async function memberFlagsBeyondOwn(ctx: OpContext, rows: MemberPermissionRow[]): Promise<string | null> {
  if (isTenantAdministrator(me(ctx))) return null;
  for (const row of rows) {
    const held = await heldFlags(ctx, row.objectType, row.objectId, row.projectId);
    const beyond = PERMISSION_FLAGS.find((f) => row.permissions[f] && !held.has(f));
    if (beyond) return beyond;
  }
  return null;
}

/**
 * Putting someone (oneself included) into groups gives them the groups' member permissions: it
 * takes the right to edit groups, and every flag those groups hold must be the actor's own.
 */
export async function refuseGroupJoinBeyondOwn(ctx: OpContext, groupIds: string[], field: string) {
  const actor = me(ctx);
  if (isTenantAdministrator(actor) || !groupIds.length) return;
  if (!actor.permissions.editGroup) throw refuse(field, 'Putting people into groups needs the editGroup permission');
  const rows = await ctx.db.getRepository(MemberPermission).findBy({ memberId: In(groupIds) });
  const beyond = await memberFlagsBeyondOwn(ctx, rows);
  if (beyond)
    throw refuse(
      field,
      `A group's member permissions include ${beyond}, which you do not hold; only someone who holds them may add members to it`,
    );
}

/** Organizations are boundaries: only a tenant administrator puts someone into one they do not belong to themselves. */
export function refuseOrganizationsBeyondOwn(ctx: OpContext, organizationIds: string[], field: string) {
  const actor = me(ctx);
  if (isTenantAdministrator(actor)) return;
  const outside = organizationIds.filter((id) => !(actor.organizationIds ?? []).includes(id));
  if (outside.length) throw refuse(field, 'You can only give access to organizations you belong to');
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
  /** The organizations and groups asked for, with the current ones (undefined or null: unchanged). */
  organizationIds?: string[] | null;
  currentOrganizationIds?: string[];
  groupIds?: string[] | null;
  currentGroupIds?: string[];
  /** The kind asked for (a license change: Designer is a user, Viewer a recipient). */
  kind?: UserRow['kind'];
}

const sameSet = (a: string[], b: string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** Checks a change to a user (or a new user, when `target` is null) against the rules above. */
export async function refuseUserChangeBeyondRights(
  ctx: OpContext,
  target: UserRow | null,
  currentRoleIds: string[],
  change: UserChange,
) {
  const actor = me(ctx);
  if (target?.isTenantOwner && !actor.isTenantOwner)
    throw refuse('params.id', "Only the tenant owner may change the owner's account");
  if (isTenantAdministrator(actor)) return;
  if (change.tenantAdmin !== undefined && change.tenantAdmin !== (target?.isTenantAdmin ?? false)) {
    throw refuse('body.isTenantAdmin', 'Only a tenant administrator may grant or remove the tenant-admin role');
  }
  if (change.roleIds && !change.rolesByRule && !sameSet([...new Set(change.roleIds)], currentRoleIds)) {
    throw refuse('body.roles', 'Only a tenant administrator may assign roles');
  }
  const added = (asked: string[] | null | undefined, current: string[] = []) =>
    asked ? [...new Set(asked)].filter((id) => !current.includes(id)) : [];
  refuseOrganizationsBeyondOwn(ctx, added(change.organizationIds, change.currentOrganizationIds), 'body.organizations');
  await refuseGroupJoinBeyondOwn(ctx, added(change.groupIds, change.currentGroupIds), 'body.groups');
  if (!target || target.id === actor.user.id) return;
  const changed = (asked: string[] | null | undefined, current: string[] = []) =>
    !!asked && !sameSet([...new Set(asked)], current);
  // Every change of what someone may reach or do: who they are to sign in, whether they may, where they belong.
  const touched = [
    change.password ? 'body.password' : null,
    change.email !== undefined && change.email !== target.email ? 'body.email' : null,
    change.isActive !== undefined && change.isActive !== target.isActive ? 'body.isActive' : null,
    changed(change.organizationIds, change.currentOrganizationIds) ? 'body.organizations' : null,
    changed(change.groupIds, change.currentGroupIds) ? 'body.groups' : null,
    change.kind !== undefined && change.kind !== target.kind ? 'body.license' : null,
  ].find(Boolean);
  if (touched && outranks(await principalFor(ctx, target, 'session', ''), actor)) {
    throw refuse(
      touched,
      `${target.firstName} ${target.lastName} has rights you do not hold; only a tenant administrator may change their password, e-mail, status, organizations, groups or license`,
    );
  }
}
