// The embedded analytics app through the API: import with type inference and progress, clear errors
// for bad files (and nothing changed), reloads, selections, values, expressions, charts, bookmarks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';
import { createAnalyticsApp } from '../support/analytics-app.js';

let s: TestServer;
let app: string;
const ROOT = '00000000-0000-0000-0000-000000000000';
const CSV = [
  'Date;Region;Product;Units;Price',
  '2025-01-03;North;Widget;3;9.5',
  '2025-01-04;South;Gadget;1;120',
  '2025-02-01;North;Gadget;2;118.25',
  '2025-02-11;West;Widget;10;9.25',
  '2025-03-15;South;Widget;;9',
].join('\n');

const importCsv = (content: string, fileName = 'sales.csv') =>
  s.call('POST', `/api/app/analytics/${app}/import`, { body: { fileName, content } });

beforeAll(async () => {
  s = await startTestServer();
  app = await createAnalyticsApp(s, 'shop', 'Shop');
});
afterAll(() => s.stop());

describe(
  covers('import', 'app.analytics.get', 'v1.analyticsApps.create', 'app.analytics.import', 'app.analytics.evaluate'),
  () => {
    it('infers integers, decimals, dates and text, reports progress, and counts distinct values', async () => {
      const events: { type: string; payload: Record<string, unknown> }[] = [];
      const off = s.engine.on((e) => events.push(e));
      const res = await importCsv(CSV);
      off();
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(
        res.body.data.fields.map((f: { name: string; type: string; distinctCount: number }) => [
          f.name,
          f.type,
          f.distinctCount,
        ]),
      ).toEqual([
        ['Date', 'date', 5],
        ['Region', 'text', 3],
        ['Product', 'text', 2],
        ['Units', 'integer', 4],
        ['Price', 'decimal', 5],
      ]);
      expect(res.body.data.rowCount).toBe(5);
      const progress = events.filter((e) => e.type === 'analytics.import.progress').map((e) => e.payload.percent);
      expect(progress[0]).toBe(0);
      expect(progress.at(-1)).toBe(100);
      expect(events.some((e) => e.type === 'analytics.reloaded' && e.payload.appId === 'shop')).toBe(true);
    });

    it.each([
      ['Region,Sales\nNorth,1\nSouth,2,3\n', /Line 3, column 3: expected 2 values, found 3/],
      ['Region,Sales\nNorth,"1\n', /Line 2: a quoted value is not closed/],
      ['Region,,Sales\nNorth,1,2\n', /Line 1, column 2: the column has no name/],
      ['Region,region\nA,B\n', /Line 1, column 2: the column name "region" repeats column 1/],
    ])('refuses a malformed CSV, naming line and column, and keeps the data it had (%#)', async (content, message) => {
      const res = await importCsv(content);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(message);
      expect((await s.ok('GET', `/api/app/analytics/${app}`)).rowCount).toBe(5);
    });

    it('refuses JSON that is not an array of flat objects, naming where', async () => {
      expect((await importCsv('{"a":1}', 'x.json')).body.error).toMatch(/expected an array of objects/);
      expect((await importCsv('[{"a":1},{"a":{"b":2}}]', 'x.json')).body.error).toMatch(/Item 2, key "a": nested/);
      expect((await importCsv('[{"a":1},\n{"a":2', 'x.json')).body.error).toMatch(
        /Line 2, column \d+: this is not valid JSON/,
      );
    });

    it('imports JSON and XLSX into other apps', async () => {
      const json = (
        await s.ok('POST', '/api/v1/analytics-apps', {
          appId: 'json-app',
          name: 'J',
          folderId: ROOT,
          folderPath: '/',
          allowAnalyticsSenseApp: false,
          allowMashup: false,
          defaultOpen: 'x',
        })
      ).id;
      const meta = await s.ok('POST', `/api/app/analytics/${json}/import`, {
        fileName: 'a.json',
        content: JSON.stringify([
          { city: 'Oslo', temp: -3.5, day: '2025-01-01' },
          { city: 'Rome', temp: 12, day: '2025-01-02' },
        ]),
      });
      expect(meta.fields.map((f: { type: string }) => f.type)).toEqual(['text', 'decimal', 'date']);

      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('Data');
      ws.addRow(['Team', 'Score', 'When']);
      ws.addRow(['Red', 3, new Date(Date.UTC(2025, 4, 1))]);
      ws.addRow(['Blue', 5, new Date(Date.UTC(2025, 4, 2))]);
      const xlsx = (
        await s.ok('POST', '/api/v1/analytics-apps', {
          appId: 'xlsx-app',
          name: 'X',
          folderId: ROOT,
          folderPath: '/',
          allowAnalyticsSenseApp: false,
          allowMashup: false,
          defaultOpen: 'x',
        })
      ).id;
      const content = Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
      const m2 = await s.ok('POST', `/api/app/analytics/${xlsx}/import`, { fileName: 'scores.xlsx', content });
      expect(m2.fields.map((f: { name: string; type: string }) => `${f.name}:${f.type}`)).toEqual([
        'Team:text',
        'Score:integer',
        'When:date',
      ]);
      expect((await s.ok('POST', `/api/app/analytics/${xlsx}/evaluate`, { expression: 'Sum(Score)' })).value).toBe(8);
    });

    it('keeps every text exactly as the file wrote it: quotes, commas, line breaks, JSON-like and other scripts', async () => {
      const texts = [
        'He said "hi", then left',
        'back\\slash and \\n written out',
        'two\nlines',
        '[1, 2]',
        '{"a": 1}',
        'null',
        '=1+2',
        'Zürich 東京 🚀',
        '  padded  ',
      ];
      const quoted = (t: string) => `"${t.replace(/"/g, '""')}"`;
      const other = await createAnalyticsApp(s, 'texts', 'Texts');
      const res = await s.call('POST', `/api/app/analytics/${other}/import`, {
        body: { fileName: 'texts.csv', content: ['Text,N', ...texts.map((t, i) => `${quoted(t)},${i}`)].join('\n') },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const values = await s.ok('POST', `/api/app/analytics/${other}/field-values`, { field: 'Text' });
      expect(values.map((v: { value: string }) => v.value).sort()).toEqual([...texts].sort());
      const chart = await s.ok('POST', `/api/app/analytics/${other}/chart-data`, {
        dimensions: ['Text'],
        measures: [{ label: 'N', expression: 'Sum(N)' }],
      });
      for (const [text, n] of chart.rows as [string, number][]) expect(texts[n]).toBe(text);
    });

    it('leaves out lines with nothing on them: empty, spaces only, separators only', async () => {
      const other = await createAnalyticsApp(s, 'blanks', 'Blanks');
      const content = ['Region,Sales', 'North,1', '', '   ', ' , ', ',', 'South,2', '', 'West,3,4'].join('\n');
      const refused = await s.call('POST', `/api/app/analytics/${other}/import`, {
        body: { fileName: 'blanks.csv', content },
      });
      // The blank lines are passed over, the line of three values still refused by its own width.
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatch(/expected 2 values, found 3/);
      const res = await s.call('POST', `/api/app/analytics/${other}/import`, {
        body: { fileName: 'blanks.csv', content: content.replace('West,3,4', 'West, 3') },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.rowCount).toBe(3);
      expect((await s.ok('POST', `/api/app/analytics/${other}/evaluate`, { expression: 'Sum(Sales)' })).value).toBe(6);
    });

    it('keeps field ids across a reload, so charts and filters keep working', async () => {
      const before = (await s.ok('GET', `/api/app/analytics/${app}`)).fields;
      const after = (await importCsv(CSV + '\n2025-04-01;East;Widget;1;9')).body.data.fields;
      expect(after.map((f: { id: string }) => f.id)).toEqual(before.map((f: { id: string }) => f.id));
      expect(after[1].distinctCount).toBe(4);
    });
  },
);

describe(covers('selections, values and expressions', 'app.analytics.fieldValues', 'app.analytics.evaluate'), () => {
  it("lists a field's possible values under the other fields' selections", async () => {
    const all = await s.ok('POST', `/api/app/analytics/${app}/field-values`, { field: 'Region' });
    expect(all.map((v: { value: string }) => v.value)).toEqual(['East', 'North', 'South', 'West']);
    const gadgets = await s.ok('POST', `/api/app/analytics/${app}/field-values`, {
      field: 'Region',
      selections: { Product: ['Gadget'], Region: ['West'] },
    });
    expect(gadgets).toEqual([
      { value: 'North', count: 1 },
      { value: 'South', count: 1 },
    ]);
  });

  it('evaluates Sum, Count(Distinct), Avg, Min, Max, arithmetic, comparisons and If under selections', async () => {
    const ev = async (expression: string, selections = {}) =>
      (await s.ok('POST', `/api/app/analytics/${app}/evaluate`, { expression, selections })).value;
    expect(await ev('Sum(Units)')).toBe(17);
    expect(await ev('Count(Distinct Region)')).toBe(4);
    expect(await ev('Count(Units)')).toBe(5);
    expect(await ev('Sum(Units * Price)', { Region: ['North'] })).toBeCloseTo(3 * 9.5 + 2 * 118.25);
    expect(await ev('Max(Price) - Min(Price)')).toBe(111);
    expect(await ev('Avg(Units)', { Product: ['Widget'] })).toBeCloseTo(14 / 3);
    expect(await ev("If(Sum(Units) > 10, 'many', 'few')")).toBe('many');
    expect(await ev("If(Sum(Units) > 10, 'many', 'few')", { Region: ['South'] })).toBe('few');
    expect(await ev("Sum(If(Region = 'North', Units, 0))")).toBe(5);
    expect(await ev('Sum(Units) / 0')).toBeNull();
  });

  it('points at the position of an error in an expression', async () => {
    const bad = async (expression: string) =>
      (await s.call('POST', `/api/app/analytics/${app}/evaluate`, { body: { expression } })).body;
    expect((await bad('Sum(Unitz)')).error).toMatch(/Unknown field "Unitz" \(at position 5/);
    expect((await bad('Sum(Units')).error).toMatch(/Expected "\)"/);
    expect((await bad('Units + 1')).error).toMatch(/must be inside an aggregation/);
    expect((await bad('Sum(Sum(Units))')).error).toMatch(/cannot be nested/);
    expect((await bad('Sum(Units); DROP TABLE data')).error).toMatch(/Unexpected character ";" \(at position 11/);
    expect((await bad('Median(Units)')).errorDetails![0]).toEqual({
      field: 'expression',
      message: expect.stringMatching(/Unknown function "Median"/),
    });
  });
});

describe(
  covers(
    'variables, charts, bookmarks and sheets',
    'app.analytics.saveVariable',
    'app.analytics.evaluate',
    'app.analytics.saveChart',
    'app.analytics.chartData',
    'app.analytics.saveBookmark',
    'app.analytics.saveSheet',
    'app.analytics.get',
    'app.analytics.deleteChart',
  ),
  () => {
    it('saves a variable whose definition compiles, and uses it', async () => {
      await s.ok('POST', `/api/app/analytics/${app}/variables`, { name: 'vRevenue', definition: 'Sum(Units * Price)' });
      expect(
        (await s.ok('POST', `/api/app/analytics/${app}/evaluate`, { expression: '$(vRevenue) / Sum(Units)' })).value,
      ).toBeGreaterThan(0);
      const res = await s.call('POST', `/api/app/analytics/${app}/variables`, {
        body: { name: 'vBad', definition: 'Sum(Nope)' },
      });
      expect(res.body.errorDetails![0].field).toBe('body.definition');
      expect(
        (
          await s.call('POST', `/api/app/analytics/${app}/variables`, {
            body: { name: 'vRevenue', definition: 'Sum(Units)' },
          })
        ).status,
      ).toBe(409);
      expect(
        (
          await s.call('POST', `/api/app/analytics/${app}/variables`, {
            body: { name: 'vLoop', definition: '$(vLoop) + 1' },
          })
        ).status,
      ).toBe(400);
      // A cycle through two variables is found when it is evaluated.
      const a = await s.ok('POST', `/api/app/analytics/${app}/variables`, { name: 'vA', definition: 'Sum(Units)' });
      await s.ok('POST', `/api/app/analytics/${app}/variables`, { name: 'vB', definition: '$(vA) + 1' });
      await s.ok('POST', `/api/app/analytics/${app}/variables`, { id: a.id, name: 'vA', definition: '$(vB)' });
      expect(
        (await s.call('POST', `/api/app/analytics/${app}/evaluate`, { body: { expression: '$(vA)' } })).body.error,
      ).toMatch(/refers to itself/);
    });

    it('saves a chart and returns its data sorted and limited; a bookmark selects', async () => {
      const chart = await s.ok('POST', `/api/app/analytics/${app}/charts`, {
        name: 'Units by region',
        type: 'bar',
        dimensions: ['Region'],
        measures: [{ label: 'Units', expression: 'Sum(Units)' }],
        sort: { by: 'measure', index: 0, direction: 'desc' },
        limit: 2,
      });
      const data = await s.ok('POST', `/api/app/analytics/${app}/chart-data`, { chartId: chart.id });
      expect(data).toEqual({
        dimensions: ['Region'],
        measures: ['Units'],
        rows: [
          ['West', 10],
          ['North', 5],
        ],
      });
      const bookmark = await s.ok('POST', `/api/app/analytics/${app}/bookmarks`, {
        name: 'Widgets',
        selections: { Product: ['Widget'] },
      });
      const sheet = await s.ok('POST', `/api/app/analytics/${app}/sheets`, { name: 'Main', chartIds: [chart.id] });
      const meta = await s.ok('GET', `/api/app/analytics/${app}`);
      expect(meta.bookmarks).toEqual([bookmark]);
      expect(meta.sheets).toEqual([sheet]);
      expect(
        (
          await s.call('POST', `/api/app/analytics/${app}/charts`, {
            body: {
              name: 'x',
              type: 'bar',
              dimensions: ['Nope'],
              measures: [{ label: 'u', expression: 'Sum(Units)' }],
            },
          })
        ).status,
      ).toBe(400);
      await s.ok('DELETE', `/api/app/analytics/${app}/charts/${chart.id}`);
      expect((await s.ok('GET', `/api/app/analytics/${app}`)).sheets[0].chartIds).toEqual([]);
    });
  },
);
