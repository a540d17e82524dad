// The import bench's floor: DuckDB alone (the same library, the same threads and memory limit as the
// product's store) doing the same work on the same CSV in the bench's process, with nothing around
// it: reading the file into a typed table in a file of its own with each column's distinct count,
// then the same whole-data queries and one grouped query of an iterated report's data.
import { DuckDBInstance } from '@duckdb/node-api';
import { rm, stat } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { COLUMNAR_SETTINGS } from '../../engine/analytics/embedded/columnar-file.js';
import { median } from './stats.js';

/**
 * Calls before a whole-data query is timed, on both sides. On two cores a server just past a large
 * import answers a chart by day in 9–13 ms for its first hundred or so calls, then 5–6 ms: V8 compiles
 * the server's paths on background threads that take the cores DuckDB's two threads run on (with
 * `--no-concurrent-recompilation` the same calls settle after twenty). The same statement sent raw
 * to the same file is 5 ms from its first call. What is compared is a server in use: both warmed by
 * 200 calls, the first calls' figure printed beside it.
 */
export const WHOLE_DATA_WARM = 200;

/** The customer of the per-value KPI, on both sides. */
export const ONE_CUSTOMER = 'Customer 77';

/** The whole-data queries of the bench, as DuckDB alone is asked them over the file it built. */
export const ALONE_QUERIES = {
  'kpi-all': 'SELECT FSUM(Units * Price) FROM data',
  'top-50': 'SELECT Product, FSUM(Units) AS m FROM data GROUP BY Product ORDER BY m DESC, Product LIMIT 50',
  'by-day': 'SELECT Day, FSUM(Units) FROM data GROUP BY Day ORDER BY Day',
  'distinct-by-region': 'SELECT Region, COUNT(DISTINCT Customer) FROM data GROUP BY Region ORDER BY Region',
  'list-box': 'SELECT Customer, COUNT(*) FROM data GROUP BY Customer ORDER BY Customer LIMIT 1000',
  /** One value outside an iteration (a person's click): the per-value KPI's floor. */
  'one-value': `SELECT FSUM(Units) FROM data WHERE Customer = '${ONE_CUSTOMER}'`,
} as const;

/** An iterated report's data in one statement a read: a KPI and a top-5 chart for each of `values` customers. */
export const groupedIterationQueries = (customers: string) => [
  `SELECT Customer, FSUM(Units) FROM data WHERE Customer IN (${customers}) GROUP BY Customer`,
  `SELECT Customer, Product, FSUM(Units * Price) AS m FROM data WHERE Customer IN (${customers})
     GROUP BY Customer, Product QUALIFY row_number() OVER (PARTITION BY Customer ORDER BY m DESC, Product) <= 5
     ORDER BY Customer, m DESC, Product`,
];

/** DuckDB's settings of the product's store, as DuckDB alone is given them. */
export const ALONE_SETTINGS = { threads: COLUMNAR_SETTINGS.threads, memory_limit: COLUMNAR_SETTINGS.memory_limit };

/** DuckDB alone's import of a CSV: a typed table, each column's distinct count, written to its file. */
export const aloneBuildStatements = (csv: string) => [
  `CREATE TABLE data AS SELECT * FROM read_csv('${csv}')`,
  `SELECT ${['"Order"', 'Day', 'Region', 'Product', 'Customer', 'Units', 'Price'].map((x) => `COUNT(DISTINCT ${x})`).join(', ')} FROM data`,
  'CHECKPOINT',
];

export async function duckdbAlone(csv: string, file: string, iterated: string) {
  const settings = ALONE_SETTINGS;
  const build = async () => {
    await rm(file, { force: true });
    await rm(`${file}.wal`, { force: true });
    const t = performance.now();
    const instance = await DuckDBInstance.create(file, settings);
    const c = await instance.connect();
    for (const sql of aloneBuildStatements(csv)) await c.runAndReadAll(sql);
    c.closeSync();
    instance.closeSync();
    return performance.now() - t;
  };
  // Warmed once (the file in the page cache, the library loaded), then the median of three.
  await build();
  const builds = [await build(), await build(), await build()];
  const size = (await stat(file)).size;

  const instance = await DuckDBInstance.create(file, { ...settings, access_mode: 'READ_ONLY' });
  const c = await instance.connect();
  // Each answer read as JS rows, as any program asking DuckDB for them does (the product then sends them).
  let answer: unknown[][] = [];
  /** The median of `times` runs of `sql`, after `warm` untimed ones. */
  const timed = async (sql: string, times: number, warm = WHOLE_DATA_WARM) => {
    for (let i = 0; i < warm; i++) (await c.runAndReadAll(sql)).getRowsJS();
    const ms: number[] = [];
    for (let i = 0; i < times; i++) {
      const t = performance.now();
      answer = (await c.runAndReadAll(sql)).getRowsJS();
      ms.push(performance.now() - t);
    }
    return median(ms);
  };
  const queries = {} as Record<keyof typeof ALONE_QUERIES, number>;
  // The per-value KPI's answer, for the bench to set the product's beside it.
  let oneValue = NaN;
  for (const [id, sql] of Object.entries(ALONE_QUERIES)) {
    queries[id as keyof typeof ALONE_QUERIES] = await timed(sql, 20);
    if (id === 'one-value') oneValue = Number(answer[0][0]);
  }
  const [kpi, chart] = groupedIterationQueries(iterated);
  const grouped = (await timed(kpi, 5)) + (await timed(chart, 5));
  // Kept open, warmed, so a whole-data query can be timed again in turns with the product's.
  const reader = {
    median: timed,
    close: () => {
      c.closeSync();
      instance.closeSync();
    },
  };
  return { importMs: median(builds), builds, size, queries, grouped, oneValue, reader };
}
