// Issue 26: servers sharing a folder read an app's data as versions, never a file being written.
// Rows loaded into an app (the demo app on a first start) are a new version like an import's: the
// other server reads them at once, the version before stays for readers still on it, and older
// ones go. On the desktop (not shared) the app keeps its one data file.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedProvider } from '../../engine/analytics/embedded/embedded-provider.js';
import type { TableData } from '../../engine/analytics/port.js';

let dir: string;
const sales = (n: number, price: number): TableData => ({
  headers: ['Region', 'Sales'],
  types: ['text', 'integer'],
  rows: Array.from({ length: n }, (_, i) => [`Region ${i % 4}`, price]),
});
const dataFiles = async () => (await readdir(join(dir, 'sales'))).filter((f) => /^data.*\.duckdb$/.test(f)).sort();

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bs-shared-load-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('rows loaded into an app', () => {
  it('are a new version on a shared folder: the other server reads them, and one version before stays', async () => {
    const one = new EmbeddedProvider(dir, undefined, true);
    const two = new EmbeddedProvider(dir, undefined, true);
    try {
      await one.createApp('sales', 'Sales');
      await one.load('sales', sales(100, 2), 'generated');
      expect(await two.evaluate('sales', 'Sum(Sales)')).toBe(200);
      const first = await dataFiles();
      expect(first).toHaveLength(1);
      expect(first[0]).toMatch(/^data-[a-z0-9]+-[0-9a-f]{8}\.duckdb$/);

      await one.load('sales', sales(50, 3), 'generated');
      expect(await two.evaluate('sales', 'Sum(Sales)')).toBe(150);
      expect(await one.evaluate('sales', 'Sum(Sales)')).toBe(150);
      expect((await two.meta('sales')).rowCount).toBe(50);
      await one.load('sales', sales(10, 1), 'generated');
      // The newest and the one before it (a reader may still be on it); the first is gone.
      const kept = await dataFiles();
      expect(kept).toHaveLength(2);
      expect(kept).not.toContain(first[0]);
      expect(await two.evaluate('sales', 'Sum(Sales)')).toBe(10);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('replace the one data file on a desktop', async () => {
    const desktop = new EmbeddedProvider(dir);
    try {
      await desktop.createApp('sales', 'Sales');
      await desktop.load('sales', sales(100, 2), 'generated');
      await desktop.load('sales', sales(10, 1), 'generated');
      expect(await desktop.evaluate('sales', 'Sum(Sales)')).toBe(10);
      expect(await dataFiles()).toEqual(['data.duckdb']);
    } finally {
      await desktop.close();
    }
  });
});
