import { lazySchema } from '../../core/lazy-schema.js';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import { badInput, foundOrFieldError } from '../../core/errors.js';
import { driverOf, problemOf } from '../data-connections/drivers/index.js';
import { cellText } from '../data-connections/drivers/driver.js';
import { namePattern } from '../data-connections/drivers/folder.js';
import { openedConnection } from '../data-connections/data-connections.rules.js';
import { findOr404 } from '../../core/rows.js';
import { v } from '../../core/validation.js';
import { AnalyticsApp } from '../../model/analytics-apps.entity.js';
import { AppSource, DataConnection } from '../../model/data-connections.entity.js';
import { reloadDto, reloadHistory } from './reload.js';
import { reloadScheduleDto, reloadScheduleOf } from './reload-schedule.rules.js';

export const SourcesInput = lazySchema(() =>
  z.object({
    sources: z
      .array(
        z.object({
          name: v.text(100),
          connectionId: v.uuid(),
          query: z.string().trim().min(1, 'is required: the SELECT to load').max(100_000),
        }),
      )
      .max(20),
  }),
);

/** What the app's Data tab shows: its sources, its reload schedule and its last reloads, newest first. */
export async function appSources(ctx: OpContext, appRowId: string) {
  const app = await findOr404(ctx, AnalyticsApp, appRowId, 'Analytics app');
  const [sources, reloads, schedule] = await Promise.all([
    ctx.db.getRepository(AppSource).find({ where: { appId: app.id }, order: { order: 'ASC' } }),
    reloadHistory(ctx, app.id),
    reloadScheduleOf(ctx, app.id),
  ]);
  return {
    sources: sources.map(({ name, connectionId, query }) => ({ name, connectionId, query })),
    reloads: reloads.map(reloadDto),
    schedule: reloadScheduleDto(schedule, ctx.now()),
  };
}

/** An app of an organization loads only from that organization's connections (one of none, from any). */
function refuseOtherOrganization(
  app: { organizationId: string | null },
  connection: { name: string; organizationId: string | null },
  field: string,
) {
  if (app.organizationId && connection.organizationId !== app.organizationId)
    throw badInput(`“${connection.name}” belongs to another organization than the app`, [
      { field, message: "is not a connection of the app's organization" },
    ]);
}

/**
 * Replaces an app's sources at once, as the Data tab holds them. Each names a connection that
 * exists, and a name of its own: the first holds the facts, later ones add rows or columns to them
 * (associate-sources.ts says how, and a reload says which source could not be associated).
 */
export async function setAppSources(ctx: OpContext, appRowId: string, body: z.output<typeof SourcesInput>) {
  const app = await findOr404(ctx, AnalyticsApp, appRowId, 'Analytics app');
  for (const [i, s] of body.sources.entries()) {
    const same = body.sources.findIndex((o) => o.name.trim().toLowerCase() === s.name.trim().toLowerCase());
    if (same < i)
      throw badInput(`Two sources are named “${s.name}”`, [
        {
          field: `body.sources[${i}].name`,
          message: `is the name of source ${same + 1} too: each source needs its own`,
        },
      ]);
  }
  for (const [i, s] of body.sources.entries()) {
    const found = await ctx.db.getRepository(DataConnection).findOneBy({ id: s.connectionId });
    if (!found)
      throw badInput('No such data connection', [
        { field: `body.sources[${i}].connectionId`, message: 'is no data connection' },
      ]);
    refuseOtherOrganization(app, found, `body.sources[${i}].connectionId`);
    // A folder's source is a name pattern of its files, never a path out of it.
    if (found.kind === 'Folder')
      try {
        namePattern(s.query);
      } catch (e) {
        const message = (e as Error).message;
        throw badInput(`The name pattern cannot be used: ${message}`, [{ field: `body.sources[${i}].query`, message }]);
      }
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

/** How many rows a preview shows. */
export const PREVIEW_ROWS = 100;
/** A preview is a look, not a load: its query is stopped sooner. */
const PREVIEW_TIMEOUT_MS = 30_000;

export const PreviewInput = lazySchema(() =>
  z.object({
    connectionId: v.uuid(),
    query: z.string().trim().min(1, 'is required: the SELECT to look at').max(100_000),
  }),
);

/** The first rows a source's query answers, as text, to check it before saving and reloading. */
export async function previewSource(ctx: OpContext, appRowId: string, body: z.output<typeof PreviewInput>) {
  const app = await findOr404(ctx, AnalyticsApp, appRowId, 'Analytics app');
  const connection = await foundOrFieldError(
    findOr404(ctx, DataConnection, body.connectionId, 'Data connection'),
    'No such data connection',
    'body.connectionId',
    'is no data connection',
  );
  refuseOtherOrganization(app, connection, 'body.connectionId');
  let stream;
  try {
    stream = await (
      await driverOf(connection.kind)
    ).open(openedConnection(ctx, connection), body.query, {
      timeoutMs: PREVIEW_TIMEOUT_MS,
      batch: PREVIEW_ROWS,
    });
    const first = await stream.batches.next();
    const rows = first.done ? [] : first.value.slice(0, PREVIEW_ROWS);
    return {
      columns: stream.columns,
      rows: rows.map((r) => r.map((c) => (c === null || c === undefined ? null : cellText(c)))),
    };
  } catch (e) {
    const p = problemOf(e);
    throw badInput(`The query could not be run: ${p.message}`, [
      { field: p.field === 'query' ? 'body.query' : 'body.connectionId', message: p.message },
    ]);
  } finally {
    await stream?.close();
  }
}
