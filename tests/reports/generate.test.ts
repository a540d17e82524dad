// Reports from the demo app in every format, read back: the figures must match an independent SQL
// sum over the demo data, in each format, and one file per region must come out of an iteration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { ooxmlText, pdfPages, pngSize, qpdfCheck, xlsxWorkbook, zipEntries } from '../support/read-back.js';
import { covers } from '../support/covers.js';
import { demoSalesByRegion } from '../support/demo-figures.js';

let s: TestServer;
let demoReport: any;
let projectId: string;
let connectionId: string;
const regionSales = new Map<string, number>();
const en = (n: number) => Math.round(n).toLocaleString('en-US');

beforeAll(async () => {
  s = await startTestServer({ demo: true });
  [demoReport] = await s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
  projectId = demoReport.projectId;
  connectionId = demoReport.connectionId;
  for (const [region, total] of await demoSalesByRegion(s)) regionSales.set(region, total);
});
afterAll(() => s.stop());

const generate = (id: string, outputFormat: string, body: unknown = {}) =>
  s.file('POST', `/api/v2/reports/${id}/generate`, { query: { outputFormat }, body });

async function newReport(type: string, blocks: unknown[], settings?: unknown) {
  const r = await s.ok('POST', '/api/v2/reports', { name: `${type} report`, projectID: projectId, type });
  await s.ok('PUT', `/api/app/reports/${r.id}/document`, { document: { blocks, settings }, connectionId });
  return r.id as string;
}

describe("an iteration over the demo app's regions", () => {
  it('gives one correctly named Word file per region whose sales match SQL', async () => {
    const res = await generate(demoReport.id, 'Docx');
    expect(res.status, res.data.toString().slice(0, 300)).toBe(200);
    expect(res.contentType).toBe('application/zip');
    const files = await zipEntries(res.data);
    expect([...files.keys()].sort()).toEqual([
      'Regional sales review - APAC.docx',
      'Regional sales review - Americas.docx',
      'Regional sales review - EMEA.docx',
    ]);
    expect(regionSales.size).toBe(3);
    for (const [region, total] of regionSales) {
      const text = await ooxmlText(files.get(`Regional sales review - ${region}.docx`)!, /^word\/document\.xml$/);
      expect(text).toContain('Sales review');
      expect(text).toContain(en(total));
      for (const [other, t] of regionSales) if (other !== region) expect(text).not.toContain(en(t));
    }
  });

  it('gives the same figures in PDF, one valid file per region', async () => {
    const files = await zipEntries((await generate(demoReport.id, 'pdf')).data);
    expect(files.size).toBe(3);
    for (const [region, total] of regionSales) {
      const pdf = files.get(`Regional sales review - ${region}.pdf`)!;
      expect(qpdfCheck(pdf)).toMatch(/No syntax or stream encoding errors/);
      const pages = pdfPages(pdf);
      expect(pages[0]).toContain('Sales review');
      expect(pages.join('\n')).toContain(en(total));
    }
  });

  it('narrows the iteration to the selections given', async () => {
    const res = await generate(demoReport.id, 'Html', { selections: [{ fieldName: 'Region', values: ['EMEA'] }] });
    expect(res.contentType).toContain('text/html');
    expect(res.disposition).toContain('Regional sales review - EMEA.html');
    expect(res.data.toString()).toContain(en(regionSales.get('EMEA')!));
  });
});

describe(covers('every format, read back', 'app.connections.list', 'app.analytics.saveVariable'), () => {
  const blocks = [
    { id: 'h', type: 'heading', text: 'Category report', level: 1 },
    { id: 't', type: 'text', text: 'Orders: {{vOrders}}' },
    { id: 'k', type: 'kpi', label: 'Total sales', expression: 'Sum(Sales)', format: { decimals: 2 } },
    {
      id: 'c',
      type: 'chart',
      chartType: 'bar',
      dimensions: ['Category'],
      measures: [{ label: 'Sales', expression: 'Sum(Sales)' }],
      title: 'Sales by category',
    },
    {
      id: 'tb',
      type: 'table',
      dimensions: ['Category'],
      measures: [
        { label: 'Sales', expression: 'Sum(Sales)' },
        { label: 'Lines', expression: 'Count(OrderID)' },
      ],
      sort: { by: 'dimension', index: 0, direction: 'asc' },
      title: 'By category',
    },
  ];

  it('writes typed cells to XLSX: numbers stay numbers', async () => {
    const id = await newReport('Excel', blocks);
    const res = await generate(id, 'Xlsx');
    expect(res.contentType).toContain('spreadsheetml');
    const ws = (await xlsxWorkbook(res.data)).worksheets[0];
    const rows: unknown[][] = [];
    ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    const header = rows.findIndex((r) => r[0] === 'Category' && r[1] === 'Sales');
    expect(header).toBeGreaterThan(0);
    const accessories = rows[header + 1];
    expect(accessories[0]).toBe('Accessories');
    expect(typeof accessories[1]).toBe('number');
    expect(Number.isInteger(accessories[2])).toBe(true);
    const kpi = rows.find((r) => r[0] === 'Total sales')!;
    expect(kpi[1]).toBeCloseTo(
      [...regionSales.values()].reduce((a, b) => a + b, 0),
      1,
    );
    expect(ws.getImages().length).toBe(1);
  });

  it('writes the table to CSV', async () => {
    const id = await newReport('Excel', blocks);
    const text = (await generate(id, 'Csv')).data.toString('utf8').replace(/^\uFEFF/, '');
    const lines = text.trim().split('\r\n');
    expect(lines[0]).toBe('Category,Sales,Lines');
    expect(lines).toHaveLength(9);
    expect(lines[1]).toMatch(/^Accessories,\d+(\.\d+)?,\d+$/);
  });

  it('writes text and a native chart to PPTX', async () => {
    const id = await newReport('PowerPoint', blocks);
    const res = await generate(id, 'Pptx');
    const text = await ooxmlText(res.data, /^ppt\/slides\/slide\d+\.xml$/);
    expect(text).toContain('Category report');
    expect(text).toContain('Accessories');
    const parts = await zipEntries(res.data);
    expect([...parts.keys()].some((k) => /^ppt\/charts\/chart\d+\.xml$/.test(k))).toBe(true);
    expect(parts.get([...parts.keys()].find((k) => /^ppt\/charts\/chart\d+\.xml$/.test(k))!)!.toString()).toContain(
      'Laptops',
    );
  });

  it('writes one self-contained HTML file with inline SVG and no script', async () => {
    const id = await newReport('Html', blocks);
    const html = (await generate(id, 'Html')).data.toString();
    expect(html).toContain('<table>');
    expect(html).toContain('<svg');
    expect(html).toContain('Category report');
    expect(html).not.toMatch(/<script|src="http/);
  });

  it('lays consecutive KPIs side by side in the PDF, as in the HTML file and the preview', async () => {
    const kpis = [
      { id: 'k1', type: 'kpi', label: 'Total sales', expression: 'Sum(Sales)' },
      { id: 'k2', type: 'kpi', label: 'Orders', expression: 'Count(Distinct OrderID)' },
    ];
    const id = await newReport('Word', kpis);
    const lines = pdfPages((await generate(id, 'Pdf')).data)
      .join('\n')
      .split('\n');
    expect(lines.some((l) => /TOTAL SALES|Total sales/.test(l) && /ORDERS|Orders/.test(l))).toBe(true);
    const html = (await generate(id, 'Html')).data.toString();
    expect(html).toMatch(
      /<div class="kpis"><div class="kpi">.*Total sales.*<div class="kpi">.*Orders.*<\/div><\/div>/s,
    );
  });

  it('draws the first chart as PNG', async () => {
    const id = await newReport('Html', blocks);
    const res = await generate(id, 'Png');
    expect(res.contentType).toBe('image/png');
    expect(pngSize(res.data).width).toBe(1280);
  });

  it("follows the report's decimal and group separators", async () => {
    const id = await newReport(
      'Word',
      [{ id: 'k', type: 'kpi', label: 'Total', expression: 'Sum(Sales)', format: { decimals: 2 } }],
      { decimalSeparator: ',', groupSeparator: '.' },
    );
    const pages = pdfPages((await generate(id, 'Pdf')).data);
    const total = [...regionSales.values()].reduce((a, b) => a + b, 0);
    const expected = total
      .toFixed(2)
      .replace('.', ',')
      .replace(/\B(?=(\d{3})+(?!\d))/g, '.');
    expect(pages[0]).toContain(expected);
  });

  it('keeps text that looks like a formula as text in XLSX and CSV', async () => {
    const app = (await s.ok('GET', '/api/v1/connections', undefined, { projectId }))[0].analyticsAppId;
    await s.ok('POST', `/api/app/analytics/${app}/variables`, {
      name: 'vEvil',
      definition: '\'=HYPERLINK("http://evil","x")\'',
    });
    const id = await newReport('Excel', [
      { id: 't', type: 'text', text: '{{vEvil}}' },
      { id: 'tb', type: 'table', dimensions: ['Region'], measures: [{ label: '@Sales', expression: 'Sum(Sales)' }] },
    ]);
    const ws = (await xlsxWorkbook((await generate(id, 'Xlsx')).data)).worksheets[0];
    const cell = ws.getCell(1, 1);
    expect(cell.value).toBe('=HYPERLINK("http://evil","x")');
    expect(cell.type).toBe(3); // ValueType.String: not a formula
    expect(cell.numFmt).toBe('@');
    const csv = (await generate(id, 'Csv')).data.toString();
    expect(csv).toContain("'@Sales");
  });
});

describe(
  covers(
    'bad input changes nothing and says why',
    'v2.reports.update',
    'app.reports.get',
    'app.reports.saveDocument',
    'v2.reports.create',
  ),
  () => {
    it('refuses a format the report type does not offer', async () => {
      const res = await generate(demoReport.id, 'Xlsx');
      expect(res.status).toBe(400);
      expect(res.json.errorDetails[0]).toEqual({
        field: 'query.outputFormat',
        message: 'must be one of: Docx, Pdf, Html',
      });
      expect((await generate(demoReport.id, 'Gif')).status).toBe(400);
    });

    it('refuses iteration on a field the app does not have', async () => {
      const res = await s.call('PUT', `/api/v2/reports/${demoReport.id}`, {
        body: {
          name: 'Regional sales review',
          isIteration: true,
          iterationFields: [{ fieldID: '11111111-2222-4333-8444-555555555555', order: 0 }],
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.errorDetails![0].field).toBe('body.iterationFields.0.fieldID');
      expect((await s.ok('GET', `/api/v1/reports/${demoReport.id}`)).iterationFields).toEqual(
        demoReport.iterationFields,
      );
    });

    it('refuses an unknown field in an expression, pointing at it', async () => {
      const id = await newReport('Word', []);
      const res = await s.call('PUT', `/api/app/reports/${id}/document`, {
        body: { document: { blocks: [{ id: 'k', type: 'kpi', label: 'x', expression: 'Sum(Salez)' }] } },
      });
      expect(res.status).toBe(400);
      expect(res.body.errorDetails![0].field).toBe('body.document.blocks.0.expression');
      expect(res.body.error).toMatch(/Unknown field "Salez" \(at position 5/);
    });

    it('names every block with a problem at once', async () => {
      const id = await newReport('Word', []);
      const blocks = [
        { id: 'a', type: 'kpi', label: 'a', expression: 'Sum(Salez)' },
        { id: 'h', type: 'heading', text: 'x', level: 1 },
        { id: 'b', type: 'kpi', label: 'b', expression: 'Sum(Unitz)' },
      ];
      const res = await s.call('PUT', `/api/app/reports/${id}/document`, { body: { document: { blocks } } });
      expect(res.status).toBe(400);
      expect(res.body.errorDetails!.map((d: { field: string }) => d.field)).toEqual([
        'body.document.blocks.0.expression',
        'body.document.blocks.2.expression',
      ]);
    });

    it('answers report files with a safe Content-Disposition', async () => {
      const r = await s.ok('POST', '/api/v2/reports', {
        name: 'Q1 "final"\r\nX-Evil: 1',
        projectID: projectId,
        type: 'Html',
      });
      const res = await generate(r.id, 'Html');
      expect(res.status).toBe(200);
      expect(res.disposition).not.toMatch(/[\r\n]/);
      expect(res.disposition).toMatch(/^attachment; filename="Q1 -final-[^"]*X-Evil- 1\.html"; filename\*=UTF-8''/);
    });
  },
);
