import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import { badInput } from '../../core/errors.js';
import { findOr404 } from '../../core/rows.js';
import { v } from '../../core/validation.js';
import { AnalyticsApp } from '../../model/analytics-apps.entity.js';
import { AppReload, AppSource, DataConnection } from '../../model/data-connections.entity.js';
import { reloadDto } from './reload.js';

export const SourcesInput = z.object({
  sources: z
    .array(
      z.object({
        name: v.text(100),
        connectionId: v.uuid(),
        query: z.string().trim().min(1, 'is required: the SELECT to load').max(100_000),
      }),
    )
    .max(20),
});

/** What the app's Data tab shows: its sources and its last reloads, newest first. */
export async function appSources(ctx: OpContext, appRowId: string) {
  const app = await findOr404(ctx, AnalyticsApp, appRowId, 'Analytics app');
  const [sources, reloads] = await Promise.all([
    ctx.db.getRepository(AppSource).find({ where: { appId: app.id }, order: { order: 'ASC' } }),
    ctx.db.getRepository(AppReload).find({ where: { appId: app.id }, order: { startedAt: 'DESC' }, take: 50 }),
  ]);
  return {
    sources: sources.map(({ name, connectionId, query }) => ({ name, connectionId, query })),
    reloads: reloads.map(reloadDto),
  };
}

/**
 * Replaces an app's sources at once. The embedded engine keeps one table per app, so one source is
 * taken for now; each names a connection that exists.
 */
export async function setAppSources(ctx: OpContext, appRowId: string, body: z.output<typeof SourcesInput>) {
  const app = await findOr404(ctx, AnalyticsApp, appRowId, 'Analytics app');
  if (body.sources.length > 1)
    throw badInput('An app loads one source for now: its data is one table', [
      { field: 'body.sources[1]', message: 'a second source is not taken yet: join the tables in one query' },
    ]);
  for (const [i, s] of body.sources.entries()) {
    const found = await ctx.db.getRepository(DataConnection).existsBy({ id: s.connectionId });
    if (!found)
      throw badInput('No such data connection', [
        { field: `body.sources[${i}].connectionId`, message: 'is no data connection' },
      ]);
  }
  await ctx.write(() =>
    ctx.db.transaction(async (m) => {
      await m.getRepository(AppSource).delete({ appId: app.id });
      if (body.sources.length)
        await m
          .getRepository(AppSource)
          .insert(body.sources.map((s, order) => ({ id: randomUUID(), appId: app.id, ...s, order })));
    }),
  );
  return appSources(ctx, appRowId);
}
