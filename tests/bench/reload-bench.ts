// A reload from PostgreSQL: a 2,000,000-row query (Debian's PostgreSQL, started here on a Unix
// socket) read by Reload now into a new version of an app's data, by a server in a process of its
// own, while its main thread's stalls are sampled every 10 ms and its memory every 50 ms from
// outside, beside the same server at rest just before. The floor, in the same run: `psql \copy` of
// the same query into a CSV file, plus the engine's own import of that file (one thread each, as
// the reload: the database streams, the import's worker builds the file), with the server's main
// thread watched over it as over the reload: its longest stall is the floor of the reload's. Checks
// a sample of what it loaded: the sum of a column equals the database's. Then the same facts with a
// second source, a lookup adding each region's manager, against the database doing that join itself.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { startPostgres } from '../support/postgres.js';
import type { ServerProcess } from '../support/server-process.js';
import { startBenchServer } from './bench-server-process.js';
import { idleRssOf, watchRss } from './process-memory.js';
import { figure, median } from './verdicts.js';

const MiB = 1024 * 1024;
const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const queryOf = (table: string) => `SELECT order_no, day, region, product, customer, units, price FROM ${table}`;

/** An operation as the owner calls it, in the server's own process. */
async function call(server: ServerProcess, op: string, input: object) {
  return JSON.parse(await server.command('invoke', JSON.stringify({ op, input }))) as Record<string, any>;
}

async function newApp(server: ServerProcess, appId: string) {
  return (
    await call(server, 'v1.analyticsApps.create', {
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
  // The server in a process of its own (bench-server.ts reads BENCH_IMPORT_MEMORY_MB): its memory
  // is read from outside, beside itself idle.
  const server = await startBenchServer(join(dir, 'data'), 'reload');
  try {
    // The server idle: warmed by a call, a second to settle.
    await call(server, 'v1.analyticsApps.list', { query: { get_all: true } });
    const idleRss = await idleRssOf(server.pid);
    // Sources read as a role that may only read: the cluster's owner (a superuser) is refused.
    const admin = new pg.Client({ host: cluster.socketDir, database: 'bench', user: cluster.user });
    await admin.connect();
    await admin.query('CREATE ROLE reader LOGIN; GRANT pg_read_all_data TO reader');
    await admin.end();
    const conn = await call(server, 'app.dataConnections.create', {
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
      const app = await newApp(server, `reload-bench-${suffix}`);
      const sources = [{ name: 'orders', connectionId: conn.id, query: QUERY }];
      if (lookup) sources.push({ name: 'managers', connectionId: conn.id, query: LOOKUP });
      await call(server, 'app.analytics.setSources', { params: { id: app }, body: { sources } });

      // The floor: psql's \copy of the same query to a file, then the engine's import of that file,
      // with the server's main thread watched meanwhile as during the reload: the same work on the
      // same cores, without the reload's own reading on the server's side. Three times, as the
      // reload is: a longest stall is the worst of a few hundred wake-ups, and each figure below is
      // the median of three.
      const csv = join(dir, 'orders.csv');
      const floorApp = await newApp(server, `reload-floor-${suffix}`);
      const providerOf = async (id: string) =>
        (
          (await call(server, 'v1.analyticsApps.list', { query: { get_all: true } })) as unknown as {
            id: string;
            appId: string;
          }[]
        ).find((a) => a.id === id)!.appId;
      const floorProvider = await providerOf(floorApp);
      const floors: { copyMs: number; importMs: number; stallMs: number }[] = [];
      for (let i = 0; i < 3; i++) {
        await server.command('stalls', 'start');
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
          { encoding: 'utf8' },
        );
        if (copied.status !== 0) throw new Error(`psql: ${copied.stderr}`);
        const copyMs = performance.now() - c0;
        const importMs = Number(await server.command('importFile', JSON.stringify({ app: floorProvider, csv })));
        floors.push({ copyMs, importMs, stallMs: Number(await server.command('stalls', 'stop')) });
        await rm(csv, { force: true });
      }
      const copyMs = median(floors.map((f) => f.copyMs));
      const importMs = median(floors.map((f) => f.importMs));
      const floorMs = median(floors.map((f) => f.copyMs + f.importMs));
      const floorStallMs = median(floors.map((f) => f.stallMs));

      // The reload, its stalls and its memory watched. Its memory is what it adds to the server at
      // rest just before it: the server keeps what earlier work grew (its young generation, DuckDB's
      // reads, the allocator's arenas: 40–75 MiB after the floors' imports), which is not this
      // reload's and swung the figure by as much. What was kept is printed beside it.
      const reloadOnce = async () => {
        const restRss = await idleRssOf(server.pid);
        await server.command('stalls', 'start');
        const memory = watchRss(server.pid, 50);
        const r0 = performance.now();
        const reload = await call(server, 'app.analytics.reload', { params: { id: app } });
        const ms = performance.now() - r0;
        const peak = memory.stop();
        const stallMs = Number(await server.command('stalls', 'stop'));
        if (reload.status !== 'completed' || reload.rows !== rows) throw new Error(`reload: ${JSON.stringify(reload)}`);
        return { ms, stallMs, restRss, added: peak - restRss };
      };
      const reloads = [await reloadOnce(), await reloadOnce(), await reloadOnce()];
      const reloadMs = median(reloads.map((r) => r.ms));
      const stallMs = median(reloads.map((r) => r.stallMs));
      const added = median(reloads.map((r) => r.added));
      const evaluate = async (expression: string) =>
        (
          JSON.parse(
            await server.command('evaluate', JSON.stringify({ app: await providerOf(app), expression, times: 0 })),
          ) as { value: unknown }
        ).value;
      const loaded = await evaluate('Sum(units)');
      if (Number(loaded) !== Number(units)) throw new Error(`sum of units ${loaded}, the database has ${units}`);
      // Region 11 has no manager: the rows a lookup found are the database's inner join.
      const withManager = lookup ? await evaluate('Count(manager)') : null;
      if (lookup && Number(withManager) !== managed)
        throw new Error(`${withManager} rows found a manager, the database's join finds ${managed}`);

      const what = `Reload of ${rows.toLocaleString('en')} rows from PostgreSQL${lookup ? ', with a lookup source' : ''}`;
      return {
        what,
        time: s1(reloadMs),
        floor: `${s1(floorMs)} (psql \\copy${lookup ? ' of the join' : ''} ${s1(copyMs)} + import ${s1(importMs)})`,
        ratio: figure({
          id: `reload.${suffix}`,
          measure: `${what}, to psql \\copy + import`,
          value: reloadMs / floorMs,
          unit: '×',
        }).toFixed(2),
        'longest stall': `${figure({ id: `reload.${suffix}.stall`, measure: `${what}: longest stall (median of three)`, value: stallMs, unit: 'ms', goal: { atMost: 50 } }).toFixed(0)} ms (of ${reloads.map((r) => r.stallMs.toFixed(0)).join(', ')}; floor ${floorStallMs.toFixed(0)} ms of ${floors.map((f) => f.stallMs.toFixed(0)).join(', ')}: ${(stallMs / floorStallMs).toFixed(2)}x)`,
        'memory added': `${mib(figure({ id: `reload.${suffix}.memory`, measure: `${what}: peak memory added to the server at rest before it (median of three)`, value: added / MiB, unit: 'MiB', goal: { atMost: 300 } }) * MiB)} (of ${reloads.map((r) => mib(r.added)).join(', ')}; at rest before: ${reloads.map((r) => mib(r.restRss)).join(', ')}, idle at its start ${mib(idleRss)})`,
        'sample checked': `Sum(units) ${loaded}${lookup ? `, Count(manager) ${withManager}` : ''} = database's`,
      };
    }
  } finally {
    await server.stop();
    await cluster.close();
    await rm(dir, { recursive: true, force: true });
  }
}
