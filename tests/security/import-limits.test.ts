// Finding 2 (high): a large XLSX import killed the whole process. Imports stream in a worker
// thread with a memory limit and a row and cell budget: a file too big fails that import with a
// clear message, the app keeps its data, and the engine answers throughout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';

let s: TestServer;
const ROOT = '00000000-0000-0000-0000-000000000000';
const MEMORY_MB = 96;

async function newApp(appId: string) {
  return (
    await s.ok('POST', '/api/v1/analytics-apps', {
      appId,
      name: appId,
      folderId: ROOT,
      folderPath: '/',
      allowAnalyticsSenseApp: false,
      allowMashup: false,
      defaultOpen: 'x',
    })
  ).id as string;
}
const importFile = (app: string, fileName: string, content: string) =>
  s.call('POST', `/api/app/analytics/${app}/import`, { body: { fileName, content } });
const csv = (rows: number, cols = 3) =>
  [
    Array.from({ length: cols }, (_, c) => `C${c}`).join(','),
    ...Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => r * cols + c).join(',')),
  ].join('\n');
const appFiles = async (appId: string) => (await readdir(join(s.dataDir, 'apps', appId))).sort();

beforeAll(async () => {
  s = await startTestServer({ importLimits: { budget: { rows: 1000, cells: 2500 }, memoryMb: MEMORY_MB } });
});
afterAll(() => s.stop());

describe(covers('import budgets', 'app.analytics.get', 'app.analytics.evaluate'), () => {
  it('refuses a file over the row budget, naming it, and keeps the data the app had', async () => {
    const app = await newApp('budget-rows');
    expect((await importFile(app, 'ok.csv', csv(10))).status).toBe(200);
    const r = await importFile(app, 'big.csv', csv(1500, 1));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/more than 1,000 rows/);
    expect(r.body.errorDetails![0].field).toBe('body.content');
    const meta = await s.ok('GET', `/api/app/analytics/${app}`);
    expect(meta.rowCount).toBe(10);
    expect((await s.ok('POST', `/api/app/analytics/${app}/evaluate`, { expression: 'Count(C0)' })).value).toBe(10);
    expect(await appFiles('budget-rows')).toEqual(expect.arrayContaining(['data.duckdb', 'meta.json']));
    expect((await appFiles('budget-rows')).filter((f) => f.endsWith('.tmp') || f.startsWith('data.next'))).toEqual([]);
  });

  it('refuses a file over the cell budget (rows × columns), naming it', async () => {
    const app = await newApp('budget-cells');
    const r = await importFile(app, 'wide.csv', csv(900, 3));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/more than 2,500 cells/);
  });

  it('refuses a file of 10,000 columns, naming the count and the limit (before, SQLite answered a 500)', async () => {
    const app = await newApp('budget-columns');
    const r = await importFile(app, 'very-wide.csv', csv(1, 10_000));
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/has 10,000 columns; one import may hold 1,000 at most/);
    expect(r.body.errorDetails![0].field).toBe('body.content');
  });
});

describe(covers('import memory', 'app.setup.status', 'app.analytics.get'), () => {
  it('a file that needs more memory than an import may use fails that import with 413; the engine goes on', async () => {
    const app = await newApp('memory');
    expect((await importFile(app, 'ok.csv', csv(5))).status).toBe(200);
    // JSON is parsed whole: 3,000,000 small objects (about 40 MB of text) need far more than 96 MiB.
    const text = '[' + Array.from({ length: 3_000_000 }, (_, i) => `{"k":${i},"v":"x"}`).join(',') + ']';
    const r = await importFile(app, 'huge.json', text);
    expect(r.status).toBe(413);
    expect(r.body.error).toMatch(new RegExp(`more than the ${MEMORY_MB} MiB one import may use`));
    expect((await s.call('GET', '/api/app/setup')).status).toBe(200);
    expect((await s.ok('GET', `/api/app/analytics/${app}`)).rowCount).toBe(5);
    expect((await appFiles('memory')).filter((f) => f.endsWith('.tmp') || f.startsWith('data.next'))).toEqual([]);
  });
});

describe(
  covers(
    'streamed XLSX',
    'v1.analyticsApps.create',
    'app.analytics.import',
    'app.analytics.evaluate',
    'app.analytics.fieldValues',
  ),
  () => {
    it('imports the first worksheet row by row with its types, and the figures add up', async () => {
      const big = await startTestServer();
      try {
        const wb = new ExcelJS.Workbook();
        const ws = wb.addWorksheet('Sales');
        ws.addRow(['Region', 'Units', 'Price', 'Day']);
        let units = 0;
        for (let i = 0; i < 20_000; i++) {
          ws.addRow([`Region ${i % 7}`, i % 13, (i % 40) + 0.25, new Date(Date.UTC(2025, 0, 1 + (i % 300)))]);
          units += i % 13;
        }
        wb.addWorksheet('Ignored').addRow(['Not', 'read']);
        const app = (
          await big.ok('POST', '/api/v1/analytics-apps', {
            appId: 'xlsx-stream',
            name: 'X',
            folderId: ROOT,
            folderPath: '/',
            allowAnalyticsSenseApp: false,
            allowMashup: false,
            defaultOpen: 'x',
          })
        ).id;
        const content = Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
        const meta = await big.ok('POST', `/api/app/analytics/${app}/import`, { fileName: 'sales.xlsx', content });
        expect(meta.rowCount).toBe(20_000);
        expect(meta.fields.map((f: { name: string; type: string }) => `${f.name}:${f.type}`)).toEqual([
          'Region:text',
          'Units:integer',
          'Price:decimal',
          'Day:date',
        ]);
        expect((await big.ok('POST', `/api/app/analytics/${app}/evaluate`, { expression: 'Sum(Units)' })).value).toBe(
          units,
        );
        const days = await big.ok('POST', `/api/app/analytics/${app}/field-values`, { field: 'Day', limit: 2 });
        expect(days.map((d: { value: string }) => d.value)).toEqual(['2025-01-01', '2025-01-02']);
      } finally {
        await big.stop();
      }
    });

    it('refuses a file that is not a workbook with a clear message', async () => {
      const app = await newApp('not-xlsx');
      const r = await s.call('POST', `/api/app/analytics/${app}/import`, {
        body: { fileName: 'x.xlsx', content: Buffer.from('not a zip at all').toString('base64') },
      });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(/not a readable XLSX workbook/);
    });
  },
);
