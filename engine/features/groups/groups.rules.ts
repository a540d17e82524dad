import { z } from 'zod';
import { In } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { conflict } from '../../core/errors.js';
import { countWhere, findOr404, refuseTakenName, refuseIfReferenced, requireAll } from '../../core/rows.js';
import type { ListSpec } from '../../core/list-query.js';
import { Organization } from '../../model/organizations.entity.js';
import { User, UserGroup } from '../../model/users.entity.js';
import { Group, type GroupRow } from '../../model/groups.entity.js';
import { rawPageOf, ListQuery } from '../../core/list-query.js';
import { withinOrganizations } from '../../core/organization-boundary.js';
import { refuseGroupJoinBeyondOwn } from '../../access/privilege.js';
import { marks, sql } from '../../core/sql.js';
import { lazySchema } from '../../core/lazy-schema.js';

export const ALL_USERS_GROUP = 'All users';

const MEMBER_COUNT = '(SELECT COUNT(*) FROM user_groups ug WHERE ug."targetId" = g.id)';

export const LIST_GROUPS: ListSpec = {
  sort: {
    Name: 'LOWER(g.name)',
    Type: 'g.type',
    'Organization.Name': 'LOWER(o."displayName")',
    Users: MEMBER_COUNT,
    CreatedDate: 'g."createdDate"',
    ModifiedDate: 'g."modifiedDate"',
  },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'g.name' },
};

export const LIST_GROUP_MEMBERS: ListSpec = {
  sort: { fullName: 'LOWER(u."firstName" || \' \' || u."lastName")', email: 'LOWER(u.email)' },
  defaultSort: { by: 'fullName', direction: 'asc' },
};

/** Groups of the caller's organizations (and those shared by all), with their organization at hand. */
export function groupsQuery(ctx: OpContext) {
  const qb = ctx.db
    .getRepository(Group)
    .createQueryBuilder('g')
    .leftJoin('organizations', 'o', 'o.id = g.organizationId');
  return withinOrganizations(ctx, qb, Group, 'g');
}

/** A group as answered (set A 2.4, with its organization's name and its member count). */
export const GroupResult = lazySchema(() =>
  z.object({
    id: z.guid(),
    name: z.string(),
    description: z.string().nullable(),
    organizationId: z.guid().nullable(),
    organizationName: z.string().nullable(),
    isActive: z.boolean(),
    type: z.string(),
    users: z.number().int().min(0),
    createdDate: z.iso.datetime().nullable(),
    modifiedDate: z.iso.datetime().nullable(),
  }),
);

export async function groupDtos(ctx: OpContext, rows: GroupRow[]): Promise<z.output<typeof GroupResult>[]> {
  const ids = rows.map((g) => g.id);
  const counts = ids.length
    ? await sql<{ id: string; n: number }>(
        ctx.db,
        `SELECT "targetId" AS id, COUNT(*) AS n FROM user_groups WHERE "targetId" IN (${marks(ids)}) GROUP BY "targetId"`,
        ids,
      )
    : [];
  const orgIds = [...new Set(rows.map((g) => g.organizationId).filter((x): x is string => !!x))];
  const orgs = orgIds.length ? await ctx.db.getRepository(Organization).findBy({ id: In(orgIds) }) : [];
  return rows.map((g) => ({
    id: g.id,
    name: g.name,
    description: g.description,
    organizationId: g.organizationId,
    organizationName: orgs.find((o) => o.id === g.organizationId)?.displayName ?? null,
    isActive: g.isActive,
    type: g.type,
    users: Number(counts.find((c) => c.id === g.id)?.n ?? 0),
    createdDate: iso(g.createdDate),
    modifiedDate: iso(g.modifiedDate),
  }));
}

export async function groupDto(ctx: OpContext, row: GroupRow) {
  return (await groupDtos(ctx, [row]))[0];
}

export interface GroupFields {
  name: string;
  description?: string | null;
  organizationId?: string | null;
  isActive?: boolean;
}

export async function saveGroup(ctx: OpContext, id: string | null, f: GroupFields) {
  if (f.organizationId) await findOr404(ctx, Organization, f.organizationId, 'Organization');
  const current = id ? await findOr404(ctx, Group, id, 'Group') : null;
  if (current?.type === 'system' && f.name !== current.name)
    throw conflict(`The built-in group "${current.name}" cannot be renamed`);
  await refuseTakenName(ctx, Group, f.name, id, 'group');
  const row: GroupRow = {
    ...(current ?? { ...newBase(ctx.now()), type: 'custom', organizationId: null, isActive: true }),
    name: f.name,
    description: f.description === undefined ? (current?.description ?? null) : f.description,
    modifiedDate: ctx.now(),
  };
  if (f.organizationId !== undefined) row.organizationId = f.organizationId;
  if (f.isActive !== undefined) row.isActive = f.isActive;
  await ctx.db.getRepository(Group).save(row);
  return groupDto(ctx, row);
}

/** Adds users; those already in the group stay there once. */
export async function addGroupMembers(ctx: OpContext, groupId: string, userIds: string[]) {
  const group = await findOr404(ctx, Group, groupId, 'Group');
  await requireAll(ctx, User, userIds, 'User');
  // The group's member permissions become its members' rights: nobody hands on flags they do not hold.
  if (userIds.length) await refuseGroupJoinBeyondOwn(ctx, [groupId], 'params.id');
  const unique = [...new Set(userIds)];
  if (unique.length) {
    await ctx.db
      .createQueryBuilder()
      .insert()
      .into(UserGroup)
      .values(unique.map((userId) => ({ userId, targetId: groupId })))
      .orIgnore()
      .execute();
  }
  return groupDto(ctx, group);
}

export async function removeGroupMembers(ctx: OpContext, groupId: string, userIds: string[]) {
  const group = await findOr404(ctx, Group, groupId, 'Group');
  if (group.type === 'system')
    throw conflict(`Everyone belongs to the built-in group "${group.name}"; members cannot be removed from it`);
  await requireAll(ctx, User, userIds, 'User');
  if (userIds.length) await ctx.db.getRepository(UserGroup).delete({ targetId: groupId, userId: In(userIds) });
  return groupDto(ctx, group);
}

/** Replaces the membership with exactly these users. */
export async function setGroupMembers(ctx: OpContext, groupId: string, userIds: string[]) {
  const group = await findOr404(ctx, Group, groupId, 'Group');
  if (group.type === 'system')
    throw conflict(`Everyone belongs to the built-in group "${group.name}"; its members cannot be set`);
  await requireAll(ctx, User, userIds, 'User');
  if (userIds.length) await refuseGroupJoinBeyondOwn(ctx, [groupId], 'params.id');
  await ctx.db.transaction(async (m) => {
    await m.getRepository(UserGroup).delete({ targetId: groupId });
    const unique = [...new Set(userIds)];
    if (unique.length) await m.getRepository(UserGroup).insert(unique.map((userId) => ({ userId, targetId: groupId })));
  });
  return groupDto(ctx, group);
}

/** A group is deleted only when nothing refers to it: not the built-in one, not one with members. */
export async function deleteGroups(ctx: OpContext, ids: string[]) {
  const rows = await requireAll(ctx, Group, ids, 'Group');
  for (const g of rows) {
    if (g.type === 'system') throw conflict(`The built-in group "${g.name}" cannot be deleted`);
    refuseIfReferenced(`Group "${g.name}"`, [
      {
        what: 'member(s); remove them first',
        count: await countWhere(ctx, 'SELECT COUNT(*) AS n FROM user_groups WHERE "targetId" = ?', [g.id]),
      },
    ]);
  }
  if (rows.length) await ctx.db.getRepository(Group).delete(rows.map((g) => g.id));
  return { deleted: rows.length };
}

export async function allUsersGroupId(ctx: { db: OpContext['db'] }): Promise<string | null> {
  const g = await ctx.db.getRepository(Group).findOneBy({ type: 'system', name: ALL_USERS_GROUP });
  return g?.id ?? null;
}

/** The users of a group, one page. */
export async function listGroupMembers(ctx: OpContext, groupId: string, list: ListQuery) {
  await findOr404(ctx, Group, groupId, 'Group');
  const qb = ctx.db
    .createQueryBuilder()
    .select([
      'u.id AS id',
      'u."firstName" AS "firstName"',
      'u."lastName" AS "lastName"',
      'u.email AS email',
      'u."isActive" AS "isActive"',
      'u.kind AS type',
    ])
    .from('users', 'u')
    .innerJoin('user_groups', 'ug', 'ug."userId" = u.id AND ug."targetId" = :gid', { gid: groupId });
  return rawPageOf(
    qb,
    LIST_GROUP_MEMBERS,
    list,
    'u.id',
    (r: { id: string; firstName: string; lastName: string; email: string | null; isActive: number; type: string }) => ({
      id: r.id,
      fullName: `${r.firstName} ${r.lastName}`,
      firstName: r.firstName,
      lastName: r.lastName,
      email: r.email,
      isActive: !!r.isActive,
      type: r.type,
    }),
  );
}
