// Templates as designers make them in Office, built here with the libraries the tests trust (docx,
// exceljs, pptxgenjs) and, for a native Excel chart, the chart parts Excel itself writes.
import { Document, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import PptxGenJS from 'pptxgenjs';

const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });

/** A Word template over the demo app: variables, a repeating table row, a helper row, a level, a table and a chart picture. */
export async function wordTemplate(paragraphs: (string | string[])[] = []): Promise<Buffer> {
  const doc = new Document({
    sections: [
      {
        children: [
          // A tag split over runs, as Word splits text it spell-checks.
          new Paragraph({ children: [new TextRun('Sales review: '), new TextRun('{{vTot'), new TextRun('alSales}}')] }),
          new Table({
            rows: [
              new TableRow({ children: [cell('Region'), cell('Sales')] }),
              new TableRow({
                children: [cell('{{column:Sales by region:Region}}'), cell('{{column:Sales by region:Sales}}')],
              }),
              new TableRow({ children: [cell('{{deleterow}}helper'), cell('remove me')] }),
            ],
          }),
          new Paragraph('{{#level:Region}}'),
          new Paragraph('Region {{field:Region}} sold {{vTotalSales}} in {{vOrders}} orders'),
          new Paragraph('{{/level:Region}}'),
          new Paragraph('{{table:Sales by category}}'),
          new Paragraph('{{image:Sales by region}}'),
          ...paragraphs.map((p) =>
            Array.isArray(p) ? new Paragraph({ children: p.map((t) => new TextRun(t)) }) : new Paragraph(p),
          ),
        ],
      },
    ],
  });
  return Packer.toBuffer(doc);
}

const CHART_XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<c:chartSpace xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><c:chart><c:autoTitleDeleted val="1"/><c:plotArea><c:layout/><c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/><c:ser><c:idx val="0"/><c:order val="0"/><c:tx><c:v>Sales</c:v></c:tx><c:cat><c:strRef><c:f>Sales!$A$5:$A$5</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>{{column:Sales by region:Region}}</c:v></c:pt></c:strCache></c:strRef></c:cat><c:val><c:numRef><c:f>Sales!$B$5:$B$5</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="1"/></c:numCache></c:numRef></c:val></c:ser><c:axId val="1001"/><c:axId val="1002"/></c:barChart><c:catAx><c:axId val="1001"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="1002"/></c:catAx><c:valAx><c:axId val="1002"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/><c:crossAx val="1001"/></c:valAx></c:plotArea><c:plotVisOnly val="1"/></c:chart></c:chartSpace>`;

const DRAWING_XML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<xdr:wsDr xmlns:xdr="http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"><xdr:twoCellAnchor><xdr:from><xdr:col>4</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>19</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from><xdr:to><xdr:col>10</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>33</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to><xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="Chart 1"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr><xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart r:id="rId1"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor></xdr:wsDr>`;

/**
 * An Excel template over the demo app, laid out as a designer would: a variable with its number
 * format, a repeating row (rows 5) with a share formula and a merged note, a total under it, a
 * helper row to delete, a level per region, a native table over a repeating row, a defined name, a
 * conditional format, and a native bar chart over the repeating row (anchored below everything).
 */
export async function excelTemplate(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const s = book.addWorksheet('Sales');
  s.columns = [{ width: 34 }, { width: 22 }, { width: 12 }, { width: 10 }, { width: 10 }];
  s.getCell('A1').value = 'Sales review {{vTotalSales}}';
  s.getCell('A2').value = 'Total';
  s.getCell('B2').value = '{{vTotalSales}}';
  s.getCell('B2').numFmt = '#,##0.00';
  ['Region', 'Sales', 'Share'].forEach((h, i) => (s.getCell(4, i + 1).value = h));
  s.getCell('A5').value = '{{column:Sales by region:Region}}';
  s.getCell('B5').value = '{{column:Sales by region:Sales}}';
  s.getCell('B5').numFmt = '#,##0.00';
  s.getCell('B5').font = { bold: true, color: { argb: 'FF1F6FEB' } };
  s.getCell('C5').value = { formula: 'B5/$B$2' };
  s.getCell('C5').numFmt = '0.0%';
  s.getCell('D5').value = 'note';
  s.mergeCells('D5:E5');
  s.getCell('A6').value = 'Total';
  s.getCell('B6').value = { formula: 'SUM(B5:B5)' };
  s.getCell('A7').value = '{{deleterow}}';
  s.getCell('B7').value = 'helper';
  s.getCell('A8').value = '{{#level:Region}}';
  s.getCell('A9').value = '{{field:Region}}';
  s.getCell('B9').value = '{{vTotalSales}}';
  s.getCell('A10').value = '{{/level:Region}}';
  s.getCell('A12').value = 'End of regions';
  s.addTable({
    name: 'Categories',
    ref: 'A14',
    headerRow: true,
    columns: [{ name: 'Category' }, { name: 'Sales' }],
    rows: [['{{column:Sales by category:Category}}', '{{column:Sales by category:Sales}}']],
  });
  s.addConditionalFormatting({
    ref: 'B5:B5',
    rules: [
      { type: 'cellIs', operator: 'greaterThan', formulae: ['$B$2/4'], style: { font: { italic: true } }, priority: 1 },
    ],
  });
  book.definedNames.add('Sales!$B$5:$B$6', 'RegionSales');
  const zip = await JSZip.loadAsync(await book.xlsx.writeBuffer());
  // A native chart, as Excel writes one, over the repeating row.
  zip.file('xl/charts/chart1.xml', CHART_XML);
  zip.file('xl/drawings/drawing1.xml', DRAWING_XML);
  zip.file(
    'xl/drawings/_rels/drawing1.xml.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="../charts/chart1.xml"/></Relationships>',
  );
  const relsPath = 'xl/worksheets/_rels/sheet1.xml.rels';
  const rels =
    (await zip.file(relsPath)?.async('string')) ??
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>';
  zip.file(
    relsPath,
    rels.replace(
      '</Relationships>',
      '<Relationship Id="rIdChart" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing" Target="../drawings/drawing1.xml"/></Relationships>',
    ),
  );
  const sheet = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
  const drawing = '<drawing r:id="rIdChart"/>';
  zip.file(
    'xl/worksheets/sheet1.xml',
    sheet.includes('<tableParts')
      ? sheet.replace('<tableParts', `${drawing}<tableParts`)
      : sheet.replace('</worksheet>', `${drawing}</worksheet>`),
  );
  const types = await zip.file('[Content_Types].xml')!.async('string');
  zip.file(
    '[Content_Types].xml',
    types.replace(
      '</Types>',
      '<Override PartName="/xl/charts/chart1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/><Override PartName="/xl/drawings/drawing1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawing+xml"/></Types>',
    ),
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** A PowerPoint template: a title slide, a table whose row repeats, and a slide per region with the region's chart in a picture. */
export async function powerPointTemplate(): Promise<Buffer> {
  const deck = new PptxGenJS();
  const title = deck.addSlide();
  title.addText('Sales review {{vTotalSales}}', { x: 0.5, y: 0.5, w: 9, h: 1 });
  title.addTable(
    [
      [{ text: 'Region' }, { text: 'Sales' }],
      [{ text: '{{column:Sales by region:Region}}' }, { text: '{{column:Sales by region:Sales}}' }],
    ],
    { x: 0.5, y: 2, w: 9 },
  );
  const per = deck.addSlide();
  per.addText('{{slide:Region}}Region {{field:Region}}: {{vTotalSales}}', { x: 0.5, y: 0.5, w: 9, h: 1 });
  per.addImage({ data: `image/png;base64,${PIXEL}`, x: 1, y: 2, w: 4, h: 3, altText: '{{image:Sales by category}}' });
  return Buffer.from((await deck.write({ outputType: 'nodebuffer' })) as ArrayBuffer);
}

/** An HTML template: values, a repeating row, a level and a chart. */
export const htmlTemplate = (extra = '') =>
  Buffer.from(
    `<!doctype html><html><head><meta charset="utf-8"><title>Review</title><style>td{padding:2px}</style></head><body>
<h1>Sales review {{vTotalSales}}</h1>
<table><tr><th>Region</th><th>Sales</th></tr><tr><td>{{column:Sales by region:Region}}</td><td>{{column:Sales by region:Sales}}</td></tr></table>
<p>{{#level:Region}}</p><h2>{{field:Region}}</h2><p>Sold {{vTotalSales}}</p><p>{{/level:Region}}</p>
<div>{{image:Sales by region}}</div>${extra}
</body></html>`,
    'utf8',
  );

/** Rewrites one part of an Office file (to make hostile variants of a good template). */
export async function withPart(
  file: Buffer,
  path: string,
  content: string | Buffer | ((old: string) => string),
): Promise<Buffer> {
  const zip = await JSZip.loadAsync(file);
  const next = typeof content === 'function' ? content((await zip.file(path)?.async('string')) ?? '') : content;
  zip.file(path, next);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** Every part of an Office file as text (XML) or bytes. */
export async function partsOf(file: Buffer): Promise<Map<string, Buffer>> {
  const zip = await JSZip.loadAsync(file);
  const out = new Map<string, Buffer>();
  for (const name of Object.keys(zip.files))
    if (!zip.files[name].dir) out.set(name, await zip.file(name)!.async('nodebuffer'));
  return out;
}

/**
 * A Word template of `n` paragraphs each holding a tag, every one with words of its own (a file of one
 * line repeated packs like a zip bomb and is refused as one): a large file to check.
 */
export async function manyTagsWordTemplate(n: number): Promise<Buffer> {
  const { randomBytes } = await import('node:crypto');
  const words = randomBytes(n * 6).toString('base64');
  const many = Array.from(
    { length: n },
    (_, i) => `<w:p><w:r><w:t>${words.slice(i * 8, i * 8 + 8)} {{vTotalSales}}</w:t></w:r></w:p>`,
  ).join('');
  return withPart(await wordTemplate(), 'word/document.xml', (x) => x.replace('<w:sectPr', `${many}<w:sectPr`));
}

const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL = (type: string) => `http://schemas.openxmlformats.org/officeDocument/2006/relationships/${type}`;
const addRels = (old: string | undefined, rels: string) =>
  (
    old ??
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>'
  ).replace('</Relationships>', `${rels}</Relationships>`);
/** Adds one relationship to a relationships part of a package (made when it is not there yet). */
const addRelTo = async (zip: JSZip, path: string, id: string, type: string, target: string) =>
  zip.file(
    path,
    addRels(await zip.file(path)?.async('string'), `<Relationship Id="${id}" Type="${REL(type)}" Target="${target}"/>`),
  );

/** Declares the content type of parts added to a package by hand ([Content_Types].xml overrides). */
async function addContentTypes(zip: JSZip, types: Record<string, string>) {
  const text = await zip.file('[Content_Types].xml')!.async('string');
  const overrides = Object.entries(types)
    .map(([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`)
    .join('');
  zip.file('[Content_Types].xml', text.replace('</Types>', `${overrides}</Types>`));
}

/**
 * A budget workbook as Excel 2010 and later write one: a "Data" sheet whose row 2 repeats per
 * customer ({{column:Top:…}}), a total below it with a data bar (an x14 extension conditional
 * format) and a list validation from the "Lists" sheet (an x14 validation, its formula in xm:f), a
 * validation over the data rows, and a "Pivot" sheet whose pivot table sums the data rows (its
 * cache holding the template's one row as records).
 */
export async function budgetWorkbookTemplate(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const data = book.addWorksheet('Data');
  data.getCell('A1').value = 'Customer';
  data.getCell('B1').value = 'Sales';
  data.getCell('A2').value = '{{column:Top:Region}}';
  data.getCell('B2').value = '{{column:Top:Sales}}';
  data.getCell('A3').value = 'Total';
  data.getCell('B3').value = { formula: 'SUM(B2:B2)' };
  data.getCell('C3').value = 'High';
  const lists = book.addWorksheet('Lists');
  ['High', 'Medium', 'Low'].forEach((v, i) => (lists.getCell(i + 1, 1).value = v));
  book.addWorksheet('Pivot').getCell('A1').value = 'Sales by customer';
  const zip = await JSZip.loadAsync(await book.xlsx.writeBuffer());
  const x14 = 'http://schemas.microsoft.com/office/spreadsheetml/2009/9/main';
  const xm = 'http://schemas.microsoft.com/office/excel/2006/main';
  const ext =
    `<extLst><ext uri="{78C0D931-6437-407d-A8EE-F0AAD7539E65}" xmlns:x14="${x14}"><x14:conditionalFormattings>` +
    `<x14:conditionalFormatting xmlns:xm="${xm}"><x14:cfRule type="dataBar" id="{00000000-0000-4000-8000-000000000001}">` +
    '<x14:dataBar minLength="0" maxLength="100"><x14:cfvo type="autoMin"/><x14:cfvo type="autoMax"/></x14:dataBar></x14:cfRule>' +
    '<xm:sqref>B3</xm:sqref></x14:conditionalFormatting></x14:conditionalFormattings></ext>' +
    `<ext uri="{CCE6A557-97BC-4b89-ADB6-D9C93CAAB3DF}" xmlns:x14="${x14}"><x14:dataValidations count="1" xmlns:xm="${xm}">` +
    '<x14:dataValidation type="list" allowBlank="1" showInputMessage="1" showErrorMessage="1"><x14:formula1><xm:f>Lists!$A$1:$A$3</xm:f></x14:formula1>' +
    '<xm:sqref>C3</xm:sqref></x14:dataValidation></x14:dataValidations></ext></extLst>';
  const validation =
    '<dataValidations count="1"><dataValidation type="list" allowBlank="1" sqref="D3"><formula1>$A$2:$A$2</formula1></dataValidation></dataValidations>';
  const sheet1 = await zip.file('xl/worksheets/sheet1.xml')!.async('string');
  zip.file(
    'xl/worksheets/sheet1.xml',
    sheet1
      // A validation sits after the sheet's data (and merges, if any) and before page margins.
      .replace(/<pageMargins/, `${validation}<pageMargins`)
      .replace('</worksheet>', `${ext}</worksheet>`),
  );
  zip.file(
    'xl/pivotCache/pivotCacheDefinition1.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<pivotCacheDefinition xmlns="${MAIN_NS}" xmlns:r="${REL_NS}" r:id="rId1" refreshedBy="Designer" refreshedDate="45992.5" createdVersion="6" refreshedVersion="6" minRefreshableVersion="3" recordCount="1">` +
      '<cacheSource type="worksheet"><worksheetSource ref="A1:B2" sheet="Data"/></cacheSource><cacheFields count="2">' +
      '<cacheField name="Customer" numFmtId="0"><sharedItems count="1"><s v="{{column:Top:Region}}"/></sharedItems></cacheField>' +
      '<cacheField name="Sales" numFmtId="0"><sharedItems count="1"><s v="{{column:Top:Sales}}"/></sharedItems></cacheField></cacheFields></pivotCacheDefinition>',
  );
  zip.file(
    'xl/pivotCache/pivotCacheRecords1.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<pivotCacheRecords xmlns="${MAIN_NS}" count="1"><r><x v="0"/><x v="0"/></r></pivotCacheRecords>`,
  );
  zip.file(
    'xl/pivotCache/_rels/pivotCacheDefinition1.xml.rels',
    addRels(undefined, `<Relationship Id="rId1" Type="${REL('pivotCacheRecords')}" Target="pivotCacheRecords1.xml"/>`),
  );
  zip.file(
    'xl/pivotTables/pivotTable1.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<pivotTableDefinition xmlns="${MAIN_NS}" name="SalesPivot" cacheId="7" dataCaption="Values" updatedVersion="6" minRefreshableVersion="3" createdVersion="6" outline="1" outlineData="1">` +
      '<location ref="A3:B5" firstHeaderRow="1" firstDataRow="1" firstDataCol="1"/><pivotFields count="2">' +
      '<pivotField axis="axisRow" showAll="0"><items count="2"><item x="0"/><item t="default"/></items></pivotField><pivotField dataField="1" showAll="0"/></pivotFields>' +
      '<rowFields count="1"><field x="0"/></rowFields><rowItems count="2"><i><x/></i><i t="grand"><x/></i></rowItems><colItems count="1"><i/></colItems>' +
      '<dataFields count="1"><dataField name="Sum of Sales" fld="1" baseField="0" baseItem="0"/></dataFields></pivotTableDefinition>',
  );
  zip.file(
    'xl/pivotTables/_rels/pivotTable1.xml.rels',
    addRels(
      undefined,
      `<Relationship Id="rId1" Type="${REL('pivotCacheDefinition')}" Target="../pivotCache/pivotCacheDefinition1.xml"/>`,
    ),
  );
  await addRelTo(
    zip,
    'xl/worksheets/_rels/sheet3.xml.rels',
    'rIdPivot',
    'pivotTable',
    '../pivotTables/pivotTable1.xml',
  );
  await addRelTo(
    zip,
    'xl/_rels/workbook.xml.rels',
    'rIdCache',
    'pivotCacheDefinition',
    'pivotCache/pivotCacheDefinition1.xml',
  );
  const workbook = await zip.file('xl/workbook.xml')!.async('string');
  zip.file(
    'xl/workbook.xml',
    workbook.replace(/(<calcPr[^>]*\/>)/, '$1<pivotCaches><pivotCache cacheId="7" r:id="rIdCache"/></pivotCaches>'),
  );
  const ct = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  await addContentTypes(zip, {
    '/xl/pivotCache/pivotCacheDefinition1.xml': `${ct}.pivotCacheDefinition+xml`,
    '/xl/pivotCache/pivotCacheRecords1.xml': `${ct}.pivotCacheRecords+xml`,
    '/xl/pivotTables/pivotTable1.xml': `${ct}.pivotTable+xml`,
  });
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A one-slide deck holding a native bar chart of the figures "Old" (x 1, y 2), with its alt text when given. */
export function deckWithNativeChart(altText?: string): PptxGenJS {
  const deck = new PptxGenJS();
  deck.addSlide().addChart(deck.ChartType.bar, [{ name: 'Old', labels: ['x', 'y'], values: [1, 2] }], {
    x: 1,
    y: 1,
    w: 6,
    h: 4,
    ...(altText && { altText }),
  });
  return deck;
}

/**
 * A Word template holding a native chart (as Insert › Chart makes one: the chart part, its colours
 * and style, and the workbook Word edits the data in), its alt text `altText`, between paragraphs.
 * The chart's parts are the ones PowerPoint's writer (pptxgenjs) makes: Word's chart part is the same
 * DrawingML chart. `before` and `after` are paragraphs of text around it.
 */
export async function wordWithNativeChart(altText: string, before: string[] = [], after: string[] = []) {
  const deck = deckWithNativeChart();
  const slides = await JSZip.loadAsync((await deck.write({ outputType: 'nodebuffer' })) as Buffer);
  const chartName = Object.keys(slides.files).find((n) => /^ppt\/charts\/chart\d+\.xml$/.test(n))!;
  const chartRels = chartName.replace(/([^/]+)$/, '_rels/$1.rels');
  const relsText = await slides.file(chartRels)!.async('string');
  const embedded = /Target="\.\.\/embeddings\/([^"]+)"/.exec(relsText)![1];
  const word = await Packer.toBuffer(
    new Document({
      sections: [{ children: [...before, '@@CHART@@', ...after].map((t) => new Paragraph(t)) }],
    }),
  );
  const zip = await JSZip.loadAsync(word);
  zip.file('word/charts/chart1.xml', await slides.file(chartName)!.async('nodebuffer'));
  zip.file(
    'word/charts/_rels/chart1.xml.rels',
    relsText.replace(/Target="[^"]*\.\.\/embeddings\/[^"]+"/, 'Target="../embeddings/Microsoft_Excel_Worksheet.xlsx"'),
  );
  zip.file(
    'word/embeddings/Microsoft_Excel_Worksheet.xlsx',
    await slides.file(`ppt/embeddings/${embedded}`)!.async('nodebuffer'),
  );
  for (const m of relsText.matchAll(/Target="([^"]+)"/g)) {
    if (m[1].includes('embeddings')) continue;
    const from = `ppt/charts/${m[1]}`;
    if (slides.file(from)) zip.file(`word/charts/${m[1]}`, await slides.file(from)!.async('nodebuffer'));
  }
  await addRelTo(zip, 'word/_rels/document.xml.rels', 'rIdChart1', 'chart', 'charts/chart1.xml');
  const types = await zip.file('[Content_Types].xml')!.async('string');
  zip.file(
    '[Content_Types].xml',
    types.replace(
      '</Types>',
      `${types.includes('Extension="xlsx"') ? '' : '<Default Extension="xlsx" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"/>'}<Override PartName="/word/charts/chart1.xml" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/></Types>`,
    ),
  );
  const drawing =
    `<w:r><w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="5486400" cy="3200400"/>` +
    `<wp:effectExtent l="0" t="0" r="0" b="0"/><wp:docPr id="1" name="Chart 1" descr="${altText}"/><wp:cNvGraphicFramePr/>` +
    `<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart">` +
    `<c:chart xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart" xmlns:r="${REL_NS}" r:id="rIdChart1"/>` +
    `</a:graphicData></a:graphic></wp:inline></w:drawing></w:r>`;
  const body = await zip.file('word/document.xml')!.async('string');
  zip.file('word/document.xml', body.replace(/<w:r>(?:(?!<w:r>).)*?@@CHART@@.*?<\/w:r>/, drawing));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/**
 * A workbook whose chart lives on a chart sheet of its own ("Chart"), as Excel makes with Move
 * Chart → New sheet: a bar chart of the "Data" sheet's repeated row 2 (categories A2, values B2),
 * its cache holding the template's one point.
 */
export async function chartSheetWorkbookTemplate(): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const data = book.addWorksheet('Data');
  data.getCell('A1').value = 'Customer';
  data.getCell('B1').value = 'Sales';
  data.getCell('A2').value = '{{column:Top:Region}}';
  data.getCell('B2').value = '{{column:Top:Sales}}';
  const zip = await JSZip.loadAsync(await book.xlsx.writeBuffer());
  const C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
  const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
  const XDR = 'http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing';
  zip.file(
    'xl/chartsheets/sheet2.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<chartsheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetPr/><sheetViews><sheetView zoomScale="100" workbookViewId="0"/></sheetViews><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/><drawing r:id="rId1"/></chartsheet>`,
  );
  await addRelTo(zip, 'xl/chartsheets/_rels/sheet2.xml.rels', 'rId1', 'drawing', '../drawings/drawing1.xml');
  zip.file(
    'xl/drawings/drawing1.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr xmlns:xdr="${XDR}" xmlns:a="${A}"><xdr:absoluteAnchor><xdr:pos x="0" y="0"/><xdr:ext cx="9294091" cy="6075218"/>` +
      `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="2" name="Sales chart"/><xdr:cNvGraphicFramePr><a:graphicFrameLocks noGrp="1"/></xdr:cNvGraphicFramePr></xdr:nvGraphicFramePr>` +
      `<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm><a:graphic><a:graphicData uri="${C}"><c:chart xmlns:c="${C}" xmlns:r="${REL_NS}" r:id="rId1"/></a:graphicData></a:graphic></xdr:graphicFrame><xdr:clientData/></xdr:absoluteAnchor></xdr:wsDr>`,
  );
  await addRelTo(zip, 'xl/drawings/_rels/drawing1.xml.rels', 'rId1', 'chart', '../charts/chart1.xml');
  zip.file(
    'xl/charts/chart1.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<c:chartSpace xmlns:c="${C}" xmlns:a="${A}" xmlns:r="${REL_NS}"><c:chart><c:autoTitleDeleted val="1"/><c:plotArea><c:layout/>` +
      '<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/><c:ser><c:idx val="0"/><c:order val="0"/>' +
      '<c:tx><c:strRef><c:f>Data!$B$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>Sales</c:v></c:pt></c:strCache></c:strRef></c:tx>' +
      '<c:cat><c:strRef><c:f>Data!$A$2:$A$2</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>{{column:Top:Region}}</c:v></c:pt></c:strCache></c:strRef></c:cat>' +
      '<c:val><c:numRef><c:f>Data!$B$2:$B$2</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="1"/><c:pt idx="0"><c:v>0</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>' +
      '<c:gapWidth val="150"/><c:axId val="1"/><c:axId val="2"/></c:barChart>' +
      '<c:catAx><c:axId val="1"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/><c:crossAx val="2"/></c:catAx>' +
      '<c:valAx><c:axId val="2"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/><c:crossAx val="1"/></c:valAx>' +
      '</c:plotArea><c:plotVisOnly val="1"/></c:chart></c:chartSpace>',
  );
  await addRelTo(zip, 'xl/_rels/workbook.xml.rels', 'rIdChartSheet', 'chartsheet', 'chartsheets/sheet2.xml');
  const workbook = await zip.file('xl/workbook.xml')!.async('string');
  zip.file(
    'xl/workbook.xml',
    workbook.replace('</sheets>', '<sheet name="Chart" sheetId="9" r:id="rIdChartSheet"/></sheets>'),
  );
  const ct = 'application/vnd.openxmlformats-officedocument';
  await addContentTypes(zip, {
    '/xl/chartsheets/sheet2.xml': `${ct}.spreadsheetml.chartsheet+xml`,
    '/xl/drawings/drawing1.xml': `${ct}.drawing+xml`,
    '/xl/charts/chart1.xml': `${ct}.drawingml.chart+xml`,
  });
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}
