import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput, notFound } from '../../core/errors.js';
import { findOr404 } from '../../core/rows.js';
import { AnalyticsApp } from '../../model/analytics-apps.entity.js';
import { reachableProject, visibleProjects } from '../../access/project-reach.js';
import { Connection, type ConnectionRow } from '../../model/connections.entity.js';
import { Report } from '../../model/reports.entity.js';
import { refuseWhileReportsUse } from '../../core/refuse-while-used.js';

export async function connectionDtos(ctx: OpContext, rows: ConnectionRow[]) {
  const apps = await ctx.db.getRepository(AnalyticsApp).find();
  return rows.map((c) => {
    const app = apps.find((a) => a.id === c.analyticsAppId);
    return {
      id: c.id,
      projectId: c.projectId,
      name: c.name,
      analyticsAppId: c.analyticsAppId,
      appId: app?.appId ?? null,
      appName: app?.name ?? null,
      createdDate: iso(c.createdDate),
      modifiedDate: iso(c.modifiedDate),
    };
  });
}

const connectionDto = async (ctx: OpContext, row: ConnectionRow) => (await connectionDtos(ctx, [row]))[0];

/** A connection the caller can reach through its project. */
export async function reachableConnection(ctx: OpContext, id: string) {
  const c = await ctx.db.getRepository(Connection).findOneBy({ id });
  if (!c) throw notFound(`Connection ${id}`);
  await reachableProject(ctx, c.projectId);
  return c;
}

/** A connection of the project, or a 400 naming the input field that chose it. */
export async function connectionOfProject(
  ctx: OpContext,
  projectId: string,
  connectionId: string,
  field: string,
): Promise<ConnectionRow> {
  const c = await ctx.db.getRepository(Connection).findOneBy({ id: connectionId, projectId });
  if (!c)
    throw badInput("The connection is not one of the project's", [
      { field, message: 'is not a connection of the project' },
    ]);
  return c;
}

/** The project's first connection: a project with one connection has its reports read through it without asking. */
export async function firstConnectionOf(ctx: OpContext, projectId: string): Promise<ConnectionRow | null> {
  return ctx.db.getRepository(Connection).findOne({ where: { projectId }, order: { createdDate: 'ASC' } });
}

/** Connections of the projects the caller reaches (of one project when named), by name. */
export async function listConnections(ctx: OpContext, projectId?: string) {
  const qb = ctx.db.getRepository(Connection).createQueryBuilder('c').orderBy('LOWER(c.name)', 'ASC');
  if (projectId) qb.andWhere('c."projectId" = :p', { p: projectId });
  visibleProjects(ctx, qb, 'c."projectId"');
  return connectionDtos(ctx, await qb.getMany());
}

export async function createConnection(ctx: OpContext, f: { projectId: string; name: string; analyticsAppId: string }) {
  await reachableProject(ctx, f.projectId);
  await findOr404(ctx, AnalyticsApp, f.analyticsAppId, 'Analytics app');
  const row: ConnectionRow = { ...newBase(ctx.now()), ...f };
  await ctx.db.getRepository(Connection).insert(row);
  return connectionDto(ctx, row);
}

export async function updateConnection(ctx: OpContext, id: string, f: { name: string; analyticsAppId: string }) {
  const row = await reachableConnection(ctx, id);
  await findOr404(ctx, AnalyticsApp, f.analyticsAppId, 'Analytics app');
  Object.assign(row, f, { modifiedDate: ctx.now() });
  await ctx.db.getRepository(Connection).save(row);
  return connectionDto(ctx, row);
}

/** A connection is deleted only when no report reads through it. */
export async function deleteConnection(ctx: OpContext, id: string) {
  const row = await reachableConnection(ctx, id);
  refuseWhileReportsUse(
    `The connection “${row.name}”`,
    'used',
    await ctx.db.getRepository(Report).find({ where: { connectionId: row.id }, order: { name: 'ASC' } }),
    (those) => `give ${those} another connection`,
  );
  await ctx.db.getRepository(Connection).delete(row.id);
  return { deleted: 1 };
}

/** The target project's connection to the same app as a connection elsewhere (a copy keeps reading the same data), or null. */
export async function sameAppConnectionIn(
  ctx: OpContext,
  projectId: string,
  connectionId: string,
): Promise<string | null> {
  const src = await ctx.db.getRepository(Connection).findOneBy({ id: connectionId });
  if (!src) return null;
  return (
    (await ctx.db.getRepository(Connection).findOneBy({ projectId, analyticsAppId: src.analyticsAppId }))?.id ?? null
  );
}
