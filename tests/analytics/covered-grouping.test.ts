// Charts over all of an app's data group by one dimension; the import gives each dimension's index the
// app's numbers so that grouping reads the index alone. These tests hold the answers to what the rows
// say whichever way SQLite reads them: by the covering index, by a scan when a measure reads a column
// the index lacks, under selections, and on a data file imported before indexes carried numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { EmbeddedProvider } from '../../engine/analytics/embedded/embedded-provider.js';

const ROWS = 3000;
const rows = Array.from({ length: ROWS }, (_, k) => ({
  day: new Date(Date.UTC(2024, 0, 1 + (k % 40))).toISOString().slice(0, 10),
  region: `Region ${k % 5}`,
  product: `Product ${k % 37}`,
  customer: `Customer ${k % 301}`,
  units: k % 13,
  price: (k % 80) / 4,
}));
const csv = [
  'Day,Region,Product,Customer,Units,Price',
  ...rows.map((r) => [r.day, r.region, r.product, r.customer, r.units, r.price].join(',')),
].join('\n');

let dir: string;
let provider: EmbeddedProvider;

/** Sum of `value` per `key` over the rows `keep` lets through, as [key, sum] sorted by key. */
function expected<K extends string>(
  key: (r: (typeof rows)[0]) => K,
  value: (r: (typeof rows)[0]) => number,
  keep = (_: (typeof rows)[0]) => true,
) {
  const sums = new Map<string, number>();
  for (const r of rows.filter(keep)) sums.set(key(r), (sums.get(key(r)) ?? 0) + value(r));
  return [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

const rounded = (table: unknown[][]) => table.map(([k, v]) => [k, Math.round(Number(v) * 100) / 100]);

async function indexColumns(app: string): Promise<Record<string, string[]>> {
  const db = new sqlite3.Database(join(dir, app, 'data.db'), sqlite3.OPEN_READONLY);
  const all = <T>(sql: string) => new Promise<T[]>((ok, fail) => db.all(sql, (e, r) => (e ? fail(e) : ok(r as T[]))));
  try {
    const indexes = await all<{ name: string }>(`SELECT name FROM pragma_index_list('data') ORDER BY name`);
    const out: Record<string, string[]> = {};
    for (const { name } of indexes)
      out[name] = (await all<{ name: string }>(`SELECT name FROM pragma_index_info('${name}') ORDER BY seqno`)).map(
        (c) => c.name,
      );
    return out;
  } finally {
    await new Promise((r) => db.close(r));
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bs-covered-'));
  provider = new EmbeddedProvider(dir);
  await provider.createApp('orders', 'Orders');
  const file = join(dir, 'orders.csv');
  await writeFile(file, csv);
  await provider.importFromFile('orders', 'csv', file, 'orders.csv');
});
afterAll(async () => {
  await provider.close();
  await rm(dir, { recursive: true, force: true });
});

describe('charts grouped by one dimension', () => {
  it("gives each dimension's index the app's number columns", async () => {
    // Day c0, Region c1, Product c2, Customer c3 are dimensions; Units c4 and Price c5 numbers.
    expect(await indexColumns('orders')).toEqual({
      idx_c0: ['c0', 'c4', 'c5'],
      idx_c1: ['c1', 'c4', 'c5'],
      idx_c2: ['c2', 'c4', 'c5'],
      idx_c3: ['c3', 'c4', 'c5'],
    });
  });

  it('answers a top list and a chart by day over all rows as the rows say', async () => {
    const top = await provider.chartData('orders', {
      dimensions: ['Product'],
      measures: [{ label: 'Revenue', expression: 'Sum(Units * Price)' }],
      sort: { by: 'measure', index: 0, direction: 'desc' },
      limit: 5,
    });
    const want = expected(
      (r) => r.product,
      (r) => r.units * r.price,
    )
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5);
    expect(rounded(top.rows).map(([, v]) => v)).toEqual(rounded(want).map(([, v]) => v));
    expect(new Set(top.rows.map(([k]) => k))).toEqual(
      new Set(
        expected(
          (r) => r.product,
          (r) => r.units * r.price,
        )
          .filter(([, v]) => v >= want[4][1])
          .map(([k]) => k),
      ),
    );

    const byDay = await provider.chartData('orders', {
      dimensions: ['Day'],
      measures: [{ label: 'Units', expression: 'Sum(Units)' }],
    });
    expect(byDay.rows).toEqual(
      expected(
        (r) => r.day,
        (r) => r.units,
      ),
    );
  });

  it('answers when a measure reads a column the index lacks, and under selections', async () => {
    const customers = await provider.chartData('orders', {
      dimensions: ['Region'],
      measures: [{ label: 'Lines', expression: 'Count(Customer)' }],
    });
    expect(customers.rows).toEqual(
      expected(
        (r) => r.region,
        () => 1,
      ),
    );

    const selectedHere = await provider.chartData(
      'orders',
      { dimensions: ['Region'], measures: [{ label: 'Units', expression: 'Sum(Units)' }] },
      { Region: ['Region 1', 'Region 3'] },
    );
    expect(selectedHere.rows).toEqual(
      expected(
        (r) => r.region,
        (r) => r.units,
        (r) => ['Region 1', 'Region 3'].includes(r.region),
      ),
    );

    const selectedElsewhere = await provider.chartData(
      'orders',
      { dimensions: ['Region'], measures: [{ label: 'Units', expression: 'Sum(Units)' }] },
      { Customer: ['Customer 7'] },
    );
    expect(selectedElsewhere.rows).toEqual(
      expected(
        (r) => r.region,
        (r) => r.units,
        (r) => r.customer === 'Customer 7',
      ),
    );
  });

  it('answers the same on a data file whose indexes hold the dimension alone', async () => {
    await provider.createApp('older', 'Older');
    const file = join(dir, 'older.csv');
    await writeFile(file, csv);
    await provider.importFromFile('older', 'csv', file, 'older.csv');
    await provider.close(); // The file as an earlier version left it: plain indexes.
    const db = new sqlite3.Database(join(dir, 'older', 'data.db'));
    await new Promise<void>((ok, fail) =>
      db.exec(
        [0, 1, 2, 3].map((c) => `DROP INDEX idx_c${c}; CREATE INDEX idx_c${c} ON data (c${c});`).join(' '),
        (e) => (e ? fail(e) : ok()),
      ),
    );
    await new Promise((r) => db.close(r));
    expect(await indexColumns('older')).toMatchObject({ idx_c2: ['c2'] });

    const top = await provider.chartData('older', {
      dimensions: ['Product'],
      measures: [{ label: 'Units', expression: 'Sum(Units)' }],
    });
    expect(top.rows).toEqual(
      expected(
        (r) => r.product,
        (r) => r.units,
      ),
    );
  });
});
