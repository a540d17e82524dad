// Issue 26: does throughput grow with servers? N servers (1 to 4) on one PostgreSQL database, each
// a process of its own (scale-node.ts) whose renderer waits 200 ms a file (bound by I/O, not by
// this machine's two cores), run the same 120 single-file runs, queued at once on the first. The
// practical limit is linear scaling: N times what one server does, warmed, in the same way. Also
// printed: the ceiling the render wait sets (two runs at a time a server, 200 ms each) and the
// CPU each report costs across all servers, which should not grow as servers are added.
import { figure } from './verdicts.js';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { postgresUrl, startPostgres } from '../support/postgres.js';
import { ownerApi, startServerProcess, type ServerProcess } from '../support/server-process.js';
import { until } from '../support/until.js';
import { SERVER_NODE_FLAGS } from '../../engine/core/heap-flags.js';

const RUNS = 120;
const WAIT_MS = 200;
const RUNS_AT_ONCE = 2; // the engine's default concurrent requests per server
const ROOT = join(__dirname, '..', '..');

interface Round {
  servers: number;
  runsPerSecond: number;
  /** How long the first server took to answer the 120 run calls, and the whole round. */
  queuedSeconds: number;
  seconds: number;
  cpuMsPerReport: number;
  shares: number[];
}

async function round(n: number, socketDir: string, admin: pg.Client): Promise<Round> {
  const name = `scale_${n}`;
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  const database = postgresUrl(socketDir, name);
  const files = await mkdtemp(join(tmpdir(), 'bs-bench-scale-'));
  const key = randomBytes(32);
  const db = new pg.Client({ host: socketDir, user: 'broadsheet', database: name });
  let servers: ServerProcess[] = [];
  try {
    servers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        startServerProcess({
          dataDir: files,
          database,
          nodeId: `node${i + 1}`,
          key,
          program: {
            args: [...SERVER_NODE_FLAGS, join(ROOT, 'dist', 'bench', 'scale-node.cjs')],
            env: {
              BENCH_DATA: files,
              BENCH_DATABASE: database,
              BENCH_NODE: `node${i + 1}`,
              BENCH_KEY: key.toString('hex'),
              BENCH_RENDER_WAIT_MS: String(WAIT_MS),
            },
          },
        }),
      ),
    );
    await db.connect();
    const api = ownerApi(servers[0].url, await servers[0].command('owner'));
    const app = await api.ok('POST', '/api/v1/analytics-apps', {
      appId: 'scale',
      name: 'Scale',
      folderId: '00000000-0000-0000-0000-000000000000',
      folderPath: '/',
      allowAnalyticsSenseApp: false,
      allowMashup: false,
      defaultOpen: 'Main',
    });
    await api.ok('POST', `/api/app/analytics/${app.id}/import`, {
      fileName: 'd.csv',
      content: 'Region,Sales\nNorth,1\n',
    });
    const projectId = (await api.ok('POST', '/api/app/projects', { name: 'Scale' })).id;
    await api.ok('POST', '/api/app/connections', { projectId, name: 'Data', analyticsAppId: app.id });
    const report = await api.ok('POST', '/api/v2/reports', {
      name: 'Scale report',
      projectID: projectId,
      type: 'Html',
    });
    const tasks: string[] = [];
    for (let i = 0; i < RUNS + 2 * n; i++) {
      const task = await api.ok('POST', '/api/v2/tasks', { name: `Scale ${i}`, projectID: projectId });
      await api.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
        reportID: report.id,
        format: 'Html',
        emailEmbedment: false,
        emailAttachment: false,
      });
      tasks.push(task.id);
    }
    const finished = (ids: string[]) =>
      until(
        async () =>
          (
            await db.query(
              "SELECT COUNT(*)::int AS n FROM requests WHERE id = ANY($1) AND status NOT IN ('queued', 'running')",
              [ids],
            )
          ).rows[0].n as number,
        (n) => n === ids.length,
        600_000,
      );
    const queue = (ids: string[]) =>
      Promise.all(ids.map(async (t) => (await api.ok('POST', `/api/v2/requests/${t}/run`)).id as string));
    // Warm: every server has run something (modules loaded, statements planned) before the clock starts.
    await finished(await queue(tasks.slice(RUNS)));
    const cpu = async () => (await Promise.all(servers.map((s) => s.command('cpu')))).map(Number);
    const cpu0 = await cpu();
    const t0 = performance.now();
    const ids = await queue(tasks.slice(0, RUNS));
    const queuedSeconds = (performance.now() - t0) / 1000;
    await finished(ids);
    const seconds = (performance.now() - t0) / 1000;
    const cpu1 = await cpu();
    // A sample read back: every run completed once, and a file of one holds what the renderer made.
    const { rows } = await db.query('SELECT id, status, attempts FROM requests WHERE id = ANY($1)', [ids]);
    const bad = rows.filter((r: { status: string; attempts: number }) => r.status !== 'completed' || r.attempts !== 1);
    if (bad.length) throw new Error(`${bad.length} runs did not complete once: ${JSON.stringify(bad[0])}`);
    const dir = join(files, 'files', 'requests', ids[RUNS - 1]);
    const made = await readFile(join(dir, (await readdir(dir))[0]), 'utf8');
    if (!made.includes('Scale report')) throw new Error(`a run's file holds something else: ${made.slice(0, 80)}`);
    const used = cpu1.map((c, i) => c - cpu0[i]);
    return {
      servers: n,
      runsPerSecond: RUNS / seconds,
      queuedSeconds,
      seconds,
      cpuMsPerReport: used.reduce((a, b) => a + b, 0) / RUNS,
      shares: used,
    };
  } finally {
    await Promise.all(servers.map((s) => s.stop().catch(() => undefined)));
    await db.end().catch(() => undefined);
    await rm(files, { recursive: true, force: true });
  }
}

export async function scaleBench(counts = [1, 2, 3, 4]) {
  const cluster = await startPostgres('bench');
  const admin = new pg.Client({ host: cluster.socketDir, user: 'broadsheet', database: 'bench' });
  await admin.connect();
  try {
    const rounds: Round[] = [];
    for (const n of counts) rounds.push(await round(n, cluster.socketDir, admin));
    const one = rounds[0].runsPerSecond;
    return rounds.map((r) => ({
      servers: r.servers,
      'runs/s': r.runsPerSecond.toFixed(1),
      'linear (N x 1 server)': (one * r.servers).toFixed(1),
      'ratio to linear':
        r.servers === 1
          ? '1.00'
          : figure({
              id: `scale.${r.servers}`,
              measure: `${r.servers} servers, runs/s to ${r.servers} × one`,
              value: r.runsPerSecond / (one * r.servers),
              unit: '×',
              ...(r.servers === 4 ? { goal: { atLeast: 0.85 } } : { better: 'higher' as const }),
            }).toFixed(2),
      'queued in / done in s': `${r.queuedSeconds.toFixed(1)} / ${r.seconds.toFixed(1)}`,
      'render ceiling runs/s': ((r.servers * RUNS_AT_ONCE * 1000) / WAIT_MS).toFixed(0),
      'CPU ms per report (all servers)': r.cpuMsPerReport.toFixed(1),
      'CPU ms per server': r.shares.join(' / '),
    }));
  } finally {
    await admin.end();
    await cluster.close();
  }
}
