import { lazySchema } from '../../core/lazy-schema.js';
import { In } from 'typeorm';
import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput, EngineError, notFound, type FieldError } from '../../core/errors.js';
import { v } from '../../core/validation.js';
import { User } from '../../model/users.entity.js';
import { Group } from '../../model/groups.entity.js';
import { Project } from '../../model/projects.entity.js';
import { reachableProject } from '../../access/project-reach.js';
import { reachableReport } from '../reports/reports.rules.js';
import { reachableFilter } from '../filters/filters.rules.js';
import { reachableCondition } from '../conditions/conditions.rules.js';
import { reachableTask } from '../tasks/tasks.rules.js';
import {
  MemberPermission,
  PERMISSION_FLAGS,
  type MemberObjectKind,
  type MemberPermissionRow,
  type PermissionFlag,
  type PermissionSet,
} from '../../model/members.entity.js';
import { heldFlags } from '../../access/member-access.js';

// Set B member permissions: a permission set per user or group on a project or on one report,
// filter, condition or task. Reaching the object (and, in permissions mode, holding its
// setPermissions flag, see member-access.ts) comes first; then the rows change.

/** Set B 2.1 inside a "set permissions" request: every flag given. */
export const PermissionSetInput = lazySchema(() =>
  z.object(
    Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, v.bool()])) as Record<
      (typeof PERMISSION_FLAGS)[number],
      ReturnType<typeof v.bool>
    >,
  ),
);
/** Set B 2.1 for one member: the flags to change, each optional. */
export const PermissionPatchInput = lazySchema(() => PermissionSetInput.partial());
/** Set B 2.2. */
export const PermissionsRequest = lazySchema(() =>
  z.object({
    members: z
      .array(
        z.object({
          id: v.uuid(),
          type: z
            .string()
            .max(16)
            .trim()
            .toLowerCase()
            .pipe(v.oneOf(['user', 'group'])),
        }),
      )
      .min(1, { message: 'must name at least one member' })
      .max(1000),
    permissions: PermissionSetInput,
  }),
);
export const PermissionsModeQuery = lazySchema(() =>
  z.object({
    value: z.enum(['true', 'false'], { message: 'must be true or false' }).transform((s) => s === 'true'),
  }),
);

/** The object a member permission is set on, reached as the caller may (404 otherwise): its id and project. */
export async function objectOf(
  ctx: OpContext,
  kind: MemberObjectKind,
  id: string,
): Promise<{ id: string; projectId: string }> {
  switch (kind) {
    case 'project':
      return { id, projectId: (await reachableProject(ctx, id)).id };
    case 'report':
      return reachableReport(ctx, id);
    case 'filter':
      return reachableFilter(ctx, id);
    case 'condition':
      return reachableCondition(ctx, id);
    case 'task':
      return reachableTask(ctx, id);
  }
}

/**
 * Nobody grants what they do not hold: every flag a change would give must be one the caller holds
 * on the object (`body.permissions.<flag>` names the first that is not), and a set the caller could
 * not have given is not theirs to change or take away either.
 */
async function refuseGrantBeyondHeld(
  ctx: OpContext,
  kind: MemberObjectKind,
  object: { id: string; projectId: string },
  given: Partial<PermissionSet>,
  replaced: MemberPermissionRow[],
) {
  const held = await heldFlags(ctx, kind, object.id, object.projectId);
  const beyond = (set: Partial<PermissionSet>) =>
    PERMISSION_FLAGS.filter((f): f is PermissionFlag => set[f] === true && !held.has(f));
  const granted = beyond(given);
  if (granted.length)
    throw new EngineError(
      403,
      `You cannot grant member permissions you do not hold on this ${kind}: ${granted.join(', ')}`,
      granted.map((f) => ({ field: `body.permissions.${f}`, message: 'is not yours to grant' })),
    );
  const stronger = replaced.find((r) => beyond(r.permissions).length);
  if (stronger)
    throw new EngineError(
      403,
      `A member's permissions on this ${kind} include flags you do not hold (${beyond(stronger.permissions).join(', ')}); only someone who holds them may change or remove that set`,
      [{ field: 'params.id', message: 'holds a set beyond yours' }],
    );
}

const none = (): PermissionSet => Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, false])) as PermissionSet;

async function dtos(ctx: OpContext, rows: MemberPermissionRow[]) {
  const userIds = rows.filter((r) => r.memberType === 'user').map((r) => r.memberId);
  const groupIds = rows.filter((r) => r.memberType === 'group').map((r) => r.memberId);
  const [users, groups] = await Promise.all([
    userIds.length ? ctx.db.getRepository(User).findBy({ id: In(userIds) }) : [],
    groupIds.length ? ctx.db.getRepository(Group).findBy({ id: In(groupIds) }) : [],
  ]);
  return rows.map((r) => {
    const u = users.find((x) => x.id === r.memberId);
    const name = u
      ? `${u.firstName} ${u.lastName}`.trim() || u.email
      : (groups.find((g) => g.id === r.memberId)?.name ?? null);
    return {
      id: r.id,
      objectType: r.objectType,
      objectId: r.objectId,
      memberId: r.memberId,
      memberType: r.memberType,
      memberName: name,
      permissions: r.permissions,
      modifiedDate: iso(r.modifiedDate),
    };
  });
}

/** The member permissions of an object, users and groups by name. */
export async function listMemberPermissions(ctx: OpContext, kind: MemberObjectKind, id: string) {
  const object = await objectOf(ctx, kind, id);
  const rows = await ctx.db
    .getRepository(MemberPermission)
    .find({ where: { objectId: object.id }, order: { createdDate: 'ASC' } });
  // What the caller may do with each set, by the rule the changes meet (refuseGrantBeyondHeld): the
  // dialog offers a change only where it would be taken.
  const held = await heldFlags(ctx, kind, object.id, object.projectId);
  const grantable = PERMISSION_FLAGS.filter((f) => held.has(f));
  return (await dtos(ctx, rows)).map((d) => ({
    ...d,
    mayChange: PERMISSION_FLAGS.every((f) => d.permissions[f] !== true || held.has(f)),
    grantable,
  }));
}

/** Gives each member the permission set (replacing what they had on the object); answers the object's list. */
export async function setPermissions(
  ctx: OpContext,
  kind: MemberObjectKind,
  id: string,
  f: z.output<typeof PermissionsRequest>,
) {
  const object = await objectOf(ctx, kind, id);
  const userIds = f.members.filter((m) => m.type === 'user').map((m) => m.id);
  const groupIds = f.members.filter((m) => m.type === 'group').map((m) => m.id);
  const [users, groups] = await Promise.all([
    userIds.length ? ctx.db.getRepository(User).findBy({ id: In(userIds) }) : [],
    groupIds.length ? ctx.db.getRepository(Group).findBy({ id: In(groupIds) }) : [],
  ]);
  const errors: FieldError[] = [];
  f.members.forEach((m, i) => {
    const found = m.type === 'user' ? users.some((u) => u.id === m.id) : groups.some((g) => g.id === m.id);
    if (!found) errors.push({ field: `body.members.${i}.id`, message: `is not a ${m.type}` });
  });
  if (errors.length) throw badInput('A member does not exist', errors);
  const now = ctx.now();
  const repo = ctx.db.getRepository(MemberPermission);
  const existing = await repo.findBy({ objectId: object.id, memberId: In(f.members.map((m) => m.id)) });
  await refuseGrantBeyondHeld(ctx, kind, object, f.permissions, existing);
  await ctx.db.transaction(async (m) => {
    for (const member of f.members) {
      const current = existing.find((r) => r.memberId === member.id);
      if (current)
        await m
          .getRepository(MemberPermission)
          .update(current.id, { permissions: { ...none(), ...f.permissions }, modifiedDate: now });
      else
        await m.getRepository(MemberPermission).insert({
          ...newBase(now),
          objectType: kind,
          objectId: object.id,
          projectId: object.projectId,
          memberId: member.id,
          memberType: member.type as 'user' | 'group',
          permissions: { ...none(), ...f.permissions },
        });
    }
  });
  return listMemberPermissions(ctx, kind, id);
}

async function rowOf(ctx: OpContext, kind: MemberObjectKind, id: string, memberPermissionId: string) {
  const object = await objectOf(ctx, kind, id);
  const row = await ctx.db.getRepository(MemberPermission).findOneBy({ id: memberPermissionId, objectId: object.id });
  if (!row) throw notFound(`Member permission ${memberPermissionId}`);
  return row;
}

export async function getMemberPermission(
  ctx: OpContext,
  kind: MemberObjectKind,
  id: string,
  memberPermissionId: string,
) {
  return (await dtos(ctx, [await rowOf(ctx, kind, id, memberPermissionId)]))[0];
}

/** Changes the flags given of one member's set; the others stay. */
export async function setMemberPermission(
  ctx: OpContext,
  kind: MemberObjectKind,
  id: string,
  memberPermissionId: string,
  patch: Partial<PermissionSet>,
) {
  const row = await rowOf(ctx, kind, id, memberPermissionId);
  await refuseGrantBeyondHeld(ctx, kind, { id: row.objectId, projectId: row.projectId }, patch, [row]);
  row.permissions = {
    ...none(),
    ...row.permissions,
    ...Object.fromEntries(Object.entries(patch).filter(([, x]) => x !== undefined)),
  };
  row.modifiedDate = ctx.now();
  await ctx.db.getRepository(MemberPermission).save(row);
  return (await dtos(ctx, [row]))[0];
}

/** Removes member permissions of the object; every id must be one of its own. */
export async function deleteMemberPermissions(ctx: OpContext, kind: MemberObjectKind, id: string, ids: string[]) {
  const object = await objectOf(ctx, kind, id);
  const found = ids.length
    ? await ctx.db.getRepository(MemberPermission).findBy({ objectId: object.id, id: In(ids) })
    : [];
  ids.forEach((x, i) => {
    if (!found.some((r) => r.id === x))
      throw badInput(`Member permission ${x} is not one of this ${kind}'s`, [
        { field: `body.${i}`, message: `must be a member permission of the ${kind}` },
      ]);
  });
  await refuseGrantBeyondHeld(ctx, kind, object, {}, found);
  if (found.length) await ctx.db.getRepository(MemberPermission).delete({ id: In(found.map((r) => r.id)) });
  return { deleted: found.length };
}

/** Turns a project's permissions mode on or off (its creator or a tenant administrator); answers the project's mode and its members. */
export async function updatePermissionsMode(ctx: OpContext, id: string, value: boolean) {
  const project = await reachableProject(ctx, id);
  await ctx.db.getRepository(Project).update(project.id, { permissionsMode: value, modifiedDate: ctx.now() });
  return { id: project.id, permissionsMode: value, members: await listMemberPermissions(ctx, 'project', id) };
}
