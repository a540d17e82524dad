// How a caller reaches a project and what lies in it: by their roles (all projects or the roles'
// own), inside their organizations, and by member permissions when the project is in permissions
// mode. Every content area asks here; none decides reach for itself.
import type { EntitySchema, SelectQueryBuilder, ObjectLiteral } from 'typeorm';
import type { OpContext } from '../ops/context.js';
import { me } from '../ops/context.js';
import { notFound } from '../core/errors.js';
import { andHidden } from '../core/list-query.js';
import { organizationScope } from '../core/organization-boundary.js';
import { Project, type ProjectRow } from '../model/projects.entity.js';
import { Request } from '../model/requests.entity.js';
import { checkMemberAccess, checkProjectAccess, memberVisibleRuns, type ContentKind } from './member-access.js';

/**
 * Limits a query to the projects the caller's roles reach (all, or the roles' projects), in their
 * organizations, and not being imported. For content (`column` a project id) it is one set of
 * hidden project ids built once per query: at most one probe per row, whatever limits the caller.
 */
export function visibleProjects<T extends ObjectLiteral>(
  ctx: OpContext,
  qb: SelectQueryBuilder<T>,
  column = 'p.id',
): SelectQueryBuilder<T> {
  const p = me(ctx);
  const orgs = organizationScope(ctx);
  if ((orgs && !orgs.length) || (!p.allProjects && !p.projectIds.length)) return qb.andWhere('1 = 0');
  // A project still being imported is not there yet; projects of other organizations are not there for the caller.
  const limits = [
    'vp.importing = FALSE',
    orgs ? 'vp."organizationId" IN (:...orgs)' : null,
    p.allProjects ? null : 'vp.id IN (:...visible)',
  ]
    .filter(Boolean)
    .join(' AND ');
  const params = { orgs: orgs ?? [], visible: p.projectIds };
  if (column === 'p.id') return qb.andWhere(limits.replace(/\bvp\./g, 'p.'), params);
  // Asked as "not among the projects hidden". That set is usually empty: asked first, once per query
  // (an uncorrelated EXISTS), it spares each row its probe, and a page deep in a list walks its
  // index without fetching the rows it skips (a count or a page of 10,000 runs in half the time).
  const hidden = `SELECT vp.id FROM projects vp WHERE NOT (${limits})`;
  return andHidden(qb, { condition: `(NOT EXISTS (${hidden}) OR ${column} NOT IN (${hidden}))`, hidden }, params);
}

/** A project the caller's roles and organizations reach, or 404 (a project outside them is not confirmed to exist). */
async function roleReachedProject(ctx: OpContext, id: string): Promise<ProjectRow> {
  const p = me(ctx);
  const row = await ctx.db.getRepository(Project).findOneBy({ id });
  const orgs = organizationScope(ctx);
  if (
    !row ||
    row.importing ||
    (!p.allProjects && !p.projectIds.includes(id)) ||
    (orgs && !orgs.includes(row.organizationId))
  )
    throw notFound(`Project ${id}`);
  return row;
}

/** A project the caller may reach: by their roles, and by its member permissions when it is in permissions mode. */
export async function reachableProject(ctx: OpContext, id: string): Promise<ProjectRow> {
  const row = await roleReachedProject(ctx, id);
  await checkProjectAccess(ctx, row);
  return row;
}

/**
 * A row of a project the caller reaches, by id, or 404 naming it: one outside their roles is not
 * confirmed to exist (reports, tasks, conditions).
 */
export async function reachableInProject<T extends { id: string; projectId: string }>(
  ctx: OpContext,
  entity: EntitySchema<T>,
  id: string,
  what: 'Report' | 'Filter' | 'Condition' | 'Task',
): Promise<T> {
  const row = await ctx.db.getRepository(entity).findOneBy({ id } as never);
  if (!row) throw notFound(`${what} ${id}`);
  await roleReachedProject(ctx, row.projectId).catch(() => {
    throw notFound(`${what} ${id}`);
  });
  await checkMemberAccess(ctx, what.toLowerCase() as ContentKind, row, what);
  return row;
}

/** Runs the caller may see: of projects their roles reach, and of tasks and reports their member permissions show. */
export const visibleRequests = (ctx: OpContext) =>
  memberVisibleRuns(
    ctx,
    visibleProjects(ctx, ctx.db.getRepository(Request).createQueryBuilder('r'), 'r."projectId"'),
    'r',
  );
