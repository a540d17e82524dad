import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { iso, newBase } from '../../core/entity-base.js';
import { conflict, notFound } from '../../core/errors.js';
import { countWhere, findOr404 } from '../../core/rows.js';
import type { OpContext } from '../../ops/context.js';
import { AnalyticsApp } from '../analytics-apps/analytics-apps.entity.js';
import { reachableProject, visibleProjects } from '../projects/projects.rules.js';
import { Connection, type ConnectionRow } from './connections.entity.js';

const ConnectionInput = z.object({ projectId: v.uuid(), name: v.text(), analyticsAppId: v.uuid() });
const ListQuery = z.object({ projectId: v.uuid().optional() });

export async function connectionDtos(ctx: OpContext, rows: ConnectionRow[]) {
  const apps = await ctx.db.getRepository(AnalyticsApp).find();
  return rows.map((c) => {
    const app = apps.find((a) => a.id === c.analyticsAppId);
    return { id: c.id, projectId: c.projectId, name: c.name, analyticsAppId: c.analyticsAppId, appId: app?.appId ?? null, appName: app?.name ?? null, createdDate: iso(c.createdDate), modifiedDate: iso(c.modifiedDate) };
  });
}

/** A connection the caller can reach through its project. */
export async function reachableConnection(ctx: OpContext, id: string) {
  const c = await ctx.db.getRepository(Connection).findOneBy({ id });
  if (!c) throw notFound(`Connection ${id}`);
  await reachableProject(ctx, c.projectId);
  return c;
}

export const connectionsApp = [
  defineOp({
    id: 'app.connections.list',
    summary: 'List connections (of one project with ?projectId=)',
    http: { method: 'GET', path: '/api/v1/connections' },
    permission: 'viewProject',
    input: { query: ListQuery },
    handler: async (ctx, { query }) => {
      const qb = ctx.db.getRepository(Connection).createQueryBuilder('c').orderBy('LOWER(c.name)', 'ASC');
      if (query.projectId) qb.andWhere('c.projectId = :p', { p: query.projectId });
      visibleProjects(ctx, qb, 'c.projectId');
      return connectionDtos(ctx, await qb.getMany());
    },
  }),
  defineOp({
    id: 'app.connections.create',
    summary: 'Connect a project to an analytics app',
    http: { method: 'POST', path: '/api/app/connections' },
    permission: 'updateProject',
    input: { body: ConnectionInput },
    handler: async (ctx, { body }) => {
      await reachableProject(ctx, body.projectId);
      await findOr404(ctx, AnalyticsApp, body.analyticsAppId, 'Analytics app');
      const row: ConnectionRow = { ...newBase(ctx.now()), ...body };
      await ctx.db.getRepository(Connection).insert(row);
      return (await connectionDtos(ctx, [row]))[0];
    },
  }),
  defineOp({
    id: 'app.connections.update',
    summary: 'Rename a connection or point it at another app',
    http: { method: 'PUT', path: '/api/app/connections/{id}' },
    permission: 'updateProject',
    input: { params: idParam, body: ConnectionInput.omit({ projectId: true }) },
    handler: async (ctx, { params, body }) => {
      const row = await reachableConnection(ctx, params.id);
      await findOr404(ctx, AnalyticsApp, body.analyticsAppId, 'Analytics app');
      Object.assign(row, body, { modifiedDate: ctx.now() });
      await ctx.db.getRepository(Connection).save(row);
      return (await connectionDtos(ctx, [row]))[0];
    },
  }),
  defineOp({
    id: 'app.connections.delete',
    summary: 'Delete a connection no report uses',
    http: { method: 'DELETE', path: '/api/app/connections/{id}' },
    permission: 'updateProject',
    input: { params: idParam },
    handler: async (ctx, { params }) => {
      const row = await reachableConnection(ctx, params.id);
      const used = await countWhere(ctx, 'SELECT COUNT(*) n FROM reports WHERE connectionId = ?', [row.id]);
      if (used) throw conflict(`The connection is used by ${used} report(s)`);
      await ctx.db.getRepository(Connection).delete(row.id);
      return { deleted: 1 };
    },
  }),
] as const;
