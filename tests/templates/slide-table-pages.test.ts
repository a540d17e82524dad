// Tables on slides paginate (issue 43): rows that would run past the slide's bottom continue on a
// copy of the slide, the slide's other content and the table's header on every copy.
import { describe, expect, it } from 'vitest';
import PptxGenJS from 'pptxgenjs';
import { DOMParser, type Document, type Element } from '@xmldom/xmldom';
import { covers } from '../support/covers.js';
import { partsOf } from '../support/office-templates.js';
import { pdfPages } from '../support/read-back.js';
import { openOfficePackage } from '../../engine/render/templates/template-package.js';
import { fillPptx } from '../../engine/render/templates/pptx-fill.js';
import { officeConvert } from '../../engine/render/templates/office-pdf.js';
import { emptyScope, type TemplateData } from '../../engine/render/templates/template-data.js';

const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const CUSTOMERS = Array.from({ length: 50 }, (_, i) => `Customer ${String(i + 1).padStart(2, '0')}`);

function data(): TemplateData {
  const root = emptyScope();
  root.tables['c:top'] = {
    columns: [
      { label: 'Customer', numeric: false },
      { label: 'Sales', numeric: true },
    ],
    rows: CUSTOMERS.map((c, i) => [c, i * 10]),
    display: CUSTOMERS.map((c, i) => [c, String(i * 10)]),
  };
  return { title: 'T', decimalSeparator: '.', groupSeparator: ',', root };
}

/** A 16:9 deck (5.625 in tall): a title, then a table at 1.5 in of 0.4 in rows. */
async function deck(rows: { text: string }[][]): Promise<Buffer> {
  const d = new PptxGenJS();
  const slide = d.addSlide();
  slide.addText('Top customers', { x: 0.5, y: 0.3, w: 9, h: 0.8 });
  slide.addTable(rows, { x: 0.5, y: 1.5, w: 9, rowH: 0.4 });
  return Buffer.from((await d.write({ outputType: 'nodebuffer' })) as ArrayBuffer);
}

/** Each output slide's title and its table's rows, in slide order. */
async function slides(out: Buffer): Promise<{ title: string; rows: string[] }[]> {
  const parts = await partsOf(out);
  const rels = parts.get('ppt/_rels/presentation.xml.rels')!.toString();
  const pres = new DOMParser().parseFromString(parts.get('ppt/presentation.xml')!.toString(), 'text/xml');
  const order = Array.from(pres.getElementsByTagNameNS(P, 'sldId')).map(
    (s) =>
      new RegExp(
        `Id="${s.getAttribute('r:id')}"[^>]*Target="([^"]+)"|Target="([^"]+)"[^>]*Id="${s.getAttribute('r:id')}"`,
      ).exec(rels)!,
  );
  return order.map((m) => {
    const doc = new DOMParser().parseFromString(
      parts.get(`ppt/${m[1] ?? m[2]}`)!.toString(),
      'text/xml',
    ) as unknown as Document;
    const texts = (el: Element | Document) =>
      (Array.from(el.getElementsByTagNameNS(A, 't')) as Element[]).map((t) => t.textContent).join('');
    const rows = (Array.from(doc.getElementsByTagNameNS(A, 'tr')) as Element[]).map((tr) =>
      (Array.from(tr.getElementsByTagNameNS(A, 'tc')) as Element[]).map(texts).join('|'),
    );
    const title = texts(doc.getElementsByTagNameNS(P, 'sp')[0] as Element);
    return { title, rows };
  });
}

describe(covers('template fillers', 'v2.reports.generate'), () => {
  it('continues a table of 50 rows on copies of its slide, the header and title on each, every row once', async () => {
    const bytes = await deck([
      [{ text: 'Customer' }, { text: 'Sales' }],
      [{ text: '{{column:Top:Customer}}' }, { text: '{{column:Top:Sales}}' }],
    ]);
    const out = await fillPptx(await openOfficePackage(bytes, 'pptx'), bytes, data());
    const got = await slides(out);
    // (5.625 in × 95 % − 1.5 in − a 0.4 in header) ÷ 0.4 in = 8 rows a slide: 7 slides.
    expect(got).toHaveLength(7);
    for (const s of got) {
      expect(s.title).toBe('Top customers');
      expect(s.rows[0]).toBe('Customer|Sales');
      expect(s.rows.length - 1).toBeLessThanOrEqual(8);
    }
    expect(got.flatMap((s) => s.rows.slice(1))).toEqual(CUSTOMERS.map((c, i) => `${c}|${i * 10}`));
    // LibreOffice opens it: seven pages, the last customer on the last.
    const pages = pdfPages(await officeConvert(out, 'pptx', 'pdf'));
    expect(pages).toHaveLength(7);
    expect(pages[6]).toContain('Customer 50');
    expect(pages[0]).not.toContain('Customer 09');
  });

  it('paginates a {{table:…}} row too, its header on every copy', async () => {
    const bytes = await deck([[{ text: '{{table:Top}}' }, { text: '' }]]);
    const got = await slides(await fillPptx(await openOfficePackage(bytes, 'pptx'), bytes, data()));
    expect(got).toHaveLength(7);
    for (const s of got) expect(s.rows[0]).toBe('Customer|Sales');
    expect(got.flatMap((s) => s.rows.slice(1))).toEqual(CUSTOMERS.map((c, i) => `${c}|${i * 10}`));
  });

  it('keeps a table that fits on its one slide', async () => {
    const few = data();
    few.root.tables['c:top'].rows.length = 5;
    few.root.tables['c:top'].display.length = 5;
    const bytes = await deck([[{ text: '{{column:Top:Customer}}' }, { text: '{{column:Top:Sales}}' }]]);
    const got = await slides(await fillPptx(await openOfficePackage(bytes, 'pptx'), bytes, few));
    expect(got).toHaveLength(1);
    expect(got[0].rows).toHaveLength(5);
  });
});
