import type { DataSource } from 'typeorm';
import type { SelectQueryBuilder, ObjectLiteral } from 'typeorm';
import type { OpContext } from '../ops/context.js';
import { forbidden, notFound } from '../core/errors.js';
import { Project } from '../model/projects.entity.js';
import {
  MemberPermission,
  PERMISSION_FLAGS,
  type MemberAction,
  type MemberObjectKind,
  type PermissionFlag,
} from '../model/members.entity.js';
import { jsonFlag } from '../core/sql.js';
import { memberRefusal } from './in-words.js';
import { isTenantAdministrator } from './tenant-administrator.js';

export type { MemberAction };
export type ContentKind = Exclude<MemberObjectKind, 'project'>;

const KIND_NAME: Record<ContentKind, string> = {
  report: 'Report',
  filter: 'Filter',
  condition: 'Condition',
  task: 'Task',
};

/**
 * The action the calling operation performs on an object of `kind`, as its `defineOp` declares it.
 * A kind the declaration does not name is only looked at (a read) or put to work (a write: `use`
 * where the kind's set names it). An operation that reaches member-bounded objects without any
 * declaration is a defect of the catalogue: it fails loudly rather than guess.
 */
export function actionOf(ctx: OpContext, kind: MemberObjectKind): MemberAction {
  const op = ctx.operation;
  if (!op) return 'view';
  if (!op.member) throw new Error(`Operation ${op.id} reaches a ${kind} but declares no member action in its defineOp`);
  const declared = op.member[kind];
  if (declared) return declared;
  return op.method !== 'GET' && kind !== 'project' && kind !== 'task' ? 'use' : 'view';
}

/** The flag an action on a kind of content needs; an action the kind's set does not name needs its view flag. */
export function flagFor(kind: ContentKind, action: MemberAction): PermissionFlag {
  const flag = `${action}${KIND_NAME[kind]}`;
  return (PERMISSION_FLAGS as readonly string[]).includes(flag)
    ? (flag as PermissionFlag)
    : (`view${KIND_NAME[kind]}` as PermissionFlag);
}

/** Tenant administrators, the owner and the engine itself pass every member check. */
export const passesMemberChecks = (ctx: OpContext) => !ctx.principal || isTenantAdministrator(ctx.principal);

/** SQL over a member-permission alias: the row is the caller's own or one of their groups'. */
const mine = (m: string) =>
  `(${m}."memberId" = :memberUser OR ${m}."memberId" IN (SELECT ug."targetId" FROM user_groups ug WHERE ug."userId" = :memberUser))`;
const flagSql = (db: DataSource, m: string, flag: PermissionFlag) => jsonFlag(db, `${m}.permissions`, flag);

/**
 * Whether the caller holds `flag` on an object of a project in permissions mode: by the object's own
 * rows for them or their groups when there are any, otherwise by the project's rows.
 */
async function holds(
  ctx: OpContext,
  kind: MemberObjectKind,
  objectId: string,
  projectId: string,
  flag: PermissionFlag,
): Promise<boolean> {
  return (await rowsFor(ctx, kind, objectId, projectId)).some((r) => r.permissions[flag]);
}

/** The caller's own and their groups' rows on an object, or (content with none of theirs) on its project. */
async function rowsFor(ctx: OpContext, kind: MemberObjectKind, objectId: string, projectId: string) {
  const params = { memberUser: ctx.principal!.user.id, objectId, projectId };
  const repo = ctx.db.getRepository(MemberPermission);
  const own = await repo
    .createQueryBuilder('m')
    .where(`m."objectId" = :objectId AND ${mine('m')}`, params)
    .getMany();
  if (own.length || kind === 'project') return own;
  return repo
    .createQueryBuilder('m')
    .where(`m."objectType" = 'project' AND m."objectId" = :projectId AND ${mine('m')}`, params)
    .getMany();
}

async function inPermissionsMode(ctx: OpContext, projectId: string) {
  return !!(
    await ctx.db
      .getRepository(Project)
      .findOne({ where: { id: projectId }, select: { id: true, permissionsMode: true } })
  )?.permissionsMode;
}

/**
 * A content object the caller's roles reach, checked against member permissions when its project
 * is in permissions mode: without its view flag it is not confirmed to exist (404); with it but
 * without the flag the operation needs, a 403 naming that flag.
 */
export async function checkMemberAccess(
  ctx: OpContext,
  kind: ContentKind,
  row: { id: string; projectId: string },
  what: string,
): Promise<void> {
  const action = actionOf(ctx, kind);
  if (passesMemberChecks(ctx) || !(await inPermissionsMode(ctx, row.projectId))) return;
  // The project's creator keeps every flag on what is in it (the manager preset), as `heldFlags` says.
  if (await createdByCaller(ctx, row.projectId)) return;
  const view = flagFor(kind, 'view');
  if (!(await holds(ctx, kind, row.id, row.projectId, view))) throw notFound(`${what} ${row.id}`);
  const needed = flagFor(kind, action);
  if (needed !== view && !(await holds(ctx, kind, row.id, row.projectId, needed)))
    throw forbidden(memberRefusal(needed, 'this'));
}

/** Whether the caller made the project (its creator holds every flag on it and on what it holds). */
async function createdByCaller(ctx: OpContext, projectId: string): Promise<boolean> {
  const project = await ctx.db
    .getRepository(Project)
    .findOne({ where: { id: projectId }, select: { id: true, createdBy: true } });
  return !!ctx.principal && project?.createdBy === ctx.principal.user.id;
}

/** What only a project's creator or a tenant administrator does to a project in permissions mode. */
const CREATOR_ACTIONS: readonly MemberAction[] = ['edit', 'delete', 'move', 'setPermissionsMode'];

/**
 * A project the caller's roles reach, checked against its member permissions when it is in
 * permissions mode: its creator and those with viewProject see it (else 404); creating content in
 * it needs the project's create flag for that kind (else 403); changing, deleting or switching the
 * mode of the project itself is its creator's (set B's set has no flag that grants it).
 */
export async function checkProjectAccess(
  ctx: OpContext,
  project: { id: string; permissionsMode: boolean; createdBy: string | null },
): Promise<void> {
  const action = actionOf(ctx, 'project');
  const creator = !!ctx.principal && project.createdBy === ctx.principal.user.id;
  if (passesMemberChecks(ctx) || creator) return;
  // The mode is the creator's switch whether it is on or off: turning it on is no one else's to do either.
  if (action === 'setPermissionsMode')
    throw forbidden("Only the project's creator or a tenant administrator switches its permissions mode");
  if (!project.permissionsMode) return;
  if (!(await holds(ctx, 'project', project.id, project.id, 'viewProject'))) throw notFound(`Project ${project.id}`);
  if (CREATOR_ACTIONS.includes(action))
    throw forbidden(
      "In permissions mode only the project's creator or a tenant administrator may do this to the project",
    );
  for (const [kind, act] of Object.entries(ctx.operation?.member ?? {}) as [MemberObjectKind, MemberAction][]) {
    if (kind === 'project' || act !== 'create') continue;
    const flag = `create${KIND_NAME[kind]}` as PermissionFlag;
    if (!(await holds(ctx, 'project', project.id, project.id, flag)))
      throw forbidden(memberRefusal(flag, 'in this project'));
  }
}

/**
 * The flags the caller holds on an object: every flag for a tenant administrator or the project's
 * creator; otherwise the union of their own and their groups' rows on the object, or (content with
 * no rows of theirs) on its project. What nobody may grant beyond.
 */
export async function heldFlags(
  ctx: OpContext,
  kind: MemberObjectKind,
  objectId: string,
  projectId: string,
): Promise<Set<PermissionFlag>> {
  const all = new Set<PermissionFlag>(PERMISSION_FLAGS);
  if (passesMemberChecks(ctx)) return all;
  if (await createdByCaller(ctx, projectId)) return all;
  const rows = await rowsFor(ctx, kind, objectId, projectId);
  return new Set(PERMISSION_FLAGS.filter((f) => rows.some((r) => r.permissions[f])));
}

/**
 * SQL over content (alias `a`, with `a.id` and `a.projectId`) that holds for what the caller may
 * view; its parameters are `:memberUser` and `:memberKind_<kind>`. Every subquery is uncorrelated,
 * so SQLite builds each set once per query rather than probing per row (correlated EXISTS made a
 * page 5x an administrator's over 10,000 reports). Each OR term is an IN over an indexed column
 * (projects *not* in permissions mode rather than NOT IN those that are), so SQLite reads only the
 * rows each term names (a multi-index OR) instead of testing every row: a member's page and count
 * over 10,000 reports went from 2.2x an administrator's to near it.
 */
function viewableSql(db: DataSource, a: string, kind: ContentKind): string {
  const view = flagFor(kind, 'view');
  // Typed: PostgreSQL cannot tell a bare parameter's type in a UNION.
  const me =
    '(SELECT CAST(:memberUser AS varchar(36)) UNION SELECT ug."targetId" FROM user_groups ug WHERE ug."userId" = :memberUser)';
  return `(${a}."projectId" IN (SELECT pm.id FROM projects pm WHERE pm."permissionsMode" = FALSE)
      OR ${a}."projectId" IN (SELECT pc.id FROM projects pc WHERE pc."createdBy" = :memberUser)
      OR ${a}.id IN (SELECT mo."objectId" FROM member_permissions mo WHERE mo."memberId" IN ${me} AND ${flagSql(db, 'mo', view)})
      OR (${a}."projectId" IN (SELECT mp."objectId" FROM member_permissions mp WHERE mp."objectType" = 'project' AND mp."memberId" IN ${me} AND ${flagSql(db, 'mp', view)})
        AND ${a}.id NOT IN (SELECT mn."objectId" FROM member_permissions mn WHERE mn."objectType" = :memberKind_${kind} AND mn."memberId" IN ${me})))`;
}

/** Limits a list of content (alias `a`) to what the caller may view under permissions mode. */
export function memberVisible<T extends ObjectLiteral>(
  ctx: OpContext,
  qb: SelectQueryBuilder<T>,
  a: string,
  kind: ContentKind,
): SelectQueryBuilder<T> {
  if (passesMemberChecks(ctx)) return qb;
  return qb.andWhere(viewableSql(ctx.db, a, kind), {
    memberUser: ctx.principal!.user.id,
    [`memberKind_${kind}`]: kind,
  });
}

/**
 * Limits run history (alias `r`, with `taskId` and `reportId`) to runs of what the caller may view:
 * a task's runs with the task, an on-demand report's with the report.
 */
export function memberVisibleRuns<T extends ObjectLiteral>(
  ctx: OpContext,
  qb: SelectQueryBuilder<T>,
  r: string,
): SelectQueryBuilder<T> {
  if (passesMemberChecks(ctx)) return qb;
  return qb.andWhere(
    `((${r}."taskId" IS NOT NULL AND ${r}."taskId" IN (SELECT vt.id FROM tasks vt WHERE ${viewableSql(ctx.db, 'vt', 'task')}))
      OR (${r}."taskId" IS NULL AND (${r}."reportId" IS NULL OR ${r}."reportId" IN (SELECT vr.id FROM reports vr WHERE ${viewableSql(ctx.db, 'vr', 'report')}))))`,
    { memberUser: ctx.principal!.user.id, memberKind_task: 'task', memberKind_report: 'report' },
  );
}

/** Limits a list of projects (alias `p`) to those the caller may view under permissions mode. */
export function memberVisibleProjects<T extends ObjectLiteral>(
  ctx: OpContext,
  qb: SelectQueryBuilder<T>,
): SelectQueryBuilder<T> {
  if (passesMemberChecks(ctx)) return qb;
  return qb.andWhere(
    `(p."permissionsMode" = FALSE OR p."createdBy" = :memberUser
      OR EXISTS (SELECT 1 FROM member_permissions mp WHERE mp."objectId" = p.id AND mp."objectType" = 'project' AND ${mine('mp')} AND ${flagSql(ctx.db, 'mp', 'viewProject')}))`,
    { memberUser: ctx.principal!.user.id },
  );
}
