import { z } from 'zod';
import { keptRead } from '../../core/kept-reads.js';
import { me, type OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { conflict, fieldError } from '../../core/errors.js';
import { countWhere, findOr404, requireAll } from '../../core/rows.js';
import type { ListSpec } from '../../core/list-query.js';
import { passwordProblem } from '../../core/passwords.js';
import { v } from '../../core/validation.js';
export { email, nemail } from '../../core/validation.js';
import { Organization } from '../../model/organizations.entity.js';
import { Group } from '../../model/groups.entity.js';
import { Role } from '../../model/roles.entity.js';
import { Session } from '../../model/sessions.entity.js';
import { allUsersGroupId } from '../groups/groups.rules.js';
import { refuseUserChangeBeyondRights } from '../../access/privilege.js';
import { User, UserGroup, UserOrganization, UserRole, type UserKind, type UserRow } from '../../model/users.entity.js';
import { runList, ListQuery } from '../../core/list-query.js';
import { Page } from '../../core/envelope.js';
import { withinOrganizations } from '../../core/organization-boundary.js';
import { marks } from '../../core/sql.js';

export const HUB_USERS_ROLE = 'Hub users';
export const ADMINISTRATOR_ROLE = 'Administrator';

export const LIST_USERS: ListSpec = {
  sort: {
    FullName: 'LOWER(u."firstName" || \' \' || u."lastName")',
    Email: 'LOWER(u.email)',
    UserName: 'LOWER(COALESCE(u."domainAccount", u.email))',
    IsActive: 'u."isActive"',
    Groups: '(SELECT COUNT(*) FROM user_groups ug WHERE ug."userId" = u.id)',
    Type: 'u.kind',
    CreatedDate: 'u."createdDate"',
    ModifiedDate: 'u."modifiedDate"',
  },
  defaultSort: { by: 'FullName', direction: 'asc' },
  text: { full_name: "u.firstName || ' ' || u.lastName", email: 'u.email' },
  bool: { is_active: 'u."isActive"' },
  uuid: {
    group_id: (value, p) => ({
      sql: `EXISTS (SELECT 1 FROM user_groups ugf WHERE ugf."userId" = u.id AND ugf."targetId" = :${p})`,
      params: { [p]: value },
    }),
  },
};

type Named = { id: string; name: string };

type Link = Named & { userId: string; kind: 'role' | 'organization' | 'group' };

/**
 * Users with their roles, organizations and groups, loaded in one query for the whole page (each query
 * is a trip to the database's thread).
 */
export async function userDtos(ctx: OpContext, users: UserRow[]) {
  const ids = users.map((u) => u.id);
  const link = (kind: Link['kind'], table: string, target: string, nameExpr: string) =>
    `SELECT '${kind}' AS kind, l."userId", t.id, ${nameExpr} AS name FROM ${table} l JOIN ${target} t ON t.id = l."targetId" WHERE l."userId" IN (${marks(ids)})`;
  const links = ids.length
    ? await keptRead<Link>(
        ctx.db,
        `${link('role', 'user_roles', 'roles', 't.name')}
         UNION ALL ${link('organization', 'user_organizations', 'organizations', 't."displayName"')}
         UNION ALL ${link('group', 'user_groups', 'groups', 't.name')}
         ORDER BY name`,
        [...ids, ...ids, ...ids],
      )
    : [];
  const of = (kind: Link['kind'], id: string) =>
    links.filter((l) => l.kind === kind && l.userId === id).map(({ id: i, name }) => ({ id: i, name }));
  return users.map((u) => ({
    id: u.id,
    type: u.kind,
    firstName: u.firstName,
    lastName: u.lastName,
    fullName: `${u.firstName} ${u.lastName}`,
    email: u.email,
    userName: u.domainAccount ?? u.email,
    domainAccount: u.domainAccount,
    isActive: u.isActive,
    sendNotification: u.sendNotification,
    isoLanguage: u.isoLanguage,
    timeZone: u.timeZone ?? null,
    isTenantOwner: u.isTenantOwner,
    isTenantAdmin: u.isTenantAdmin,
    hasPassword: u.passwordHash !== null,
    // The interface names the field; a password is never answered.
    password: null,
    // Synchronized from a user directory: changes to name and e-mail come from there.
    directoryId: u.directoryId ?? null,
    roles: of('role', u.id),
    organizations: of('organization', u.id),
    groups: of('group', u.id),
    createdDate: iso(u.createdDate),
    modifiedDate: iso(u.modifiedDate),
  }));
}

export async function userDto(ctx: OpContext, u: UserRow) {
  return (await userDtos(ctx, [u]))[0];
}

export interface UserFields {
  kind: UserKind;
  firstName: string;
  lastName: string;
  email?: string | null;
  password?: string | null;
  domainAccount?: string | null;
  isActive: boolean;
  sendNotification?: boolean;
  isoLanguage?: string | null;
  /** undefined or null keeps the current links; an array replaces them. */
  roleIds?: string[] | null;
  /** The roles are the product's default for this kind of user, not the caller's choice. */
  rolesByRule?: boolean;
  organizationIds?: string[] | null;
  groupIds?: string[] | null;
  /** A recipient becomes a user (the only change of kind there is). */
  convertRecipient?: boolean;
}

/** The ids a user is linked to through one of their link tables (roles, organizations, groups). */
export async function linkedIds(
  ctx: Pick<OpContext, 'db'>,
  entity: typeof UserRole,
  userId: string,
): Promise<string[]> {
  return (await ctx.db.getRepository(entity).findBy({ userId })).map((l) => l.targetId);
}

export async function endSessions(ctx: OpContext, userId: string) {
  await ctx.db.getRepository(Session).delete({ userId });
}

/** Creates or updates a user or recipient with their links, checking every rule before writing anything. */
export async function saveUser(ctx: OpContext, id: string | null, f: UserFields) {
  const current = id ? await findOr404(ctx, User, id, f.kind === 'recipient' ? 'Recipient' : 'User') : null;
  const expectedKind = f.convertRecipient ? 'recipient' : f.kind;
  if (current && current.kind !== expectedKind) {
    throw conflict(
      f.convertRecipient
        ? `${current.firstName} ${current.lastName} is already a user`
        : `${current.firstName} ${current.lastName} is a ${current.kind}, not a ${f.kind}`,
    );
  }
  // What is not there for the caller (another organization's) answers 404 before any rule is weighed.
  if (f.roleIds) await requireAll(ctx, Role, f.roleIds, 'Role');
  if (f.organizationIds) await requireAll(ctx, Organization, f.organizationIds, 'Organization');
  if (f.groupIds) await requireAll(ctx, Group, f.groupIds, 'Group');
  const linked = async (entity: typeof UserRole) => (current ? linkedIds(ctx, entity, current.id) : []);
  const [currentRoleIds, currentOrganizationIds, currentGroupIds] = [
    await linked(UserRole),
    await linked(UserOrganization),
    await linked(UserGroup),
  ];
  // "All users" is everyone's, whatever the form names: it is neither joined nor left here.
  const allUsersGroup = await allUsersGroupId(ctx);
  const notAll = (ids: string[] | null | undefined) => ids?.filter((id) => id !== allUsersGroup);
  await refuseUserChangeBeyondRights(ctx, current, currentRoleIds, {
    roleIds: f.roleIds,
    rolesByRule: f.rolesByRule,
    email: f.email,
    password: f.password,
    isActive: f.isActive,
    organizationIds: f.organizationIds,
    currentOrganizationIds,
    groupIds: notAll(f.groupIds),
    currentGroupIds: notAll(currentGroupIds),
  });
  if (f.email) {
    const taken = await ctx.db.getRepository(User).findOneBy({ email: f.email });
    if (taken && taken.id !== id)
      throw conflict('Another user already has this e-mail address', [
        { field: 'body.email', message: 'is already in use' },
      ]);
  }
  if (f.password) {
    const problem = passwordProblem(f.password);
    if (problem) throw fieldError('body.password', problem);
  }
  if (current?.isTenantOwner && !f.isActive) throw conflict('The tenant owner cannot be deactivated');

  const passwordHash = f.password ? await ctx.passwords.hash(f.password) : (current?.passwordHash ?? null);
  const row: UserRow = {
    ...(current ?? {
      ...newBase(ctx.now()),
      isTenantOwner: false,
      isTenantAdmin: false,
      createdBy: ctx.principal?.user.id ?? null,
    }),
    kind: f.kind,
    firstName: f.firstName,
    lastName: f.lastName,
    email: f.email === undefined ? (current?.email ?? null) : f.email,
    passwordHash,
    domainAccount: f.domainAccount === undefined ? (current?.domainAccount ?? null) : f.domainAccount,
    isActive: f.isActive,
    sendNotification: f.sendNotification ?? current?.sendNotification ?? false,
    isoLanguage: f.isoLanguage === undefined ? (current?.isoLanguage ?? null) : f.isoLanguage,
    modifiedDate: ctx.now(),
    modifiedBy: ctx.principal?.user.id ?? null,
  };
  const allUsers = allUsersGroup;
  await ctx.db.transaction(async (m) => {
    await m.getRepository(User).save(row);
    const replace = async (entity: typeof UserRole, ids: string[]) => {
      await m.getRepository(entity).delete({ userId: row.id });
      const unique = [...new Set(ids)];
      if (unique.length) await m.getRepository(entity).insert(unique.map((targetId) => ({ userId: row.id, targetId })));
    };
    if (f.roleIds) await replace(UserRole, f.roleIds);
    if (f.organizationIds) await replace(UserOrganization, f.organizationIds);
    // Everyone stays in "All users", whatever groups the form names.
    if (f.groupIds) await replace(UserGroup, allUsers ? [...f.groupIds, allUsers] : f.groupIds);
    else if (!current && allUsers) await m.getRepository(UserGroup).insert({ userId: row.id, targetId: allUsers });
    // A new password or a deactivation ends every session of the user.
    if (current && (f.password || !f.isActive)) await m.getRepository(Session).delete({ userId: row.id });
  });
  return userDto(ctx, row);
}

export async function roleIdByName(ctx: OpContext, name: string): Promise<string[]> {
  const role = await ctx.db.getRepository(Role).findOneBy({ name, type: 'system' });
  return role ? [role.id] : [];
}
export const idNames = () => z.array(v.idName());

/** Users and recipients, one page, with their roles, organizations and groups. */
export async function listUsers(ctx: OpContext, list: ListQuery) {
  const { rows, total, page, pageSize } = await runList(
    withinOrganizations(ctx, ctx.db.getRepository(User).createQueryBuilder('u'), User, 'u'),
    LIST_USERS,
    list,
    'u.id',
  );
  return new Page(await userDtos(ctx, rows), page, pageSize, total);
}

/**
 * Deletes a user (set B): never oneself nor the tenant owner, and never someone who still owns
 * content (projects, reports, tasks, resources): that content is transferred first.
 */
export async function deleteUser(ctx: OpContext, id: string) {
  const target = await findOr404(ctx, User, id, 'User');
  const actor = me(ctx);
  if (target.id === actor.user.id)
    throw conflict('You cannot delete your own account', [{ field: 'params.id', message: 'is you' }]);
  if (target.isTenantOwner)
    throw conflict('The owner of this installation cannot be deleted', [
      { field: 'params.id', message: 'is the tenant owner' },
    ]);
  const roleIds = (await ctx.db.getRepository(UserRole).findBy({ userId: id })).map((r) => r.targetId);
  // Deleting is the strongest change of access: the same rule as changing a password or status.
  await refuseUserChangeBeyondRights(ctx, target, roleIds, { isActive: !target.isActive });
  const owned = async (table: string) =>
    countWhere(ctx, `SELECT COUNT(*) AS n FROM ${table} WHERE "createdBy" = ?`, [id]);
  const content = [
    [await owned('projects'), 'project'],
    [await owned('reports'), 'report'],
    [await owned('tasks'), 'task'],
    [await owned('resources'), 'resource'],
  ]
    .filter(([n]) => Number(n) > 0)
    .map(([n, what]) => `${n} ${what}${n === 1 ? '' : 's'}`);
  if (content.length) {
    throw conflict(
      `${target.firstName} ${target.lastName} still owns ${content.join(', ')}; transfer them to another user first`,
      [{ field: 'params.id', message: `owns ${content.join(', ')}` }],
    );
  }
  await ctx.db.getRepository(User).delete({ id });
  return { deleted: 1 };
}
