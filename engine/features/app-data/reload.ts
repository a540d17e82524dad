// A reload: an app's source query streamed from its database into a CSV file (one batch in memory
// at a time, in a thread of its own), then imported as imports are — a new data file built beside
// the live one and swapped in only when complete, so readers never see half a reload and a failed
// one keeps the data before it. The import announces the reload, which fires the tasks waiting for
// the app.
import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { OpContext } from '../../ops/context.js';
import { iso } from '../../core/entity-base.js';
import { UNCLAIMED, type RowPatch } from '../../core/jobs/claims.js';
import { AnalyticsApp } from '../../model/analytics-apps.entity.js';
import { In } from 'typeorm';
import {
  AppReload,
  AppSource,
  DataConnection,
  type AppReloadRow,
  type AppSourceRow,
  type DataConnectionRow,
} from '../../model/data-connections.entity.js';
import { openedConnection } from '../data-connections/data-connections.rules.js';
import { readSourcesInThread } from './read-sources.js';
import { reloadProblem } from './reload-problem.js';
import { appStore } from '../analytics-apps/app-store.js';

/** How long a source's query may run before its database stops it. */
export const RELOAD_STATEMENT_TIMEOUT_MS = 10 * 60_000;
/** Rows per batch read from the source (in the reading thread: its memory holds one batch). */
const BATCH = 1_000;
export const CANCELLED = 'Cancelled; the data before it was kept.';

export const reloadDto = (r: AppReloadRow) => ({
  id: r.id,
  trigger: r.trigger,
  status: r.status,
  startedAt: iso(r.startedAt)!,
  endedAt: iso(r.endedAt),
  durationMs: r.endedAt ? new Date(r.endedAt).getTime() - new Date(r.startedAt).getTime() : null,
  rows: r.rows,
  message: r.message,
  scheduledFor: iso(r.scheduledFor),
});

/** A reload's record before it runs: queued (a schedule's slot), or claimed at once (Reload now). */
export function newReload(
  appId: string,
  trigger: AppReloadRow['trigger'],
  scheduledFor: Date | null,
  now: Date,
  startedBy: string | null = null,
): AppReloadRow {
  return {
    id: randomUUID(),
    ...UNCLAIMED,
    appId,
    trigger,
    status: 'queued',
    startedAt: now,
    endedAt: null,
    rows: null,
    message: null,
    startedBy,
    scheduledFor,
  };
}

/** What the app says it was loaded from: “sales (Warehouse)”, or several such. */
const sourceLabel = (sources: AppSourceRow[], connectionOf: (s: AppSourceRow) => DataConnectionRow) =>
  sources.map((s) => `${s.name} (${connectionOf(s).name})`).join(', ');

/** Which of the app's fields the sources no longer give, in words; empty when none. */
const droppedFields = (lost: string[], sources: number) =>
  lost.length
    ? `The ${sources === 1 ? 'source no longer has' : 'sources no longer have'} ${lost.join(', ')}: charts, variables and reports using ${lost.length === 1 ? 'it' : 'them'} need a look.`
    : '';

/**
 * Loads an app from its source and answers how the reload ended. A stop (`signal`) cuts the query
 * and its connection: the read in flight fails, and the reload with it, the data before kept.
 */
export async function loadApp(
  ctx: OpContext,
  row: AppReloadRow,
  signal: AbortSignal,
): Promise<RowPatch<AppReloadRow> & { status: AppReloadRow['status'] }> {
  const file = join(ctx.uploadsDir, `reload-${row.id}.csv`);
  const progress = (percent: number, rows: number) =>
    ctx.emit({ type: 'analytics.import.progress', payload: { appId: row.appId, percent, rows } });
  try {
    const app = await ctx.db.getRepository(AnalyticsApp).findOneByOrFail({ id: row.appId });
    const sources = await ctx.db.getRepository(AppSource).find({ where: { appId: app.id }, order: { order: 'ASC' } });
    if (!sources.length) throw new Error(`“${app.name}” has no sources: add a query on a data connection first`);
    const connections = await ctx.db
      .getRepository(DataConnection)
      .findBy({ id: In(sources.map((s) => s.connectionId)) });
    const connectionOf = (s: AppSourceRow) => connections.find((c) => c.id === s.connectionId)!;
    const before = await ctx.analytics.meta(app.appId);
    await mkdir(ctx.uploadsDir, { recursive: true });
    progress(0, 0);
    // Reading is most of a reload; the import's own progress takes the rest of the bar. Its thread
    // starts loading meanwhile.
    ctx.embedded.prepareImport();
    const read = await readSourcesInThread(
      {
        sources: sources.map((source) => ({
          name: source.name,
          connection: openedConnection(ctx, connectionOf(source)),
          query: source.query,
        })),
        file,
        maxRows: ctx.embedded.importBudget().rows,
        timeoutMs: RELOAD_STATEMENT_TIMEOUT_MS,
        batch: BATCH,
      },
      signal,
      (rows) => progress(Math.round(50 * (1 - 1 / (1 + rows / 200_000))), rows),
    );
    if (signal.aborted) throw new Error('cancelled');
    // The new data is written in the app's own write queue, as a file import's is (on every server).
    const meta = await ctx.writeTo(appStore(app.id), () =>
      ctx.embedded.importFromFile(app.appId, 'csv', file, sourceLabel(sources, connectionOf), (p) =>
        progress(50 + Math.round(p.percent / 2), p.rows),
      ),
    );
    const lost = before.fields
      .filter((f) => !meta.fields.some((n) => n.name.toLowerCase() === f.name.toLowerCase()))
      .map((f) => f.name);
    return {
      status: 'completed',
      rows: meta.rowCount,
      message: [droppedFields(lost, sources.length), ...read.notes].filter(Boolean).join(' ') || null,
      endedAt: ctx.now(),
    };
  } catch (e) {
    if (signal.aborted) return { status: 'cancelled', message: CANCELLED, endedAt: ctx.now() };
    const message = reloadProblem(e);
    ctx.log.warn('An app reload failed', { app: row.appId, problem: message });
    return { status: 'failed', message, endedAt: ctx.now() };
  } finally {
    await rm(file, { force: true });
  }
}

/** The reloads of an app as its Data tab lists them, newest first. */
export const reloadHistory = (ctx: Pick<OpContext, 'db'>, appId: string) =>
  ctx.db.getRepository(AppReload).find({ where: { appId }, order: { startedAt: 'DESC' }, take: 50 });
