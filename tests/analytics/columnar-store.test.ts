// Charts over all of an app's data group on every core of the columnar store (DuckDB): these tests
// hold the answers to what the rows say (a top list whose ties must not move, a chart by day, under
// selections), the file being one compressed columnar file, and an app of the last release (its
// rows in SQLite) read with the same values after the upgrade converts it, the old file kept until
// the new one has opened.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { EmbeddedProvider } from '../../engine/analytics/embedded/embedded-provider.js';
import { convert, inferColumnType } from '../../engine/analytics/embedded/infer-types.js';

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

/** An app folder as the last release left it: metadata naming the fields, the rows in SQLite with covering indexes. */
async function lastReleaseApp(appId: string, dataFile = 'data.db') {
  const folder = join(dir, appId);
  await mkdir(folder, { recursive: true });
  const names = ['Day', 'Region', 'Product', 'Customer', 'Units', 'Price'];
  const types = ['date', 'text', 'text', 'text', 'integer', 'decimal'];
  await writeFile(
    join(folder, 'meta.json'),
    JSON.stringify({
      appId,
      name: 'Last release',
      description: null,
      fields: names.map((name, i) => ({ id: `f${i}`, name, type: types[i], distinctCount: 0 })),
      variables: [],
      charts: [],
      bookmarks: [],
      sheets: [],
      rowCount: ROWS,
      reloadedAt: '2026-11-01T00:00:00.000Z',
      source: 'orders.csv',
      ...(dataFile === 'data.db' ? {} : { dataFile }),
    }),
  );
  const db = new sqlite3.Database(join(folder, dataFile));
  const exec = (sql: string, params: unknown[] = []) =>
    new Promise<void>((ok, fail) => db.run(sql, params, (e) => (e ? fail(e) : ok())));
  await exec('CREATE TABLE data (c0 TEXT, c1 TEXT, c2 TEXT, c3 TEXT, c4 INTEGER, c5 REAL)');
  await exec('BEGIN');
  for (const r of rows)
    await exec('INSERT INTO data VALUES (?, ?, ?, ?, ?, ?)', [
      r.day,
      r.region,
      r.product,
      r.customer,
      r.units,
      r.price,
    ]);
  await exec('COMMIT');
  for (const c of [0, 1, 2, 3]) await exec(`CREATE INDEX idx_c${c} ON data (c${c}, c4, c5)`);
  await new Promise((r) => db.close(r));
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
  it('keeps the data in one columnar file, a fraction of the CSV it came from', async () => {
    expect((await readdir(join(dir, 'orders'))).sort()).toEqual(['data.duckdb', 'meta.json']);
    const meta = await provider.meta('orders');
    expect(meta.fields.map((f) => [f.name, f.type])).toEqual([
      ['Day', 'date'],
      ['Region', 'text'],
      ['Product', 'text'],
      ['Customer', 'text'],
      ['Units', 'integer'],
      ['Price', 'decimal'],
    ]);
    expect(meta.fields.map((f) => f.distinctCount)).toEqual([40, 5, 37, 301, 13, 80]);
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

  it('reads days held as dates as the text every date is: in charts, expressions and selections', async () => {
    const days = [...new Set(rows.map((r) => r.day))].sort();
    const byDay = await provider.chartData('orders', {
      dimensions: ['Day'],
      measures: [{ label: 'Lines', expression: 'Count(Units)' }],
    });
    expect(byDay.rows.map(([d]) => d)).toEqual(days);
    expect(await provider.evaluate('orders', 'Max(Day)')).toBe(days.at(-1));
    expect(await provider.evaluate('orders', "Max(Day & '!')")).toBe(`${days.at(-1)}!`);
    expect(await provider.evaluate('orders', 'Year(Min(Day))')).toBe(2024);
    expect(await provider.evaluate('orders', 'Count(Units)', { Day: [days[3]] })).toBe(
      rows.filter((r) => r.day === days[3]).length,
    );
    expect(await provider.iterationValues('orders', ['Day'], { Region: ['Region 1'] })).toEqual(
      [...new Set(rows.filter((r) => r.region === 'Region 1').map((r) => r.day))].sort().map((d) => [d]),
    );
    // What is no day, or no number, matches nothing: it is not an error.
    expect(await provider.evaluate('orders', 'Count(Units)', { Day: ['not a day'] })).toBe(0);
    expect(await provider.evaluate('orders', 'Count(Units)', { Units: ['seven'] })).toBe(0);
    expect(await provider.evaluate('orders', 'Count(Units)', { Units: ['7', 'seven'] })).toBe(
      rows.filter((r) => r.units === 7).length,
    );
  });

  it('gives a top list whose ties come in the same order every time', async () => {
    const chart = {
      dimensions: ['Region', 'Product'],
      measures: [{ label: 'Lines', expression: 'Count(Units)' }],
      sort: { by: 'measure' as const, index: 0, direction: 'desc' as const },
      limit: 20,
    };
    const first = await provider.chartData('orders', chart);
    for (let i = 0; i < 5; i++) expect((await provider.chartData('orders', chart)).rows).toEqual(first.rows);
    // Equal counts go by region, then product.
    const tied = first.rows.filter((r) => r[2] === first.rows[0][2]).map((r) => `${r[0]}|${r[1]}`);
    expect(tied).toEqual([...tied].sort());
  });

  it('reads an app of the last release with the same values, converting it once and keeping the old file until the new one opened', async () => {
    await lastReleaseApp('older');
    const before = await readdir(join(dir, 'older'));
    expect(before.sort()).toEqual(['data.db', 'meta.json']);
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
    expect(await provider.evaluate('older', 'Sum(Units * Price)')).toBeCloseTo(
      rows.reduce((s, r) => s + r.units * r.price, 0),
      6,
    );
    expect(await provider.evaluate('older', 'Count(Distinct Customer)', { Region: ['Region 2'] })).toBe(
      new Set(rows.filter((r) => r.region === 'Region 2').map((r) => r.customer)).size,
    );
    expect(await provider.evaluate('older', 'Max(Day)')).toBe(
      rows
        .map((r) => r.day)
        .sort()
        .at(-1),
    );
    expect((await readdir(join(dir, 'older'))).sort()).toEqual(['data.duckdb', 'meta.json']);
    // The fields kept their ids and types: charts and filters of the last release still find them.
    expect((await provider.meta('older')).fields.map((f) => `${f.id}:${f.type}`)).toEqual([
      'f0:date',
      'f1:text',
      'f2:text',
      'f3:text',
      'f4:integer',
      'f5:decimal',
    ]);
  });

  it('converts a version of the last release on a shared folder as a new version, the old one left for readers on it', async () => {
    await lastReleaseApp('shared-older', 'data-old-00000000.db');
    const shared = new EmbeddedProvider(dir, undefined, true);
    try {
      expect(await shared.evaluate('shared-older', 'Sum(Units)')).toBe(rows.reduce((s, r) => s + r.units, 0));
      const files = (await readdir(join(dir, 'shared-older'))).sort();
      expect(files.filter((f) => f.endsWith('.duckdb'))).toHaveLength(1);
      expect(files).toContain('data-old-00000000.db');
      expect((await stat(join(dir, 'shared-older', files.find((f) => f.endsWith('.duckdb'))!))).size).toBeGreaterThan(
        0,
      );
    } finally {
      await shared.close();
    }
  });
});

// Each file as a person might export it: DuckDB's reader types some of them in one pass, the others
// go the careful way; either way the types and values are TypeGuess's and `convert`'s.
const ODD_FILES: Record<string, string[][]> = {
  'dates with and without a time': [
    ['When', 'N'],
    ['2024-01-05', '1'],
    ['2024-01-06 10:00', '2'],
    ['2024-01-07T08:30:00Z', '3'],
  ],
  'sixteen digits': [
    ['Id', 'N'],
    ['1234567890123456', '1'],
    ['7', '2'],
  ],
  'not a number': [['Score'], ['NaN'], ['1.5'], ['inf']],
  'slashed dates and a plus': [
    ['Day', 'Delta'],
    ['2024/01/05', '+5'],
    ['2024/01/06', '-3'],
  ],
  'spaces around numbers, a blank among them': [
    ['N', 'Name'],
    [' 5 ', ' Ann '],
    ['  ', 'Bob'],
    ['6', ' '],
  ],
  'a value starting with a space, no blank': [
    ['Name', 'N'],
    [' Ann', '1'],
    ['Bob ', '2'],
  ],
  'a row of nothing': [
    ['A', 'B'],
    ['1', 'x'],
    ['', ''],
    ['2', 'y'],
  ],
  'times and offsets': [['At'], ['2024-01-05T10:00:00+02:00'], ['2024-01-06T00:00:00Z']],
  'leading zeros and decimals': [
    ['Code', 'Rate'],
    ['007', '1.'],
    ['012', '.5'],
    ['100', '1e3'],
  ],
};

describe('types and values of every import, as TypeGuess and convert give them', () => {
  for (const [name, table] of Object.entries(ODD_FILES))
    it(name, async () => {
      const appId = `odd-${Object.keys(ODD_FILES).indexOf(name)}`;
      await provider.createApp(appId, name);
      const file = join(dir, `${appId}.csv`);
      await writeFile(file, table.map((r) => r.join(',')).join('\n'));
      const meta = await provider.importFromFile(appId, 'csv', file, `${appId}.csv`);
      const [headers, ...lines] = table;
      const kept = lines.filter((r) => r.some((v) => v.trim() !== ''));
      const cells = (c: number) => kept.map((r) => (r[c].trim() === '' ? null : r[c]));
      const types = headers.map((_, c) => inferColumnType(cells(c)));
      expect(meta.fields.map((f) => f.type)).toEqual(types);
      expect(meta.rowCount).toBe(kept.length);
      for (const [c, header] of headers.entries()) {
        const values = await provider.fieldValues(appId, header, {}, { limit: 100 });
        const want = [...new Set(cells(c).map((v) => convert(v, types[c])))];
        expect(values.map((v) => v.value).sort(), header).toEqual(want.sort());
      }
    });
});
