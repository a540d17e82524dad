import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import type { TestServer } from './test-server.js';

/**
 * Sales per region of the demo app, summed by SQLite itself over the app's raw rows: independent of
 * the expression engine, so reports can be checked against it.
 */
export async function demoSalesByRegion(s: TestServer): Promise<Map<string, number>> {
  const meta = await s.engine.services.analytics.meta('sales-demo');
  const col = (name: string) => `c${meta.fields.findIndex((f) => f.name === name)}`;
  // The data file the app's metadata names (servers sharing a folder keep versions: data-<stamp>.db).
  const dir = join(s.dataDir, 'apps', 'sales-demo');
  const file = (JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as { dataFile?: string }).dataFile;
  const db = new sqlite3.Database(join(dir, file ?? 'data.db'), sqlite3.OPEN_READONLY);
  const rows = await new Promise<{ r: string; total: number }[]>((res, rej) =>
    db.all(`SELECT ${col('Region')} AS r, SUM(${col('Sales')}) AS total FROM data GROUP BY r`, (e, x) =>
      e ? rej(e) : res(x as never),
    ),
  );
  db.close();
  return new Map(rows.map((r) => [r.r, r.total]));
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
