// A reload from PostgreSQL: a 2,000,000-row query (Debian's PostgreSQL, started here on a Unix
// socket) read by Reload now into a new version of an app's data, while the main thread's stalls are
// sampled every 10 ms and the process's memory every 50 ms. The floor, in the same run: `psql \copy`
// of the same query into a CSV file, plus the engine's own import of that file (one thread each, as
// the reload: the database streams, the import's worker builds the file). Checks a sample of what
// it loaded: the sum of a column equals the database's. Then the same facts with a second source, a
// lookup adding each region's manager, against the database doing that join itself.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import pg from 'pg';
import { createEngine, type Engine } from '../../engine/engine.js';
import { startPostgres } from '../support/postgres.js';
import { fileKeyStore } from '../../engine/secret-key-file.js';

const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const queryOf = (table: string) => `SELECT order_no, day, region, product, customer, units, price FROM ${table}`;

async function call(engine: Engine, token: string, op: string, input: object) {
  const a = await engine.invoke(op, input as never, { token, transport: 'http' });
  if (a.status !== 200) throw new Error(`${op}: ${JSON.stringify(a.envelope)}`);
  return a.envelope.data as Record<string, any>;
}

async function newApp(engine: Engine, token: string, appId: string) {
  return (
    await call(engine, token, 'v1.analyticsApps.create', {
      body: {
        appId,
        name: appId,
        folderId: '00000000-0000-0000-0000-000000000000',
        folderPath: '/',
        allowAnalyticsSenseApp: false,
        allowMashup: false,
        defaultOpen: 'x',
      },
    })
  ).id as string;
}

export async function reloadBench(rows: number) {
  const dir = await mkdtemp(join(tmpdir(), 'bs-bench-reload-'));
  const cluster = await startPostgres('bench');
  // BENCH_IMPORT_MEMORY_MB caps the import worker's heap (the engine's default is 1,024 MiB, which
  // V8 fills lazily): the reload's memory is that cap at most, whatever the rows.
  const memoryMb = Number(process.env.BENCH_IMPORT_MEMORY_MB ?? 0) || undefined;
  const engine = await createEngine({
    dataDir: join(dir, 'data'),
    secretKeys: fileKeyStore(join(dir, 'secret.key')),
    importLimits: memoryMb ? { memoryMb } : undefined,
  });
  try {
    const token = await engine.issueOwnerKey();
    // Sources read as a role that may only read: the cluster's owner (a superuser) is refused.
    const admin = new pg.Client({ host: cluster.socketDir, database: 'bench', user: cluster.user });
    await admin.connect();
    await admin.query('CREATE ROLE reader LOGIN; GRANT pg_read_all_data TO reader');
    await admin.end();
    const conn = await call(engine, token, 'app.dataConnections.create', {
      body: { name: 'Bench', kind: 'PostgreSQL', host: cluster.socketDir, database: 'bench', username: 'reader' },
    });
    // A quarter of the rows first, then all: memory that stays put as the rows grow fourfold is bounded.
    const results = [];
    for (const n of [Math.round(rows / 4), rows]) results.push(await measure(n));
    // Several sources: the same facts and a lookup adding each region's manager, against the
    // database doing that join itself (psql \copy of the LEFT JOIN, then the import).
    results.push(await measure(rows, true));
    return results;

    async function measure(rows: number, lookup = false) {
      const table = `orders_${rows}`;
      const QUERY = queryOf(table);
      const LOOKUP = 'SELECT region, manager FROM regions';
      const FLOOR_QUERY = lookup
        ? `SELECT o.order_no, o.day, o.region, o.product, o.customer, o.units, o.price, r.manager FROM ${table} o LEFT JOIN regions r ON r.region = o.region`
        : QUERY;
      const client = new pg.Client({ host: cluster.socketDir, database: 'bench', user: cluster.user });
      await client.connect();
      await client.query(`CREATE TABLE IF NOT EXISTS regions AS
        SELECT 'Region ' || i AS region, 'Manager ' || i AS manager FROM generate_series(0, 10) AS i`);
      await client.query(`CREATE TABLE IF NOT EXISTS ${table} AS SELECT
        'ORD-' || lpad(i::text, 8, '0') AS order_no, DATE '2023-01-01' + (i % 1000) AS day,
        'Region ' || (i % 12) AS region, 'Product ' || (i % 250) AS product, 'Customer ' || (i % 20000) AS customer,
        i % 17 AS units, (i % 400) / 4.0 AS price
      FROM generate_series(0, ${rows - 1}) AS i`);
      const [{ units }] = (await client.query('SELECT SUM(units)::bigint AS units FROM ' + table)).rows;
      const [{ managed }] = (
        await client.query(`SELECT COUNT(*)::int AS managed FROM ${table} o JOIN regions r ON r.region = o.region`)
      ).rows;
      await client.end();

      const suffix = `${rows}${lookup ? '-lookup' : ''}`;
      const app = await newApp(engine, token, `reload-bench-${suffix}`);
      const sources = [{ name: 'orders', connectionId: conn.id, query: QUERY }];
      if (lookup) sources.push({ name: 'managers', connectionId: conn.id, query: LOOKUP });
      await call(engine, token, 'app.analytics.setSources', { params: { id: app }, body: { sources } });

      // The floor: psql's \copy of the same query to a file, then the engine's import of that file.
      const csv = join(dir, 'orders.csv');
      const c0 = performance.now();
      const copied = spawnSync(
        'psql',
        [
          '-h',
          cluster.socketDir,
          '-U',
          cluster.user,
          '-d',
          'bench',
          '-qc',
          `\\copy (${FLOOR_QUERY}) TO '${csv}' CSV HEADER`,
        ],
        {
          encoding: 'utf8',
        },
      );
      if (copied.status !== 0) throw new Error(`psql: ${copied.stderr}`);
      const copyMs = performance.now() - c0;
      const floorApp = await newApp(engine, token, `reload-floor-${suffix}`);
      const providerOf = async (id: string) =>
        (
          (await call(engine, token, 'v1.analyticsApps.list', { query: { get_all: true } })) as unknown as {
            id: string;
            appId: string;
          }[]
        ).find((a) => a.id === id)!.appId;
      const i0 = performance.now();
      await engine.services.embedded.importFromFile(await providerOf(floorApp), 'csv', csv, 'orders.csv');
      const importMs = performance.now() - i0;
      await rm(csv, { force: true });

      // The reload, its stalls and memory watched.
      const stalls = monitorEventLoopDelay({ resolution: 10 });
      let peak = process.memoryUsage().rss;
      const rssBefore = peak;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
      stalls.enable();
      const r0 = performance.now();
      const reload = await call(engine, token, 'app.analytics.reload', { params: { id: app } });
      const reloadMs = performance.now() - r0;
      stalls.disable();
      clearInterval(sampler);
      if (reload.status !== 'completed' || reload.rows !== rows) throw new Error(`reload: ${JSON.stringify(reload)}`);
      const loaded = await engine.services.analytics.evaluate(await providerOf(app), 'Sum(units)');
      if (Number(loaded) !== Number(units)) throw new Error(`sum of units ${loaded}, the database has ${units}`);
      // Region 11 has no manager: the rows a lookup found are the database's inner join.
      const withManager = lookup
        ? await engine.services.analytics.evaluate(await providerOf(app), 'Count(manager)')
        : null;
      if (lookup && Number(withManager) !== managed)
        throw new Error(`${withManager} rows found a manager, the database's join finds ${managed}`);

      const floorMs = copyMs + importMs;
      return {
        what: `Reload of ${rows.toLocaleString('en')} rows from PostgreSQL${lookup ? ', with a lookup source' : ''}`,
        time: s1(reloadMs),
        floor: `${s1(floorMs)} (psql \\copy${lookup ? ' of the join' : ''} ${s1(copyMs)} + import ${s1(importMs)})`,
        ratio: (reloadMs / floorMs).toFixed(2),
        'longest stall': `${(stalls.max / 1e6).toFixed(0)} ms`,
        'peak RSS': `${mib(peak)} (${mib(peak - rssBefore)} above the start)`,
        'sample checked': `Sum(units) ${loaded}${lookup ? `, Count(manager) ${withManager}` : ''} = database's`,
      };
    }
  } finally {
    await engine.close();
    await cluster.close();
    await rm(dir, { recursive: true, force: true });
  }
}
