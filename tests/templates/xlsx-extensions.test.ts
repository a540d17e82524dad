// Excel templates as Excel 2010 and later write them, filled with rows that expand: the parts that
// refer to cells follow the one placement of the rows, told apart by namespace (an x14 extension's
// xm:sqref and xm:f as much as the 2006 attributes), and a pivot table over the expanded rows shows
// every row (its cache's source follows, its stale records go, it refreshes on open).
import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { covers } from '../support/covers.js';
import {
  budgetWorkbookTemplate,
  chartSheetWorkbookTemplate,
  excelTemplate,
  partsOf,
  withPart,
} from '../support/office-templates.js';
import { openOfficePackage } from '../../engine/render/templates/template-package.js';
import { fillXlsx } from '../../engine/render/templates/xlsx-fill.js';
import { emptyScope, type TemplateData } from '../../engine/render/templates/template-data.js';
import { officeConvert } from '../../engine/render/templates/office-pdf.js';
import { pdfPages, xlsxWorkbook } from '../support/read-back.js';

const S = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const X14 = 'http://schemas.microsoft.com/office/spreadsheetml/2009/9/main';
const XM = 'http://schemas.microsoft.com/office/excel/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const CUSTOMERS = 50;

const xml = (b: Buffer | undefined): Document => new DOMParser().parseFromString(String(b), 'text/xml');
const byNs = (d: Document | Element, ns: string, name: string) =>
  Array.from(d.getElementsByTagNameNS(ns, name) as unknown as ArrayLike<Element>);

function customers(): TemplateData {
  const root = emptyScope();
  const rows = Array.from({ length: CUSTOMERS }, (_, i) => [`Customer ${i + 1}`, (i + 1) * 10]);
  root.tables['c:top'] = {
    columns: [
      { label: 'Region', numeric: false },
      { label: 'Sales', numeric: true },
    ],
    rows,
    display: rows.map((r) => r.map(String)),
  };
  return { title: 'Budget', decimalSeparator: '.', groupSeparator: ',', root };
}

describe(covers('templates: Excel 2010 extensions and pivot tables follow the rows', 'v2.reports.generate'), () => {
  const filled = async () =>
    partsOf(await fillXlsx(await openOfficePackage(await budgetWorkbookTemplate(), 'xlsx'), customers()));
  // Template row 2 became rows 2…51; the total (row 3) is row 52.
  const total = 2 + CUSTOMERS;

  it("moves an x14 data bar's and list validation's xm:sqref with their row, keeping the validation's xm:f whole", async () => {
    const sheet = xml((await filled()).get('xl/worksheets/sheet1.xml'));
    const bar = byNs(sheet, X14, 'conditionalFormatting')[0];
    expect(byNs(bar, XM, 'sqref').map((e) => e.textContent)).toEqual([`B${total}`]);
    const list = byNs(sheet, X14, 'dataValidation')[0];
    const formula = byNs(list, X14, 'formula1')[0];
    // Still an xm:f element inside x14:formula1 (schema-valid), naming the list sheet's cells.
    expect(byNs(formula, XM, 'f').map((e) => e.textContent)).toEqual(['Lists!$A$1:$A$3']);
    expect(byNs(list, XM, 'sqref').map((e) => e.textContent)).toEqual([`C${total}`]);
    // The 2006 validation beside them: its place and its formula over the data rows both follow.
    const plain = byNs(sheet, S, 'dataValidation')[0];
    expect(plain.getAttribute('sqref')).toBe(`D${total}`);
    expect(byNs(plain, S, 'formula1')[0].textContent).toBe(`$A$2:$A$${total - 1}`);
    const sum = byNs(sheet, S, 'c').find((c) => c.getAttribute('r') === `B${total}`)!;
    expect(byNs(sum, S, 'f')[0].textContent).toBe(`SUM(B2:B${total - 1})`);
  });

  it("points a pivot table's cache at every row, drops its stale records and refreshes it on open", async () => {
    const parts = await filled();
    const cache = xml(parts.get('xl/pivotCache/pivotCacheDefinition1.xml'));
    const root = cache.documentElement!;
    expect(byNs(cache, S, 'worksheetSource')[0].getAttribute('ref')).toBe(`A1:B${total - 1}`);
    expect(root.getAttribute('refreshOnLoad')).toBe('1');
    expect(root.getAttribute('saveData')).toBe('0');
    expect(root.hasAttributeNS(R, 'id')).toBe(false);
    // The three-row template's records are gone, with every reference to them.
    expect(parts.has('xl/pivotCache/pivotCacheRecords1.xml')).toBe(false);
    expect(String(parts.get('xl/pivotCache/_rels/pivotCacheDefinition1.xml.rels'))).not.toContain('pivotCacheRecords');
    expect(String(parts.get('[Content_Types].xml'))).not.toContain('pivotCacheRecords1.xml');
    // The pivot itself is on a sheet that did not grow: it stays where it was.
    const pivot = xml(parts.get('xl/pivotTables/pivotTable1.xml'));
    expect(byNs(pivot, S, 'location')[0].getAttribute('ref')).toBe('A3:B5');
  });

  it('opens in LibreOffice with the pivot over all customers and the totals recalculated', async () => {
    const out = await fillXlsx(await openOfficePackage(await budgetWorkbookTemplate(), 'xlsx'), customers());
    const text = pdfPages(await officeConvert(out, 'xlsx', 'pdf')).join('\n');
    const [data, pivot] = text.split('Sum of Sales');
    const grand = (CUSTOMERS * (CUSTOMERS + 1) * 10) / 2;
    expect(data).toMatch(new RegExp(`Total\\s+${grand}\\b`));
    // The pivot, refreshed from the cache's source: a row per customer and the grand total of all.
    expect(pivot.match(/^Customer\b.*\d+\s*$/gm)).toHaveLength(CUSTOMERS);
    expect(pivot).toMatch(new RegExp(`Total.*\\s${grand}\\b`));
  }, 60_000);

  it('repeats a sheet holding a chart and a table: each copy has its own, reading its own sheet', async () => {
    // The review sheet (a chart over its region rows, a categories table) repeated per region.
    const template = await withPart(await excelTemplate(), 'xl/sharedStrings.xml', (x) =>
      x.replace('End of regions', '{{sheet:Region}}'),
    );
    const table = (label: string, rows: [string, number][]) => ({
      columns: [
        { label, numeric: false },
        { label: 'Sales', numeric: true },
      ],
      rows,
      display: rows.map((r) => r.map(String)),
    });
    const d = customers();
    d.root.levels['f:region'] = (
      [
        ['North', 2],
        ['South', 3],
      ] as const
    ).map(([value, n]) => {
      const scope = emptyScope();
      scope.scalars['v:vtotalsales'] = { raw: 100 * n, text: String(100 * n) };
      scope.tables['c:sales by region'] = table(
        'Region',
        Array.from({ length: n }, (_, i) => [`${value} ${i + 1}`, 10 * (i + 1)] as [string, number]),
      );
      scope.tables['c:sales by category'] = table('Category', [
        ['Bikes', 1],
        ['Parts', 2],
      ]);
      return { value, scope };
    });
    const out = await fillXlsx(await openOfficePackage(template, 'xlsx'), d);
    const parts = await partsOf(out);
    const workbook = xml(parts.get('xl/workbook.xml'));
    expect(byNs(workbook, S, 'sheet').map((e) => e.getAttribute('name'))).toEqual(['North', 'South']);
    const relsOf = (part: string) => {
      const at = part.lastIndexOf('/');
      const rels = xml(parts.get(`${part.slice(0, at)}/_rels/${part.slice(at + 1)}.rels`));
      return byNs(rels, 'http://schemas.openxmlformats.org/package/2006/relationships', 'Relationship').map((r) => ({
        type: r.getAttribute('Type')!.split('/').pop()!,
        path: new URL(r.getAttribute('Target')!, `file:///${part}`).pathname.slice(1),
      }));
    };
    const sheetPath = (name: string) => {
      const id = byNs(workbook, S, 'sheet')
        .find((e) => e.getAttribute('name') === name)!
        .getAttributeNS(R, 'id');
      const rel = byNs(
        xml(parts.get('xl/_rels/workbook.xml.rels')),
        'http://schemas.openxmlformats.org/package/2006/relationships',
        'Relationship',
      ).find((r) => r.getAttribute('Id') === id)!;
      return new URL(rel.getAttribute('Target')!, 'file:///xl/').pathname.slice(1);
    };
    const seen = { drawings: new Set<string>(), charts: new Set<string>(), tables: new Set<string>() };
    const tableNames = new Set<string>();
    for (const [region, n] of [
      ['North', 2],
      ['South', 3],
    ] as const) {
      const sheet = sheetPath(region);
      const drawing = relsOf(sheet).find((r) => r.type === 'drawing')!.path;
      const chart = relsOf(drawing).find((r) => r.type === 'chart')!.path;
      const tablePath = relsOf(sheet).find((r) => r.type === 'table')!.path;
      seen.drawings.add(drawing);
      seen.charts.add(chart);
      seen.tables.add(tablePath);
      // The copy's chart reads its own sheet's region rows (5 … 4 + n).
      const refs = byNs(xml(parts.get(chart)), 'http://schemas.openxmlformats.org/drawingml/2006/chart', 'f').map(
        (f) => f.textContent,
      );
      expect(refs).toEqual([`'${region}'!$A$5:$A$${4 + n}`, `'${region}'!$B$5:$B$${4 + n}`]);
      const t = xml(parts.get(tablePath)).documentElement!;
      tableNames.add(`${t.getAttribute('id')}:${t.getAttribute('name')}`);
      expect(String(parts.get('[Content_Types].xml'))).toContain(`PartName="/${chart}"`);
    }
    expect([seen.drawings.size, seen.charts.size, seen.tables.size, tableNames.size]).toEqual([2, 2, 2, 2]);
    // LibreOffice opens it whole: both sheets' regions are in the PDF.
    const text = pdfPages(await officeConvert(out, 'xlsx', 'pdf')).join('\n');
    for (const region of ['North 2', 'South 3']) expect(text).toContain(region);
  }, 60_000);

  it('repeats only the tagged block of a row: a side table beside it stays once, its total right', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Data');
    sheet.getCell('A2').value = '{{column:Top:Region}}';
    sheet.getCell('B2').value = '{{column:Top:Sales}}';
    sheet.getCell('C2').value = { formula: 'B2*2' };
    // Column D is empty: the side table (E:G) is not part of the repeated block.
    sheet.getCell('E2').value = 'Anton';
    sheet.getCell('F2').value = 44;
    sheet.getCell('G2').value = 4;
    sheet.mergeCells('G2:H2');
    sheet.getCell('B3').value = { formula: 'SUM(B2:B2)' };
    sheet.getCell('F3').value = { formula: 'SUM(F2:F2)' };
    const template = Buffer.from(await book.xlsx.writeBuffer());
    const out = await fillXlsx(await openOfficePackage(template, 'xlsx'), customers());
    const filled = (await xlsxWorkbook(out)).getWorksheet('Data')!;
    const column = (c: string) =>
      Array.from({ length: total }, (_, i) => filled.getCell(`${c}${i + 2}`).value).filter((v) => v !== null);
    expect(column('E')).toEqual(['Anton']);
    expect(column('F').slice(0, 1)).toEqual([44]);
    expect(column('A')).toHaveLength(CUSTOMERS);
    // Each customer's row has its own formula; the totals cover the rows.
    expect((filled.getCell('C51').value as { formula: string }).formula).toBe('B51*2');
    expect((filled.getCell(`F${total}`).value as { formula: string }).formula).toBe(`SUM(F2:F${total - 1})`);
    // The side merge is not repeated into the customers' rows.
    const merges = (filled.model as unknown as { merges: string[] }).merges;
    expect(merges).toEqual(['G2:H2']);
    // LibreOffice recalculates: the side total is the one 44, the sales total all customers'.
    const text = pdfPages(await officeConvert(out, 'xlsx', 'pdf')).join('\n');
    expect(text.match(/Anton/g)).toHaveLength(1);
    expect(text).toMatch(new RegExp(`\\b${(CUSTOMERS * (CUSTOMERS + 1) * 10) / 2}\\b[\\s\\S]*\\b44\\b`));
  }, 60_000);

  // Issue 59, finding 3: a table object beside a repeated block grew with it (G1:I2 became G1:I51,
  // 49 empty rows), so a pivot reading it refreshed to blanks.
  it('keeps a table object beside a repeated block at its own rows', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Data');
    sheet.getCell('A2').value = '{{column:Top:Region}}';
    sheet.getCell('B2').value = '{{column:Top:Sales}}';
    // Columns C and D are empty: the side table (E:G) is not part of the repeated block.
    sheet.addTable({
      name: 'Side',
      ref: 'E1',
      headerRow: true,
      columns: [{ name: 'Name' }, { name: 'Qty' }, { name: 'Price' }],
      rows: [['Anton', 44, 4]],
    });
    const template = Buffer.from(await book.xlsx.writeBuffer());
    const out = await fillXlsx(await openOfficePackage(template, 'xlsx'), customers());
    const parts = await partsOf(out);
    const tablePart = [...parts.keys()].find((p) => /^xl\/tables\/table\d+\.xml$/.test(p))!;
    const table = xml(parts.get(tablePart)).documentElement!;
    expect(table.getAttribute('ref')).toBe('E1:G2');
    expect(byNs(table, S, 'autoFilter')[0]?.getAttribute('ref') ?? 'E1:G2').toBe('E1:G2');
    const filled = (await xlsxWorkbook(out)).getWorksheet('Data')!;
    expect(filled.getCell('E2').value).toBe('Anton');
    expect(filled.getCell(`A${CUSTOMERS + 1}`).value).toBe(`Customer ${CUSTOMERS}`);
    // LibreOffice opens it: the side row once, every customer's sales (the last 500).
    const text = pdfPages(await officeConvert(out, 'xlsx', 'pdf')).join('\n');
    expect(text.match(/Anton/g)).toHaveLength(1);
    expect(text).toMatch(new RegExp(`\\b${CUSTOMERS * 10}\\b`));
  }, 60_000);

  // Issue 59, finding 1: a chart on its own chart sheet kept $A$2:$A$7 and its template's points
  // when the rows grew (categories missing from the PDF).
  it('makes a chart on a chart sheet of its own read every row and cache every point', async () => {
    const out = await fillXlsx(await openOfficePackage(await chartSheetWorkbookTemplate(), 'xlsx'), customers());
    const chart = xml((await partsOf(out)).get('xl/charts/chart1.xml'));
    const C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
    const formulas = byNs(chart, C, 'f').map((f) => f.textContent);
    expect(formulas).toEqual(['Data!$B$1', `Data!$A$2:$A$${CUSTOMERS + 1}`, `Data!$B$2:$B$${CUSTOMERS + 1}`]);
    const cat = byNs(byNs(chart, C, 'cat')[0], C, 'pt');
    const val = byNs(byNs(chart, C, 'val')[0], C, 'pt');
    expect(cat).toHaveLength(CUSTOMERS);
    expect(cat.at(-1)!.textContent).toBe(`Customer ${CUSTOMERS}`);
    expect(Number(val.at(-1)!.textContent)).toBe(CUSTOMERS * 10);
    // LibreOffice opens it: the data sheet and the chart sheet.
    const text = pdfPages(await officeConvert(out, 'xlsx', 'pdf')).join('\n');
    expect(text).toMatch(new RegExp(`\\b${CUSTOMERS * 10}\\b`));
  }, 60_000);

  it("places an {{image:…}} cell's chart as a picture anchored where the cell went", async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Data');
    sheet.getCell('A2').value = '{{column:Top:Region}}';
    sheet.getCell('B2').value = '{{column:Top:Sales}}';
    sheet.getCell('A4').value = '{{image:Top}}';
    const d = customers();
    d.root.charts['c:top'] = {
      type: 'chart',
      title: 'Top customers',
      chartType: 'bar',
      categories: ['Customer 1', 'Customer 2'],
      series: [{ name: 'Sales', values: [10, 20] }],
    };
    const out = await fillXlsx(await openOfficePackage(Buffer.from(await book.xlsx.writeBuffer()), 'xlsx'), d);
    const parts = await partsOf(out);
    const sheetXml = xml(parts.get('xl/worksheets/sheet1.xml'));
    const drawingId = byNs(sheetXml, S, 'drawing')[0].getAttributeNS(R, 'id');
    const rels = String(parts.get('xl/worksheets/_rels/sheet1.xml.rels'));
    const target = new RegExp(`Id="${drawingId}"[^>]*Target="([^"]+)"`).exec(rels)?.[1] ?? '';
    const drawingPath = new URL(target, 'file:///xl/worksheets/').pathname.slice(1);
    const drawing = xml(parts.get(drawingPath));
    const D = 'http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing';
    // Template row 4 is output row 4 + 49: the picture's anchor counts rows from 0.
    const from = byNs(drawing, D, 'from')[0];
    expect([byNs(from, D, 'row')[0].textContent, byNs(from, D, 'col')[0].textContent]).toEqual([
      String(4 + CUSTOMERS - 1 - 1),
      '0',
    ]);
    expect(byNs(drawing, D, 'cNvPr')[0].getAttribute('descr')).toBe('Top customers');
    const embed = byNs(drawing, 'http://schemas.openxmlformats.org/drawingml/2006/main', 'blip')[0].getAttributeNS(
      R,
      'embed',
    );
    const drawingRels = String(parts.get(drawingPath.replace(/([^/]+)$/, '_rels/$1.rels')));
    const media = new RegExp(`Id="${embed}"[^>]*Target="([^"]+)"`).exec(drawingRels)?.[1] ?? '';
    const png = parts.get(new URL(media, `file:///${drawingPath}`).pathname.slice(1))!;
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(String(parts.get('[Content_Types].xml'))).toMatch(/Extension="png"/);
    // The cell itself holds no tag; LibreOffice opens the file whole.
    expect(String(parts.get('xl/sharedStrings.xml') ?? '')).not.toContain('{{image');
    const text = pdfPages(await officeConvert(out, 'xlsx', 'pdf')).join('\n');
    // The last customer's row (the narrow column cuts its name in the PDF; its sales are 500).
    expect(text).toMatch(/Customer\s+500\b/);
  }, 60_000);
  it('fills a sheet written with a namespace prefix (x:c, as the OpenXML SDK writes): rows, numbers, formulas, text kept, opened by LibreOffice', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Sales');
    sheet.getCell('A1').value = { richText: [{ text: 'Top ', font: { bold: true } }, { text: 'customers' }] };
    sheet.getCell('A2').value = '{{column:Top:Region}}';
    sheet.getCell('B2').value = '{{column:Top:Sales}}';
    sheet.getCell('C2').value = { formula: 'B2*2' };
    sheet.getCell('D2').value = 'A & <B>';
    sheet.getCell('A3').value = 'Total';
    sheet.getCell('B3').value = { formula: 'SUM(B2:B2)' };
    const plain = Buffer.from(await book.xlsx.writeBuffer());
    const original = String((await partsOf(plain)).get('xl/worksheets/sheet1.xml'));
    // Every element of the sheet prefixed with x:, its namespace declared under that prefix.
    const prefixedXml = original
      .replace(`xmlns="${S}"`, `xmlns:x="${S}"`)
      .replace(/<(\/?)([A-Za-z][\w]*)(?=[\s>/])/g, (m, slash: string, name: string) => `<${slash}x:${name}`);
    const template = await withPart(plain, 'xl/worksheets/sheet1.xml', prefixedXml);
    const out = await fillXlsx(await openOfficePackage(template, 'xlsx'), customers());
    const doc = xml((await partsOf(out)).get('xl/worksheets/sheet1.xml'));
    expect(doc.documentElement!.tagName).toBe('x:worksheet');
    const cells = byNs(doc, S, 'c');
    expect(cells.every((c) => c.tagName === 'x:c')).toBe(true);
    const at = (ref: string) => cells.find((c) => c.getAttribute('r') === ref)!;
    const text = (ref: string) =>
      byNs(at(ref), S, 't')
        .map((t) => t.textContent)
        .join('');
    expect(text('A2')).toBe('Customer 1');
    expect(byNs(at(`B${1 + CUSTOMERS}`), S, 'v')[0].textContent).toBe(String(CUSTOMERS * 10));
    expect(byNs(at(`C${1 + CUSTOMERS}`), S, 'f')[0].textContent).toBe(`B${1 + CUSTOMERS}*2`);
    expect(byNs(at(`B${2 + CUSTOMERS}`), S, 'f')[0].textContent).toBe(`SUM(B2:B${1 + CUSTOMERS})`);
    // A text cell without a tag stays as it was (its shared string), in its row's first copy.
    expect(at('D2').getAttribute('t')).toBe('s');
    const pdf = pdfPages(await officeConvert(out, 'xlsx', 'pdf')).join('\n');
    expect(pdf).toContain('Top customers');
    expect(pdf).toContain('A & <B>');
    // The last customer's row, its formula recalculated (the narrow column cuts its name short in print).
    expect(pdf).toMatch(new RegExp(`Customer\\s+${CUSTOMERS * 10}\\s+${CUSTOMERS * 20}\\s+A & <B>`));
    expect(pdf).toMatch(new RegExp(`Total\\s+${(CUSTOMERS * (CUSTOMERS + 1) * 10) / 2}\\b`));
  }, 60_000);
});
