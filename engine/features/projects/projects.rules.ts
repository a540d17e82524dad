import { homeOrganization } from '../../access/home-organization.js';
import type { EntityManager } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { me } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput, EngineError } from '../../core/errors.js';
import { findOr404 } from '../../core/rows.js';
import { pageOf, type ListQuery, type ListSpec } from '../../core/list-query.js';
import { Organization } from '../../model/organizations.entity.js';
import { Project, type ProjectRow } from '../../model/projects.entity.js';
import { memberVisibleProjects } from '../../access/member-access.js';
import { reachableProject, visibleProjects } from '../../access/project-reach.js';
import { onPostgres, sql } from '../../core/sql.js';

export const LIST_PROJECTS: ListSpec = {
  sort: {
    Name: 'LOWER(p.name)',
    Description: 'LOWER(p.description)',
    'Organization.name': '(SELECT LOWER(o."displayName") FROM organizations o WHERE o.id = p."organizationId")',
    // Tasks arrive with the scheduler; until then every project has none (an expression, not ORDER BY column 0).
    IsActive: 'p."isActive"',
    Tasks: '(CASE WHEN p."isActive" THEN 0 ELSE 0 END)',
    CreatedDate: 'p."createdDate"',
    ModifiedDate: 'p."modifiedDate"',
  },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'p.name', description: 'p.description' },
  exact: { modified_by: 'p."modifiedBy"' },
  bool: { is_active: 'p."isActive"' },
  uuid: { organization_id: 'p."organizationId"' },
};

export function projectDto(p: ProjectRow) {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    organizationId: p.organizationId,
    isActive: p.isActive,
    permissionsMode: p.permissionsMode,
    createdBy: p.createdBy,
    modifiedBy: p.modifiedBy,
    createdDate: iso(p.createdDate),
    modifiedDate: iso(p.modifiedDate),
  };
}

export async function createProject(
  ctx: Pick<OpContext, 'db' | 'now' | 'principal'>,
  f: { name: string; description?: string | null; organizationId: string; importing?: boolean },
  manager: EntityManager = ctx.db.manager,
) {
  // A role over some projects only would make a project it cannot then open, edit or remove.
  if (ctx.principal && !ctx.principal.allProjects)
    throw new EngineError(
      403,
      'Your roles reach only some projects: a project you made would be out of your reach. A role over all projects creates projects',
      [{ field: 'body.name', message: 'needs a role over all projects' }],
    );
  const row: ProjectRow = {
    ...newBase(ctx.now()),
    name: f.name,
    description: f.description ?? null,
    organizationId: f.organizationId,
    isActive: true,
    permissionsMode: false,
    importing: f.importing ?? false,
    createdBy: ctx.principal?.user.id ?? null,
    modifiedBy: ctx.principal?.user.id ?? null,
  };
  await manager.getRepository(Project).insert(row);
  return row;
}

export async function updateProject(ctx: OpContext, id: string, f: { name: string; description?: string | null }) {
  const row = await reachableProject(ctx, id);
  row.name = f.name;
  row.description = f.description ?? null;
  row.modifiedDate = ctx.now();
  row.modifiedBy = me(ctx).user.id;
  await ctx.db.getRepository(Project).save(row);
  return projectDto(row);
}

export async function requireOrganization(ctx: OpContext, id: string) {
  await findOr404(ctx, Organization, id, 'Organization');
}

/** Where a duplicate goes (set B's {projectID, organizationID}): a reachable project of that organization. */
export async function duplicateTarget(ctx: OpContext, projectId: string, organizationId: string): Promise<ProjectRow> {
  await requireOrganization(ctx, organizationId);
  const project = await reachableProject(ctx, projectId);
  if (project.organizationId !== organizationId)
    throw badInput('The project is not in that organization', [
      { field: 'body.organizationID', message: "is not the project's organization" },
    ]);
  return project;
}

/** How long an import may run on another server before it is taken for one a crash cut off. */
const SHARED_IMPORT_LIMIT_MS = 3_600_000;

/**
 * At start: projects whose import a crash interrupted are removed (their rows cascade) and named. On a
 * database other servers share, an import under way there is left alone: only one begun over an
 * hour ago (an import is one call, long over by then) is taken for a dead server's.
 */
export async function removeUnfinishedImports(db: OpContext['db'], now: Date): Promise<string[]> {
  const where = onPostgres(db) ? 'importing = TRUE AND "createdDate" < ?' : 'importing = TRUE';
  const params = onPostgres(db) ? [new Date(now.getTime() - SHARED_IMPORT_LIMIT_MS)] : [];
  const cut = (await sql(db, `SELECT name FROM projects WHERE ${where}`, params)) as { name: string }[];
  if (cut.length) await sql(db, `DELETE FROM projects WHERE ${where}`, params);
  return cut.map((p) => p.name);
}

/** The organization a new project goes to: the one named, or the caller's own (`homeOrganization`). */
export const targetOrganization = homeOrganization;

/** Projects the caller's roles reach, one page; of one organization when it is named. */
export function listProjects(ctx: OpContext, spec: ListSpec, list: ListQuery, organizationId?: string) {
  const qb = ctx.db.getRepository(Project).createQueryBuilder('p');
  if (organizationId) qb.where('p."organizationId" = :org', { org: organizationId });
  return pageOf(memberVisibleProjects(ctx, visibleProjects(ctx, qb)), spec, list, 'p.id', projectDto);
}

/** Deletes projects named by id and name (both must match, as a guard); their content cascades. */
export async function deleteProjects(ctx: OpContext, items: { id: string; name: string }[]) {
  const rows: ProjectRow[] = [];
  for (const [i, item] of items.entries()) {
    const p = await reachableProject(ctx, item.id);
    if (p.name !== item.name)
      throw badInput(`Project ${item.id} is called "${p.name}", not "${item.name}"`, [
        { field: `body.${i}.name`, message: "does not match the project's name" },
      ]);
    rows.push(p);
  }
  // Connections, filters and reports go with the project (cascade); generated files come with the runner.
  if (rows.length) await ctx.db.getRepository(Project).delete(rows.map((p) => p.id));
  return rows.length;
}
