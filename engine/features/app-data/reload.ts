// A reload: an app's source query streamed from its database into a CSV file (one batch in memory
// at a time), then imported as imports are — a new data file built beside the live one and swapped
// in only when complete, so readers never see half a reload and a failed one keeps the data before
// it. The import announces the reload, which fires the tasks waiting for the app.
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { OpContext } from '../../ops/context.js';
import { badInput, conflict, EngineError } from '../../core/errors.js';
import { iso } from '../../core/entity-base.js';
import { findOr404 } from '../../core/rows.js';
import { AnalyticsApp } from '../../model/analytics-apps.entity.js';
import { AppReload, AppSource, DataConnection, type AppReloadRow } from '../../model/data-connections.entity.js';
import { DRIVERS, problemOf } from '../data-connections/drivers/index.js';
import { openedConnection } from '../data-connections/data-connections.rules.js';
import { rowsToCsv } from './query-to-csv.js';

/** How long a source's query may run before its database stops it. */
export const RELOAD_STATEMENT_TIMEOUT_MS = 10 * 60_000;
/** Rows per batch read from the source: 1,000 keeps the main thread's longest stall near 30 ms (5,000: 72 ms). */
const BATCH = 1_000;
/** Apps being reloaded by this server, each with its stop: a second reload of one is refused, said. */
const underWay = new Map<string, AbortController>();
const CANCELLED = 'Cancelled; the data before it was kept.';

/** Stops an app's reload while it reads its source (the import that follows is not stopped half-way). */
export function cancelReload(appRowId: string): boolean {
  const stop = underWay.get(appRowId);
  stop?.abort();
  return !!stop;
}

export const reloadDto = (r: AppReloadRow) => ({
  id: r.id,
  trigger: r.trigger,
  status: r.status,
  startedAt: iso(r.startedAt)!,
  endedAt: iso(r.endedAt),
  durationMs: r.endedAt ? new Date(r.endedAt).getTime() - new Date(r.startedAt).getTime() : null,
  rows: r.rows,
  message: r.message,
});

/** Why a reload failed, in words: the database's problem, or the import's (a file's words made a query's). */
function reloadProblem(e: unknown): string {
  if (e instanceof EngineError) return e.message.replace(/^File: has/, 'The query returned');
  return problemOf(e).message;
}

export async function reloadApp(ctx: OpContext, appRowId: string, trigger: AppReloadRow['trigger']) {
  const app = await findOr404(ctx, AnalyticsApp, appRowId, 'Analytics app');
  const sources = await ctx.db.getRepository(AppSource).find({ where: { appId: app.id }, order: { order: 'ASC' } });
  if (!sources.length)
    throw badInput(`“${app.name}” has no sources yet: add a query on a data connection first`, [
      { field: 'sources', message: 'none set' },
    ]);
  if (underWay.has(app.id)) throw conflict(`A reload of “${app.name}” is under way`);
  const stop = new AbortController();
  underWay.set(app.id, stop);
  const reloads = ctx.db.getRepository(AppReload);
  const record: AppReloadRow = {
    id: randomUUID(),
    appId: app.id,
    trigger,
    status: 'running',
    startedAt: ctx.now(),
    endedAt: null,
    rows: null,
    message: null,
    startedBy: ctx.principal?.user.id ?? null,
  };
  const file = join(ctx.uploadsDir, `reload-${record.id}.csv`);
  const progress = (percent: number, rows: number) =>
    ctx.emit({ type: 'analytics.import.progress', payload: { appId: app.id, percent, rows } });
  try {
    await ctx.write(async () => {
      // A reload a stopped server left running did not finish: the data before it was kept.
      await reloads.update(
        { appId: app.id, status: 'running' },
        {
          status: 'failed',
          endedAt: ctx.now(),
          message: 'The server stopped during the reload; the data before it was kept.',
        },
      );
      await reloads.insert(record);
    });
    const source = sources[0];
    const connection = await findOr404(ctx, DataConnection, source.connectionId, 'Data connection');
    const before = await ctx.analytics.meta(app.appId);
    await mkdir(ctx.uploadsDir, { recursive: true });
    progress(0, 0);
    const stream = await DRIVERS[connection.kind].open(openedConnection(ctx, connection), source.query, {
      timeoutMs: RELOAD_STATEMENT_TIMEOUT_MS,
      batch: BATCH,
      // A cancel cuts the query and its connection: the read in flight fails, and the reload with it.
      signal: stop.signal,
    });
    // Reading is most of a reload; the import's own progress takes the rest of the bar.
    await rowsToCsv(stream, file, ctx.embedded.importBudget().rows, (rows) =>
      progress(Math.round(50 * (1 - 1 / (1 + rows / 200_000))), rows),
    );
    if (stop.signal.aborted) throw new Error('cancelled');
    const meta = await ctx.embedded.importFromFile(app.appId, 'csv', file, `${source.name} (${connection.name})`, (p) =>
      progress(50 + Math.round(p.percent / 2), p.rows),
    );
    const lost = before.fields
      .filter((f) => !meta.fields.some((n) => n.name.toLowerCase() === f.name.toLowerCase()))
      .map((f) => f.name);
    record.status = 'completed';
    record.rows = meta.rowCount;
    record.message = lost.length
      ? `The source no longer has ${lost.join(', ')}: charts, variables and reports using ${lost.length === 1 ? 'it' : 'them'} need a look.`
      : null;
  } catch (e) {
    record.status = stop.signal.aborted ? 'cancelled' : 'failed';
    record.message = stop.signal.aborted ? CANCELLED : reloadProblem(e);
    ctx.log.warn('An app reload failed', { app: app.id, problem: record.message });
  } finally {
    underWay.delete(app.id);
    record.endedAt = ctx.now();
    await ctx.write(() =>
      reloads.update(record.id, {
        status: record.status,
        endedAt: record.endedAt,
        rows: record.rows,
        message: record.message,
      }),
    );
    await rm(file, { force: true });
  }
  return reloadDto(record);
}
