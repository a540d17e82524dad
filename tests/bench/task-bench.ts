// The distribution loop at volume, against its practical limits:
// - a 500-file PDF task run through the real runner (queue, conditions, files written whole to the
//   data folder), against the same renderer on as many threads rendering the same reports already
//   resolved and writing them to disk the same way;
// - how long a stop takes to end a 500-file run;
// - on-demand latency from POST /api/v1/ondemand/requests to completed for a one-page PDF, against
//   the same file made synchronously by POST /api/v2/reports/{id}/generate;
// - 10,000 schedules loaded (every next fire time recomputed) against croner alone on the same specs;
// - fire drift of the live scheduler (its own timers) over 100 one-off schedules.
import { figure } from './verdicts.js';
import { mkdtemp, mkdir, rm, writeFile, rename, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createEngine, type Engine } from '../../engine/engine.js';
import { startHttpServer } from '../../engine/http/server.js';
import { resolveReport } from '../../engine/render/resolve.js';
import { RenderPool } from '../../engine/render/render-pool.js';
import type { ReportDocument, ResolvedReport } from '../../engine/render/document.js';
import { Request } from '../../engine/model/requests.entity.js';
import { TaskTrigger } from '../../engine/model/tasks.entity.js';
import { Cron } from 'croner';
import { cronPattern } from '../../engine/features/schedules/fire-times.js';
import { scheduleOf } from '../../engine/features/schedules/schedule-spec.js';
import { newBase } from '../../engine/core/entity-base.js';
import { Report } from '../../engine/model/reports.entity.js';
import { Task, TaskReport } from '../../engine/model/tasks.entity.js';
import { FILES_AT_ONCE, publishToHub } from '../../engine/features/runs/deliver/hub-publish.js';
import { eachAtOnce } from '../../engine/core/at-once.js';
import type { OpContext } from '../../engine/ops/context.js';
import { link, unlink } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { pct } from './stats.js';

const f1 = (x: number) => x.toFixed(1);

async function api(url: string, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const env = (await res.json()) as { isSuccess: boolean; data: any; error: string };
  if (!env.isSuccess) throw new Error(`${method} ${path}: ${env.error}`);
  return env.data;
}

/** Resolves when the request ends, from the engine's own events (no polling delay in the figure). */
function ended(engine: Engine, id: string): Promise<string> {
  return new Promise((resolve) => {
    const off = engine.on((e) => {
      if (
        e.type === 'request.changed' &&
        e.payload.id === id &&
        ['completed', 'warning', 'failed', 'aborted'].includes(e.payload.status)
      ) {
        off();
        resolve(e.payload.status);
      }
    });
  });
}

export async function taskBench() {
  const dataDir = await mkdtemp(join(tmpdir(), 'bs-bench-tasks-'));
  const key = randomBytes(32);
  const engine = await createEngine({ dataDir, secretKeys: { load: async () => key, save: async () => {} } });
  await engine.demoReady;
  const ownerKey = await engine.issueOwnerKey();
  const server = await startHttpServer(engine, { port: 0 });
  const call = (method: string, path: string, body?: unknown) => api(server.url, ownerKey, method, path, body);
  const meta = await engine.services.analytics.meta('sales-demo');
  const [project] = await engine.services.db.query("SELECT id FROM projects WHERE name = 'Sales reporting (demo)'");
  const document: ReportDocument = {
    blocks: [
      { id: 'h', type: 'heading', text: 'Customer statement', level: 1 },
      { id: 'k', type: 'kpi', label: 'Sales', expression: 'Sum(Sales)', format: { decimals: 2 } },
      {
        id: 't',
        type: 'table',
        dimensions: ['OrderID', 'OrderDate'],
        measures: [{ label: 'Sales', expression: 'Sum(Sales)' }],
        sort: { by: 'measure', index: 0, direction: 'desc' },
        limit: 50,
        title: 'Largest orders',
      },
    ],
  };
  const report = await call('POST', '/api/v2/reports', {
    name: 'Customer statement',
    projectID: project.id,
    type: 'Word',
  });
  await call('PUT', `/api/app/reports/${report.id}/document`, { document });
  await call('PUT', `/api/v2/reports/${report.id}`, {
    name: 'Customer statement',
    isIteration: true,
    iterationFields: [{ fieldID: meta.fields.find((f) => f.name === 'Customer')!.id, order: 0 }],
  });
  // 500 customers: a filter keeps the first 500 of the 600.
  const names = (await engine.services.analytics.iterationValues('sales-demo', ['Customer']))
    .slice(0, 500)
    .map((c) => c[0]);
  const filter = await call('POST', '/api/v2/filters', { name: '500 customers', projectID: project.id });
  await call('PUT', `/api/v2/filters/${filter.id}/fields`, {
    analyticsFieldID: meta.fields.find((f) => f.name === 'Customer')!.id,
    filterItemFieldValues: names,
  });
  const task = await call('POST', '/api/v2/tasks', { name: 'Statements', projectID: project.id });
  await call('PUT', `/api/v2/tasks/${task.id}/reports`, {
    reportID: report.id,
    format: 'Pdf',
    emailEmbedment: false,
    emailAttachment: true,
    filters: [{ id: filter.id, order: 0 }],
  });
  const threads = engine.services.renders.threads;

  // The practical limit: same renderer, same threads, warmed, reports in hand, each written whole.
  const resolved: ResolvedReport[] = [];
  for (const c of names)
    resolved.push(
      await resolveReport({
        provider: engine.services.analytics,
        appId: 'sales-demo',
        title: 'Customer statement',
        document,
        selections: { Customer: [c] },
      }),
    );
  const limitPool = new RenderPool(threads);
  await Promise.all(resolved.slice(0, threads * 4).map((r) => limitPool.render({ format: 'Pdf', report: r })));
  const limitDir = join(dataDir, 'limit');
  await mkdir(limitDir);
  const l0 = performance.now();
  await Promise.all(
    resolved.map(async (r, i) => {
      const data = await limitPool.render({ format: 'Pdf', report: r });
      await writeFile(join(limitDir, `${i}.pdf.part`), data);
      await rename(join(limitDir, `${i}.pdf.part`), join(limitDir, `${i}.pdf`));
    }),
  );
  const limitMs = performance.now() - l0;
  await limitPool.close();

  // Warm the runner's pool, then the real run from v2.requests.run to completed.
  const warm = await call('POST', `/api/v2/requests/${task.id}/run`);
  await ended(engine, warm.id);
  const t0 = performance.now();
  const run = await call('POST', `/api/v2/requests/${task.id}/run`);
  const status = await ended(engine, run.id);
  const runMs = performance.now() - t0;
  const row = await engine.services.db.getRepository(Request).findOneByOrFail({ id: run.id });
  if (status !== 'completed' || row.files.length !== 500)
    throw new Error(`the run ended ${status} with ${row.files.length} files`);
  const sample = [0, 250, 499].map((i) => row.files[i].name);
  let checked = 'qpdf not installed: not checked';
  for (const name of sample) {
    const file = join(dataDir, 'files', 'requests', run.id, name);
    const r = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
    if (r.error) break;
    if (r.status !== 0) throw new Error(`${name} fails qpdf --check`);
    if (!(await readFile(file)).subarray(0, 5).equals(Buffer.from('%PDF-'))) throw new Error(`${name} is not a PDF`);
    checked = '3 files read back (qpdf --check)';
  }

  const hub = await hubPublish(engine, run.id, task.id);

  // Stop latency: a 500-file run stopped after its 50th file.
  const long = await call('POST', `/api/v2/requests/${task.id}/run`);
  await new Promise<void>((resolve) => {
    const off = engine.on((e) => {
      if (e.type === 'request.changed' && e.payload.id === long.id && e.payload.progressDone >= 50) {
        off();
        resolve();
      }
    });
  });
  const s0 = performance.now();
  const stopped = await call('POST', `/api/v2/requests/${long.id}/stop`);
  const stopMs = performance.now() - s0;
  if (stopped.status !== 'aborted') throw new Error(`stop ended ${stopped.status}`);

  // On-demand: one region, one page, POST to completed; beside the synchronous generate.
  const [demoReport] = await engine.services.db.query("SELECT id FROM reports WHERE name = 'Regional sales review'");
  const body = {
    config: { reportId: demoReport.id, outputFormat: 'Pdf' },
    selections: [{ fieldName: 'Region', selectedCount: 1, selectedValues: ['EMEA'], isNumeric: false }],
  };
  const onDemand: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < 35; i++) {
    const a = performance.now();
    const posted = await call('POST', '/api/v1/ondemand/requests', body);
    await ended(engine, posted.id);
    if (i >= 5) onDemand.push(performance.now() - a);
    const b = performance.now();
    const res = await fetch(`${server.url}/api/v2/reports/${demoReport.id}/generate?outputFormat=Pdf`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ selections: [{ fieldName: 'Region', values: ['EMEA'] }] }),
    });
    await res.arrayBuffer();
    if (i >= 5) direct.push(performance.now() - b);
  }

  // 10,000 schedules loaded: every next fire time recomputed, against croner alone on the same specs.
  const frequencies = [
    { frequency: 'Daily', atHour: 7, atMinut: 30 },
    { frequency: 'Weekly', weeklyDays: 'Monday, Thursday', atHour: 6, atMinut: 0 },
    { frequency: 'Hourly', everyHours: 2, fromHour: 8, fromMinut: 0, toHour: 18, toMinut: 0 },
    { frequency: 'Monthly', day: 15, atHour: 9, atMinut: 0 },
  ];
  const zones = ['Europe/Paris', 'America/New_York', 'Asia/Tokyo', 'UTC'];
  const now = new Date();
  const rows = Array.from({ length: 10_000 }, (_, i) => {
    const f = frequencies[i % frequencies.length];
    return {
      ...newBase(now),
      taskId: task.id,
      kind: 'Schedule' as const,
      name: `S${i}`,
      description: null,
      isActive: true,
      execution: null,
      priority: null,
      timeZone: zones[i % zones.length],
      schedule: {
        day: null,
        month: null,
        atHour: null,
        atMinut: null,
        everyHours: null,
        fromHour: null,
        fromMinut: null,
        toHour: null,
        toMinut: null,
        weeklyDays: null,
        ...f,
      },
      appId: null,
      analyticsEvent: null,
      startDate: now,
      endDate: new Date(now.getTime() + 365 * 86400_000),
      lastFireTime: null,
      lastScheduledFor: null,
      nextFireTime: null,
    };
  });
  await engine.services.write(() =>
    engine.services.db.transaction(async (m) => {
      for (let i = 0; i < rows.length; i += 500) await m.getRepository(TaskTrigger).insert(rows.slice(i, i + 500));
    }),
  );
  // The floor: croner alone, on the patterns and options the scheduler gives it, made before the clock starts.
  const specs = rows.map((r) => scheduleOf(r)!);
  const patterns = specs.map(cronPattern);
  // Each call as the scheduler makes it, options made per call: croner converts `startAt` and
  // `stopAt` in the options object it is given, so options kept from round to round would skip
  // the conversions (a third of the work) after the first.
  const cronerAlone = (after = now) =>
    specs.map(
      (s, i) =>
        new Cron(patterns[i], {
          timezone: s.timeZone,
          fixedTimeRule: 'no-wildcard',
          startAt: s.startDate,
          stopAt: s.endDate ?? undefined,
          paused: true,
        }).nextRuns(1, after)[0] ?? null,
    );
  cronerAlone();
  await engine.scheduler.reload();
  // Five rounds each way, alternating; every round recomputes all 10,000 (none stored before it).
  const cronerRounds: number[] = [];
  const reloadRounds: number[] = [];
  let lastReload = { from: now, to: now };
  for (let round = 0; round < 5; round++) {
    const c0 = performance.now();
    cronerAlone();
    cronerRounds.push(performance.now() - c0);
    await engine.services.write(() => engine.services.db.query('UPDATE task_triggers SET "nextFireTime" = NULL'));
    const from = new Date();
    const r0 = performance.now();
    await engine.scheduler.reload();
    reloadRounds.push(performance.now() - r0);
    lastReload = { from, to: new Date() };
  }
  const cronerMs = pct(cronerRounds, 50);
  const recomputeMs = pct(reloadRounds, 50);
  // A sample read back: every 97th schedule's stored next fire time is croner's, counted from an
  // instant of the last reload (either end: a slot may pass while it runs).
  const stored = new Map(
    (await engine.services.db.getRepository(TaskTrigger).findBy({ taskId: task.id })).map((t) => [
      t.name,
      t.nextFireTime?.getTime(),
    ]),
  );
  const [atStart, atEnd] = [cronerAlone(lastReload.from), cronerAlone(lastReload.to)];
  for (let i = 0; i < rows.length; i += 97) {
    const got = stored.get(rows[i].name);
    if (got !== atStart[i]?.getTime() && got !== atEnd[i]?.getTime())
      throw new Error(`${rows[i].name}: stored ${got}, croner ${atStart[i]?.toISOString()}`);
  }
  const withNext = await engine.services.db
    .getRepository(TaskTrigger)
    .createQueryBuilder('t')
    .where('t.nextFireTime IS NOT NULL')
    .getCount();
  // A start with them stored: what the app does each time it opens.
  await engine.scheduler.close();
  const st0 = performance.now();
  const loaded = await engine.scheduler.start();
  const loadMs = performance.now() - st0;
  await engine.services.write(() => engine.services.db.getRepository(TaskTrigger).delete({ taskId: task.id }));

  // Fire drift: 100 one-off schedules on an idle task, 40 ms apart, fired by the scheduler's own timers.
  const idle = await call('POST', '/api/v2/tasks', { name: 'Drift', projectID: project.id });
  // Each fire is a run of the idle task; the runner's events say when all 100 have ended.
  const endedRuns = new Set<string>();
  const allEnded = new Promise<void>((resolve) => {
    const off = engine.on((e) => {
      if (e.type !== 'request.changed' || e.payload.taskId !== idle.id) return;
      if (['completed', 'warning', 'failed', 'aborted'].includes(e.payload.status)) endedRuns.add(e.payload.id);
      if (endedRuns.size === 100) {
        off();
        resolve();
      }
    });
  });
  const start = Date.now() + 3000;
  for (let i = 0; i < 100; i++) {
    await call('POST', `/api/v1/tasks/${idle.id}/triggers/schedules`, {
      name: `Once ${i}`,
      frequency: 'Once',
      timeZone: 'UTC',
      startDate: new Date(start + i * 40).toISOString(),
      endDate: new Date(start + 86400_000).toISOString(),
    });
  }
  await allEnded;
  const fired = await engine.services.db.getRepository(Request).findBy({ taskId: idle.id });
  const drift = fired.map((r) => r.createdDate.getTime() - r.scheduledFor!.getTime());
  if (fired.length !== 100) throw new Error(`expected 100 fires, saw ${fired.length}`);

  await server.close();
  await engine.close();
  await rm(dataDir, { recursive: true, force: true });
  const runPerS = 500 / (runMs / 1000);
  const limitPerS = 500 / (limitMs / 1000);
  return [
    {
      measure: '500-file PDF task run (v2.requests.run → completed)',
      value: `${f1(runMs)} ms, ${f1(runPerS)} files/s`,
      limit: `${f1(limitMs)} ms, ${f1(limitPerS)} files/s (bare renderer, ${threads} threads)`,
      ratio: `${Math.round(figure({ id: 'tasks.run-500', measure: 'a 500-file PDF task run, of the bare renderer', value: (runPerS / limitPerS) * 100, unit: '%', better: 'higher' }))}% of limit`,
      checked,
    },
    hub,
    {
      measure: 'stop of a 500-file run after 50 files',
      value: `${f1(stopMs)} ms to aborted`,
      limit: '—',
      ratio: '—',
      checked: 'status aborted, no files kept',
    },
    {
      measure: 'on-demand one-page PDF, POST → completed (30 runs)',
      value: `p50 ${f1(pct(onDemand, 50))} ms, p95 ${f1(pct(onDemand, 95))} ms`,
      limit: `p50 ${f1(pct(direct, 50))} ms (synchronous generate)`,
      ratio: `${figure({ id: 'tasks.on-demand', measure: 'an on-demand one-page PDF, to a synchronous generate', value: pct(onDemand, 50) / pct(direct, 50), unit: '×' }).toFixed(2)}x`,
      checked: 'each completed',
    },
    {
      measure: '10,000 schedules loaded at start (stored next fire times)',
      value: `${f1(loadMs)} ms (${loaded} schedules)`,
      limit: '—',
      ratio: '—',
      checked: `${withNext} with a next fire time`,
    },
    {
      measure: '10,000 next fire times recomputed (first load, or rules changed)',
      value: `${f1(recomputeMs)} ms`,
      limit: `${f1(cronerMs)} ms (croner alone, same patterns and options; medians of 5 alternating)`,
      ratio: `${figure({ id: 'tasks.fire-times', measure: '10,000 next fire times, to croner alone', value: recomputeMs / cronerMs, unit: '×', goal: { atMost: 1.2 } }).toFixed(2)}x`,
      checked: `${withNext} with a next fire time; every 97th equal to croner's`,
    },
    {
      measure: 'fire drift, 100 one-off schedules (live timers)',
      value: `p50 ${f1(pct(drift, 50))} ms, p99 ${f1(pct(drift, 99))} ms, max ${f1(Math.max(...drift))} ms`,
      limit: '0 ms',
      ratio: '—',
      checked: `${fired.length} fired once each`,
    },
  ];
}

/**
 * Publishing a run's 500 files to the hub (links, rows, retention of 3 occurrences), against the
 * same work done bare: each file hard-linked into a folder (as many at once as the publish does), then
 * the same rows written in one transaction with plain SQL into copies of the hub's tables. Twelve
 * publishes of the same run each way, taking turns; the first warms.
 */
async function hubPublish(engine: Engine, requestId: string, taskId: string) {
  // 24 publishes each way, the first of each warming: with 12, the ratio of the two medians read
  // 1.02–1.58 over six whole runs of one tree (a collection or a checkpoint landing on one side).
  const PUBLISHES = 24;
  const s = engine.services;
  const ctx: OpContext = { ...s, principal: null, transport: 'internal', client: 'bench' };
  const task = await s.db.getRepository(Task).findOneByOrFail({ id: taskId });
  const tr = await s.db.getRepository(TaskReport).findOneByOrFail({ taskId });
  tr.options = { ...tr.options, publishToServiceHub: true, maxFileOccurrences: 3 };
  const report = await s.db.getRepository(Report).findOneByOrFail({ id: tr.reportId });
  const files = (await s.db.getRepository(Request).findOneByOrFail({ id: requestId })).files;
  // Each publish is a run of its own, as a task's schedule makes them (a run published again
  // replaces its own occurrences instead): the run's files linked under a new run's id first, untimed.
  const runs: string[] = [];
  for (let i = 0; i < PUBLISHES; i++) {
    runs[i] = randomUUID();
    await mkdir(join(s.dataDir, 'files', 'requests', runs[i]), { recursive: true });
    await eachAtOnce(files, FILES_AT_ONCE, (f) =>
      link(
        join(s.dataDir, 'files', 'requests', requestId, f.name),
        join(s.dataDir, 'files', 'requests', runs[i], f.name),
      ),
    );
  }
  // The bare limit: the same links and the same rows, written with plain multi-row SQL into copies of
  // the hub's three tables (their columns, indexes and foreign keys: what any publish must keep up),
  // and in the steady state the same retention (the oldest round's occurrences deleted by id and
  // their files unlinked), nothing else.
  const HUB_TABLES = ['hub_files', 'hub_file_occurrences', 'hub_file_events'];
  const ddl: { sql: string }[] = await s.db.query(
    `SELECT sql FROM sqlite_master WHERE tbl_name IN (${HUB_TABLES.map(() => '?').join(', ')}) AND sql IS NOT NULL ORDER BY rowid`,
    HUB_TABLES,
  );
  for (const { sql } of ddl)
    await s.db.query(
      sql
        .replace(/"(hub_files|hub_file_occurrences|hub_file_events)"/g, '"bench_$1"')
        .replace(/INDEX "([^"]+)"/, 'INDEX "bench_$1"'),
    );
  const bareFiles = files.map((f, k) => ({ id: randomUUID(), name: f.name, key: `value ${k}` }));
  const rowsOf = <T>(items: T[], values: (item: T) => unknown[]) => items.map(values);
  const insertAll = async (
    m: { query(sql: string, params: unknown[]): Promise<unknown> },
    head: string,
    rows: unknown[][],
    tail = '',
  ) => {
    // As many rows a statement as 3,000 parameters hold, as the product writes them.
    const per = Math.max(1, Math.floor(3000 / (rows[0]?.length ?? 1)));
    for (let k = 0; k < rows.length; k += per) {
      const chunk = rows.slice(k, k + per);
      await m.query(
        `${head} VALUES ${chunk.map((r) => `(${r.map(() => '?').join(', ')})`).join(', ')} ${tail}`,
        chunk.flat(),
      );
    }
  };
  const made: string[][] = [];
  const occurrenceIds: string[][] = [];
  const bareRound = async (i: number) => {
    const dir = join(s.dataDir, 'bench-bare', String(i));
    await mkdir(dir, { recursive: true });
    const t0 = performance.now();
    made[i] = files.map(() => join(dir, `${randomUUID()}.pdf`));
    // As many links at once as the publish makes.
    await eachAtOnce(
      files.map((f, k) => [f.name, made[i][k]] as const),
      FILES_AT_ONCE,
      ([name, target]) => link(join(s.dataDir, 'files', 'requests', requestId, name), target),
    );
    const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
    occurrenceIds[i] = bareFiles.map(() => randomUUID());
    await s.write(() =>
      s.db.transaction(async (m) => {
        await insertAll(
          m,
          'INSERT INTO bench_hub_files (id, createdDate, modifiedDate, taskId, taskReportId, reportId, reportName, hubFolderId, kind, iterationKey, name, extension, typeMime, size, latestOccurrenceId)',
          rowsOf(bareFiles, (f) => [
            f.id,
            now,
            now,
            taskId,
            tr.id,
            report.id,
            report.name,
            'root',
            'iteration',
            f.key,
            f.name,
            'pdf',
            'application/pdf',
            1234,
            null,
          ]),
          'ON CONFLICT (id) DO UPDATE SET modifiedDate = excluded.modifiedDate, size = excluded.size',
        );
        await insertAll(
          m,
          'INSERT INTO bench_hub_file_occurrences (id, createdDate, modifiedDate, fileId, requestId, name, extension, typeMime, size)',
          bareFiles.map((f, k) => [
            occurrenceIds[i][k],
            now,
            now,
            f.id,
            runs[i],
            f.name,
            'pdf',
            'application/pdf',
            1234,
          ]),
        );
        await insertAll(
          m,
          'INSERT INTO bench_hub_file_events (id, fileId, userId, type, date)',
          rowsOf(bareFiles, (f) => [randomUUID(), f.id, null, 'added', now]),
        );
        if (i >= 3) {
          const old = occurrenceIds[i - 3];
          for (let k = 0; k < old.length; k += 500)
            await m.query(
              `DELETE FROM bench_hub_file_occurrences WHERE id IN (${old
                .slice(k, k + 500)
                .map(() => '?')
                .join(', ')})`,
              old.slice(k, k + 500),
            );
        }
      }),
    );
    if (i >= 3) await eachAtOnce(made[i - 3], FILES_AT_ONCE, (old) => unlink(old));
    return performance.now() - t0;
  };
  const publishRound = async (i: number) => {
    const t0 = performance.now();
    const n = await publishToHub(ctx, task, tr, report, runs[i], files, () => undefined);
    if (n !== files.length) throw new Error(`published ${n} of ${files.length}`);
    return performance.now() - t0;
  };
  // The publishes and their bare twins take turns, so whatever drifts over the rounds (the WAL's
  // checkpoints, the collector, the disk's cache) falls on both alike; the first of each warms. Which
  // side goes first alternates: the second of a pair meets the first one's unlinks still settling
  // on the disk and its checkpoint, and that should not always be the same side.
  const times: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < PUBLISHES; i++) {
    let ms: number, bareMs: number;
    if (i % 2 === 0) {
      ms = await publishRound(i);
      bareMs = await bareRound(i);
    } else {
      bareMs = await bareRound(i);
      ms = await publishRound(i);
    }
    if (i > 0) {
      times.push(ms);
      bare.push(bareMs);
    }
  }
  const [{ n: occurrences }] = await s.db.query(
    'SELECT COUNT(*) n FROM hub_file_occurrences o JOIN hub_files f ON f.id = o.fileId WHERE f.taskReportId = ?',
    [tr.id],
  );
  if (occurrences !== files.length * 3) throw new Error(`the publish kept ${occurrences} occurrences, not 3 a file`);
  const sample = await s.db.query(
    'SELECT f.id, f.latestOccurrenceId, f.extension FROM hub_files f WHERE f.taskReportId = ? LIMIT 3',
    [tr.id],
  );
  for (const f of sample) {
    const bytes = await readFile(join(s.dataDir, 'files', 'hub', f.id, `${f.latestOccurrenceId}.${f.extension}`));
    if (!bytes.subarray(0, 5).equals(Buffer.from('%PDF-'))) throw new Error('a published file is not a PDF');
  }
  const [{ n: bareKept }] = await s.db.query('SELECT COUNT(*) n FROM bench_hub_file_occurrences');
  if (bareKept !== files.length * 3) throw new Error(`the bare retention kept ${bareKept} occurrences`);
  const p50 = pct(times, 50);
  const limit = pct(bare, 50);
  // Each publish beside its bare twin, run right after it: the median of those ratios, so a slow
  // stretch of the machine falls on both sides of a pair rather than on one side's median.
  const paired = pct(
    times.map((t, k) => t / bare[k]),
    50,
  );
  return {
    measure: `publish 500 files to the hub (links, rows, retention 3)`,
    value: `p50 ${f1(p50)} ms (${f1(500 / (p50 / 1000))} files/s)`,
    limit: `p50 ${f1(limit)} ms (bare links + the same rows in the same tables)`,
    ratio: `${figure({ id: 'tasks.hub-publish', measure: 'publish 500 files to the hub, to the bare links and rows (median of paired rounds)', value: paired, unit: '×', goal: { atMost: 1.5 } }).toFixed(2)}x (of the medians ${(p50 / limit).toFixed(2)}x)`,
    checked: `${occurrences} occurrences kept (3 × 500), 3 read back as PDF`,
  };
}
