import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { queryAppData } from './app-data.js';
import type { TestServer } from './test-server.js';

/**
 * Sales per region of the demo app, summed exactly (compensated) by DuckDB itself over the app's raw rows, in an instance
 * of the test's own: independent of the expression engine, so reports can be checked against it.
 */
export async function demoSalesByRegion(s: TestServer): Promise<Map<string, number>> {
  const meta = await s.engine.services.analytics.meta('sales-demo');
  const col = (name: string) => `c${meta.fields.findIndex((f) => f.name === name)}`;
  // Asked once, so the app's data file exists (the demo's is converted or written at first use).
  await s.engine.services.analytics.evaluate('sales-demo', 'Count(Region)');
  // The data file the app's metadata names (servers sharing a folder keep versions: data-<stamp>.duckdb).
  const dir = join(s.dataDir, 'apps', 'sales-demo');
  const file = (JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as { dataFile?: string }).dataFile;
  const rows = await queryAppData(
    join(dir, file ?? 'data.duckdb'),
    `SELECT ${col('Region')} AS r, FSUM(${col('Sales')}) AS total FROM data GROUP BY r ORDER BY r`,
  );
  return new Map(rows.map(([r, total]) => [String(r), Number(total)]));
}

/** A number as reports show it (the report's default separators): whole numbers bare, others with two decimals. */
export const shown = (n: number) =>
  Number.isInteger(Math.round(n * 100) / 100)
    ? Math.round(n).toLocaleString('en-US')
    : n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The demo project's id and connection, as its report "Regional sales review" names them. */
export async function demoProject(s: TestServer): Promise<{ projectId: string; connectionId: string }> {
  const [demo] = await s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
  return { projectId: demo.projectId, connectionId: demo.connectionId };
}
