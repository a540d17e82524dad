// An import's memory does not grow with its file: a CSV several times larger than the import
// worker's heap cap is read, typed and written whole (DuckDB reads a CSV now, outside that heap;
// a file it refuses goes through the row reader). Papa's pause once stopped parsing but not
// reading, so the whole file queued in the worker's heap and ran it out of memory, which ended
// the whole process (a native module throws while a dying worker is torn down).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, readlink, rm, stat, writeFile } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ColumnarFile } from '../../engine/analytics/embedded/columnar-file.js';
import { runImportInWorker } from '../../engine/analytics/embedded/import-runner.js';

const ROWS = 1_500_000;
/** The worker's heap cap: the file is well over this. */
const CAP_MB = 56;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bs-import-memory-'));
  const out = createWriteStream(join(dir, 'orders.csv'));
  out.write('order_no,region,customer,units,price\n');
  for (let i = 0; i < ROWS; i += 10_000) {
    let text = '';
    for (let k = i; k < i + 10_000; k++)
      text += `ORD-${k},Region ${k % 12},Customer ${k % 20_000},${k % 17},${(k % 400) / 4}\n`;
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'close');
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('an import larger than its memory', () => {
  it(`imports a CSV of ${ROWS.toLocaleString('en')} rows in a worker capped at ${CAP_MB} MiB, every row read back`, async () => {
    const source = join(dir, 'orders.csv');
    expect((await stat(source)).size).toBeGreaterThan(CAP_MB * 1024 * 1024);
    const target = join(dir, 'orders.duckdb');
    const outcome = await runImportInWorker(
      { source, format: 'csv', target, budget: { rows: 5_000_000, cells: 50_000_000 } },
      CAP_MB,
      () => undefined,
    );
    expect(outcome).toMatchObject({ rowCount: ROWS, headers: ['order_no', 'region', 'customer', 'units', 'price'] });
    const db = await ColumnarFile.read(target);
    const [row] = await db.all(`SELECT COUNT(*) AS n, SUM(c3) AS units FROM ${db.table}`);
    await db.close();
    // Units cycle 0..16: the sum of every row, computed here.
    let units = 0;
    for (let k = 0; k < ROWS; k++) units += k % 17;
    expect(row).toEqual({ n: ROWS, units });
  }, 120_000);

  it('closes the file when an import stops early (a bad line near the start of a large file)', async () => {
    const source = join(dir, 'bad-early.csv');
    await writeFile(source, 'a,b\n1,2\n3\n' + '4,5\n'.repeat(2_000_000));
    const failed = await runImportInWorker(
      { source, format: 'csv', target: join(dir, 'bad.duckdb'), budget: { rows: 5_000_000, cells: 50_000_000 } },
      CAP_MB,
      () => undefined,
    ).catch((e: Error) => e);
    expect(failed).toBeInstanceOf(Error);
    expect((failed as Error).message).toMatch(/Line 3/);
    // No descriptor of this process still reads the file.
    const open = await Promise.all(
      (await readdir('/proc/self/fd')).map((fd) => readlink(join('/proc/self/fd', fd)).catch(() => '')),
    );
    expect(open.filter((target) => target === source)).toEqual([]);
  });
});
