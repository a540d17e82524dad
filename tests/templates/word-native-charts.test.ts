// Native Word charts fed from the app (issue 43): a chart inserted in Word whose alt text names an
// app chart takes that chart's data, once per value inside a level, read back namespace-aware and
// opened by LibreOffice.
import { describe, expect, it } from 'vitest';
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { covers } from '../support/covers.js';
import { partsOf, wordWithNativeChart } from '../support/office-templates.js';
import { pdfPages, xlsxWorkbook } from '../support/read-back.js';
import { openOfficePackage } from '../../engine/render/templates/template-package.js';
import { fillDocx } from '../../engine/render/templates/docx-fill.js';
import { scanTemplate } from '../../engine/render/templates/template-check.js';
import { officeConvert } from '../../engine/render/templates/office-pdf.js';
import { emptyScope, type ChartValue, type TemplateData } from '../../engine/render/templates/template-data.js';

const C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
const WP = 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const xml = (b: Buffer) => new DOMParser().parseFromString(b.toString('utf8'), 'text/xml') as unknown as Document;
const byNs = (el: Document | Element, ns: string, name: string) =>
  Array.from(el.getElementsByTagNameNS(ns, name)) as Element[];

const REGIONS = ['North', 'South', 'West'];
// West sells two categories, one with a name XML must escape: a chart of another shape.
const chartOf = (region: string, i: number): ChartValue => ({
  type: 'chart',
  title: 'Sales by category',
  chartType: 'bar',
  categories: (region === 'West' ? ['Bikes & Parts', 'Helmets'] : ['Bikes', 'Helmets', 'Gloves']).map(
    (c) => `${region} ${c}`,
  ),
  series: [
    { name: 'Sales', values: [100 * (i + 1), 20 * (i + 1) + 0.5, 7 * (i + 1)].slice(0, region === 'West' ? 2 : 3) },
  ],
});

function levelData(): TemplateData {
  const root = emptyScope();
  root.levels['f:region'] = REGIONS.map((region, i) => {
    const scope = emptyScope();
    scope.fields['f:region'] = [{ raw: region, text: region }];
    scope.charts['c:sales by category'] = chartOf(region, i);
    return { value: region, scope };
  });
  return { title: 'Regions', decimalSeparator: '.', groupSeparator: ',', root };
}

const template = () =>
  wordWithNativeChart(
    '{{image:Sales by category}}',
    ['{{#level:Region}}', 'Region {{field:Region}}'],
    ['{{/level:Region}}'],
  );

describe(covers('templates: native Word charts', 'v2.reports.generate'), () => {
  it('gives each value of a level its own chart part, fed with its data, cache and workbook', async () => {
    const out = await fillDocx(await openOfficePackage(await template(), 'docx'), levelData());
    const parts = await partsOf(out);
    const doc = xml(parts.get('word/document.xml')!);
    const rels = new Map(
      byNs(
        xml(parts.get('word/_rels/document.xml.rels')!),
        'http://schemas.openxmlformats.org/package/2006/relationships',
        'Relationship',
      ).map((r) => [r.getAttribute('Id'), r.getAttribute('Target')]),
    );
    const drawn = byNs(doc, C, 'chart').map((c) => c.getAttributeNS(R, 'id'));
    expect(drawn).toHaveLength(3);
    expect(new Set(drawn).size).toBe(3);
    // Word refuses a file whose drawings share an id.
    const ids = byNs(doc, WP, 'docPr').map((p) => p.getAttribute('id'));
    expect(new Set(ids).size).toBe(ids.length);
    for (const [i, region] of REGIONS.entries()) {
      const path = `word/${rels.get(drawn[i])}`;
      const chart = xml(parts.get(path)!);
      const cats = byNs(byNs(chart, C, 'cat')[0], C, 'v').map((v) => v.textContent);
      const vals = byNs(byNs(chart, C, 'val')[0], C, 'v').map((v) => Number(v.textContent));
      expect(cats).toEqual(chartOf(region, i).categories);
      expect(vals).toEqual(chartOf(region, i).series[0].values);
      // "Edit data" in Word opens a workbook holding the same figures.
      const chartRels = parts.get(path.replace(/([^/]+)$/, '_rels/$1.rels'))!.toString();
      const book = /Target="\.\.\/embeddings\/([^"]+)"/.exec(chartRels)![1];
      const sheet = (await xlsxWorkbook(parts.get(`word/embeddings/${book}`)!)).worksheets[0];
      const rows: string[] = [];
      sheet.eachRow((row) => rows.push(`${row.getCell(1).value}|${row.getCell(2).value}`));
      expect(rows).toContain(`${region} Helmets|${chartOf(region, i).series[0].values[1]}`);
    }
    // The template's own chart and its workbook (the figures "Old", 1 and 2) are gone.
    expect([...parts.keys()].filter((k) => /^word\/charts\/[^/]+\.xml$/.test(k))).toHaveLength(3);
    expect([...parts.keys()].filter((k) => k.startsWith('word/embeddings/'))).toHaveLength(3);
    for (const [name, bytes] of parts)
      if (/^word\/charts\/[^/]+\.xml$/.test(name)) expect(bytes.toString()).not.toMatch(/>Old</);
    const types = parts.get('[Content_Types].xml')!.toString();
    for (const target of drawn.map((id) => rels.get(id))) expect(types).toContain(`PartName="/word/${target}"`);
  });

  it('opens in LibreOffice with every region drawn from its own figures', async () => {
    const out = await fillDocx(await openOfficePackage(await template(), 'docx'), levelData());
    const text = pdfPages(await officeConvert(out, 'docx', 'pdf')).join('\n');
    for (const region of REGIONS) {
      expect(text).toContain(`Region ${region}`);
      expect(text).toContain(`${region} Helmets`);
    }
  });

  it('lists the chart at upload by its place, from its alt text', async () => {
    const scanned = await scanTemplate(await wordWithNativeChart('{{image:No such chart}}', ['Intro']), 'letter.docx');
    expect(scanned.tags.map((t) => t.where)).toContainEqual('document, paragraph 2, chart "Chart 1" (alt text)');
  });
});
