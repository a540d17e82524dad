// The fillers on their own, with data in hand: the cases the demo-app tests do not reach.
import { describe, expect, it } from 'vitest';
import {
  Document,
  EndnoteReferenceRun,
  FootnoteReferenceRun,
  Header,
  Packer,
  Paragraph,
  Table,
  TableCell,
  TableRow,
  TextRun,
} from 'docx';
import PptxGenJS from 'pptxgenjs';
import { DOMParser } from '@xmldom/xmldom';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { findSoffice, officeConvert } from '../../engine/render/templates/office-pdf.js';
import { covers } from '../support/covers.js';
import { ooxmlText, pdfPages } from '../support/read-back.js';
import { openOfficePackage } from '../../engine/render/templates/template-package.js';
import { fillDocx } from '../../engine/render/templates/docx-fill.js';
import { scanTemplate } from '../../engine/render/templates/template-check.js';
import { partsOf, withPart } from '../support/office-templates.js';
import { fillPptx } from '../../engine/render/templates/pptx-fill.js';
import { emptyScope, type TemplateData } from '../../engine/render/templates/template-data.js';

const cell = (text: string) => new TableCell({ children: [new Paragraph(text)] });

function data(): TemplateData {
  const root = emptyScope();
  root.fields['f:region'] = ['North', 'South', 'West'].map((v) => ({ raw: v, text: v }));
  root.scalars['v:vorders'] = { raw: 1234, text: '1,234' };
  root.tables['c:top'] = {
    columns: [
      { label: 'Region', numeric: false },
      { label: 'Sales', numeric: true },
    ],
    rows: [
      ['North', 10],
      ['South', 2.5],
    ],
    display: [
      ['North', '10'],
      ['South', '2.50'],
    ],
  };
  return { title: 'T', decimalSeparator: '.', groupSeparator: ',', root };
}

describe(covers('template fillers', 'v2.reports.generate'), () => {
  it('fills tags in footnotes and endnotes, a tag split over runs included, keeping each run its format', async () => {
    const doc = new Document({
      footnotes: { 1: { children: [new Paragraph('Orders counted: {{vOrders}} in {{field:Region}}')] } },
      sections: [
        {
          children: [
            new Paragraph({
              children: [
                new TextRun('Body'),
                new FootnoteReferenceRun(1),
                new EndnoteReferenceRun({ children: [new Paragraph('Source: {{vOrders}} orders')] }),
              ],
            }),
          ],
        },
      ],
    });
    // The endnote's tag split over two runs, the second bold, as Word saves a tag typed in two goes.
    const template = await withPart(await Packer.toBuffer(doc), 'word/endnotes.xml', (xml) =>
      xml.replace(
        /<w:r>(<w:rPr>(?:(?!<\/w:rPr>).)*<\/w:rPr>)?<w:t xml:space="preserve">Source: \{\{vOrders\}\} orders<\/w:t><\/w:r>/,
        '<w:r><w:t xml:space="preserve">Source: {{vOr</w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">ders}} orders</w:t></w:r>',
      ),
    );
    expect(await ooxmlText(template, /^word\/endnotes\.xml$/)).toContain('{{vOr');
    const out = await fillDocx(await openOfficePackage(template, 'docx'), data());
    expect(await ooxmlText(out, /^word\/footnotes\.xml$/)).toContain('Orders counted: 1,234 in North, South, West');
    const endnotes = await ooxmlText(out, /^word\/endnotes\.xml$/);
    expect(endnotes).toContain('Source: 1,234 orders');
    expect(endnotes).not.toContain('{{');
    // The value stands in the run where the tag began; the bold run keeps the rest of its text.
    const xml = (await partsOf(out)).get('word/endnotes.xml')!.toString();
    expect(xml).toMatch(
      /<w:t xml:space="preserve">Source: 1,234<\/w:t><\/w:r><w:r><w:rPr><w:b\/><\/w:rPr><w:t xml:space="preserve"> orders<\/w:t>/,
    );
  });

  it('refuses a level or a table in a footnote at upload, naming the place', async () => {
    const doc = new Document({
      footnotes: { 1: { children: [new Paragraph('{{#level:Region}}x{{/level:Region}}')] } },
      sections: [{ children: [new Paragraph({ children: [new TextRun('Body'), new FootnoteReferenceRun(1)] })] }],
    });
    const scanned = await scanTemplate(await Packer.toBuffer(doc), 'letter.docx');
    expect(scanned.problems.map((p) => [p.where, p.message])).toContainEqual([
      'footnotes, paragraph 3',
      expect.stringMatching(/only variables, expressions and fields are filled there/),
    ]);
  });

  it('repeats a row and a level that sit inside content controls (before, a 500 at generation)', async () => {
    const cell = (t: string) => new TableCell({ children: [new Paragraph(t)] });
    const doc = new Document({
      sections: [
        {
          children: [
            new Paragraph('{{#level:Region}}'),
            new Paragraph('Region {{field:Region}}'),
            new Paragraph('{{/level:Region}}'),
            new Table({
              rows: [
                new TableRow({ children: [cell('Region'), cell('Note')] }),
                new TableRow({ children: [cell('{{field:Region}}'), cell('fixed')] }),
              ],
            }),
          ],
        },
      ],
    });
    const sdt = (inner: string, tag: string) =>
      `<w:sdt><w:sdtPr><w:alias w:val="${tag}"/><w:tag w:val="${tag}"/></w:sdtPr><w:sdtContent>${inner}</w:sdtContent></w:sdt>`;
    // As Word saves them: a repeating-section control around the row, a rich-text control around the level's paragraphs.
    const template = await withPart(await Packer.toBuffer(doc), 'word/document.xml', (xml) => {
      const rows = [...xml.matchAll(/<w:tr>(?:(?!<\/w:tr>).)*<\/w:tr>/g)].map((m) => m[0]);
      const paragraphs = [...xml.matchAll(/<w:p>(?:(?!<\/w:p>).)*<\/w:p>/g)].map((m) => m[0]).slice(0, 3);
      return xml.replace(rows[1], sdt(rows[1], 'row')).replace(paragraphs.join(''), sdt(paragraphs.join(''), 'level'));
    });
    expect(
      (await partsOf(template))
        .get('word/document.xml')!
        .toString()
        .match(/<w:sdt>/g),
    ).toHaveLength(2);
    const d = data();
    d.root.levels['f:region'] = ['North', 'South', 'West'].map((value) => ({
      value,
      scope: { ...emptyScope(), fields: { 'f:region': [{ raw: value, text: value }] } },
    }));
    const out = await fillDocx(await openOfficePackage(template, 'docx'), d);
    const text = (await ooxmlText(out, /^word\/document\.xml$/)).replace(/\s+/g, ' ').trim();
    expect(text).toBe(
      'Region North Region South Region West Region Note North fixed South fixed West fixed'.replace(/\s+/g, ' '),
    );
  });

  it('repeats a Word table row per value of the field it names, keeping the other cells', async () => {
    const cell = (t: string) => new TableCell({ children: [new Paragraph(t)] });
    const doc = new Document({
      sections: [
        {
          children: [
            new Table({
              rows: [
                new TableRow({ children: [cell('Region'), cell('Note')] }),
                new TableRow({ children: [cell('{{field:Region}}'), cell('fixed')] }),
              ],
            }),
          ],
        },
      ],
    });
    const out = await fillDocx(await openOfficePackage(await Packer.toBuffer(doc), 'docx'), data());
    const text = await ooxmlText(out, /^word\/document\.xml$/);
    expect(text.replace(/\s+/g, ' ').trim()).toBe('Region Note North fixed South fixed West fixed');
  });

  it('repeats rows whose values are not ASCII, and a table inside a repeated row with it, the text around them kept', async () => {
    const d = data();
    d.root.fields['f:region'] = ['Zürich', '東京', 'Saint-Étienne 🚲'].map((v) => ({ raw: v, text: v }));
    const inner = new Table({ rows: [new TableRow({ children: [cell('in {{column:Top:Sales}}')] })] });
    const template = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: [
              new Paragraph('Før {{vOrders}}'),
              new Table({ rows: [new TableRow({ children: [cell('{{field:Region}}'), cell('→')] })] }),
              new Paragraph('Mellem'),
              new Table({
                rows: [
                  new TableRow({
                    children: [cell('{{column:Top:Region}}'), new TableCell({ children: [inner, new Paragraph('')] })],
                  }),
                ],
              }),
              new Paragraph('Efter ✓'),
            ],
          },
        ],
      }),
    );
    const out = await fillDocx(await openOfficePackage(template, 'docx'), d);
    const xml = (await partsOf(out)).get('word/document.xml')!.toString('utf8');
    const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
    const doc = new DOMParser().parseFromString(xml, 'text/xml');
    type XmlNode = ReturnType<typeof doc.createElement>;
    const children = (el: XmlNode, name: string) =>
      Array.from(el.childNodes).filter((n): n is XmlNode => (n as XmlNode).localName === name);
    const texts = (el: XmlNode) =>
      Array.from(el.getElementsByTagNameNS(W, 't'))
        .map((t) => t.textContent)
        .filter(Boolean);
    const body = doc.getElementsByTagNameNS(W, 'body')[0];
    expect(children(body, 'p').map((p) => texts(p).join(''))).toEqual(['Før 1,234', 'Mellem', 'Efter ✓']);
    const tables = children(body, 'tbl');
    const rowsOf = (tbl: XmlNode) => children(tbl, 'tr').map((tr) => texts(tr).join('|'));
    expect(rowsOf(tables[0])).toEqual(['Zürich|→', '東京|→', 'Saint-Étienne 🚲|→']);
    // The table in the repeated row's cell is copied with its row, filled with that row's values.
    expect(rowsOf(tables[1])).toEqual(['North|in 10', 'South|in 2.50']);
    expect(xml).not.toContain('bs-row');
  });

  it("fills a PowerPoint table from {{table:…}}: a header row and a row per data row, in the row's format", async () => {
    const deck = new PptxGenJS();
    deck
      .addSlide()
      .addTable([[{ text: '{{table:Top}}', options: { bold: true } }, { text: '' }]], { x: 1, y: 1, w: 6 });
    const bytes = Buffer.from((await deck.write({ outputType: 'nodebuffer' })) as ArrayBuffer);
    const out = await fillPptx(await openOfficePackage(bytes, 'pptx'), bytes, data());
    const text = await ooxmlText(out, /^ppt\/slides\/slide\d+\.xml$/);
    expect(text.replace(/\s+/g, ' ').trim()).toBe('Region Sales North 10 South 2.50');
    expect(text).not.toContain('{{');
  });
  it('places chart pictures in the body and a header: one picture per distinct chart, alt text as titled, opened by LibreOffice', async () => {
    const title = 'Sales "East" & <West>';
    const chart = (values: number[]) => ({
      type: 'chart' as const,
      title,
      chartType: 'bar' as const,
      categories: ['Bikes', 'Helmets'],
      series: [{ name: 'Sales', values }],
    });
    const d = data();
    d.root.charts['c:sales by region'] = chart([1, 2]);
    // Three regions, the first and last with the same figures: two pictures for them, one for the header.
    d.root.levels['f:region'] = [
      [5, 6],
      [7, 8],
      [5, 6],
    ].map((values, i) => {
      const scope = emptyScope();
      scope.charts['c:sales by region'] = chart(values);
      const name = ['North', 'South', 'West'][i];
      scope.fields['f:region'] = [{ raw: name, text: name }];
      return { value: name, scope };
    });
    const template = await Packer.toBuffer(
      new Document({
        sections: [
          {
            headers: { default: new Header({ children: [new Paragraph('{{image:Sales by region}}')] }) },
            children: [
              '{{#level:Region}}',
              'Region {{field:Region}}',
              '{{image:Sales by region}}',
              '{{/level:Region}}',
            ].map((t) => new Paragraph(t)),
          },
        ],
      }),
    );
    const out = await fillDocx(await openOfficePackage(template, 'docx'), d);
    const parts = await partsOf(out);
    const media = [...parts.keys()].filter((n) => n.startsWith('word/media/'));
    expect(media).toHaveLength(3);
    const shown: string[] = [];
    for (const part of [...parts.keys()].filter((n) => /^word\/(document|header\d*)\.xml$/.test(n))) {
      const doc = new DOMParser().parseFromString(parts.get(part)!.toString('utf8'), 'text/xml');
      const rels = new DOMParser().parseFromString(
        parts.get(`word/_rels/${posix.basename(part)}.rels`)!.toString('utf8'),
        'text/xml',
      );
      const target = (id: string) =>
        [...Array.from(rels.getElementsByTagName('Relationship'))]
          .find((r) => r.getAttribute('Id') === id)
          ?.getAttribute('Target');
      const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
      const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
      const WP = 'http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing';
      for (const blip of Array.from(doc.getElementsByTagNameNS(A, 'blip'))) {
        const path = posix.join('word', target(blip.getAttributeNS(R, 'embed')!)!);
        expect(parts.get(path)!.subarray(1, 4).toString()).toBe('PNG');
        shown.push(`${part.includes('header') ? 'header' : 'body'}:${path}`);
      }
      for (const props of Array.from(doc.getElementsByTagNameNS(WP, 'docPr')))
        expect(props.getAttribute('descr')).toBe(title);
    }
    // The body's first and third pictures are the same part; the header's is its own.
    const body = shown.filter((s) => s.startsWith('body:'));
    expect(body).toHaveLength(3);
    expect(body[0]).toBe(body[2]);
    expect(new Set(shown.map((s) => s.split(':')[1])).size).toBe(3);
    if (!findSoffice()) return;
    const dir = mkdtempSync(join(tmpdir(), 'bs-pictures-'));
    try {
      writeFileSync(join(dir, 'out.pdf'), await officeConvert(out, 'docx', 'pdf'));
      const images = execFileSync('pdfimages', ['-list', join(dir, 'out.pdf')], { encoding: 'utf8' })
        .split('\n')
        .slice(2)
        .filter((l) => /\bimage\b/.test(l));
      expect(images.length).toBeGreaterThanOrEqual(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
  it('fills a letter of values and repeated rows in one pass: runs keep their format, line breaks and spaces kept, LibreOffice opens it', async () => {
    const d = data();
    d.root.scalars['v:vnote'] = { raw: 'x', text: '  Tom & Jerry <co>\nsecond line ' };
    d.root.tables['c:empty'] = { columns: [{ label: 'Region', numeric: false }], rows: [], display: [] };
    const bold = new TextRun({ text: 'Orders ', bold: true });
    const template = await Packer.toBuffer(
      new Document({
        sections: [
          {
            headers: { default: new Header({ children: [new Paragraph('Header {{vOrders}}')] }) },
            children: [
              // A tag split over runs beside a bold run.
              new Paragraph({ children: [bold, new TextRun('{{vOr'), new TextRun('ders}} in total')] }),
              new Paragraph('Note:{{vNote}}.'),
              new Table({
                rows: [
                  new TableRow({ children: [cell('Region'), cell('Sales')] }),
                  new TableRow({ children: [cell('{{column:Top:Region}}'), cell('{{column:Top:Sales}}')] }),
                  new TableRow({ children: [cell('{{deleterow}}helper'), cell('gone')] }),
                ],
              }),
              new Table({ rows: [new TableRow({ children: [cell('{{field:Region}}'), cell('each')] })] }),
              new Table({ rows: [new TableRow({ children: [cell('{{column:Empty:Region}}'), cell('kept')] })] }),
              new Paragraph('All regions: {{field:Region}}'),
            ],
          },
        ],
      }),
    );
    const out = await fillDocx(await openOfficePackage(template, 'docx'), d);
    const parts = await partsOf(out);
    const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
    const doc = new DOMParser().parseFromString(parts.get('word/document.xml')!.toString('utf8'), 'text/xml');
    const paragraphs = Array.from(doc.getElementsByTagNameNS(W, 'p'));
    const text = (el: Element) =>
      Array.from(el.getElementsByTagNameNS(W, '*'))
        .map((n) => (n.localName === 't' ? n.textContent : n.localName === 'br' ? '\n' : ''))
        .join('');
    expect(text(paragraphs[0] as unknown as Element)).toBe('Orders 1,234 in total');
    const firstRun = paragraphs[0].getElementsByTagNameNS(W, 'r')[0];
    expect(firstRun.getElementsByTagNameNS(W, 'b').length).toBe(1);
    expect(text(paragraphs[1] as unknown as Element)).toBe('Note:  Tom & Jerry <co>\nsecond line .');
    const rows = Array.from(doc.getElementsByTagNameNS(W, 'tr')).map((tr) =>
      Array.from(tr.getElementsByTagNameNS(W, 'tc')).map((tc) => text(tc as unknown as Element)),
    );
    expect(rows).toEqual([
      ['Region', 'Sales'],
      ['North', '10'],
      ['South', '2.50'],
      ['North', 'each'],
      ['South', 'each'],
      ['West', 'each'],
      ['', 'kept'],
    ]);
    expect(text(paragraphs.at(-1) as unknown as Element)).toBe('All regions: North, South, West');
    expect(parts.get('word/header1.xml')!.toString()).toContain('Header 1,234');
    if (!findSoffice()) return;
    const pdf = pdfPages(await officeConvert(out, 'docx', 'pdf')).join(' ');
    for (const want of ['Orders 1,234 in total', 'Tom & Jerry <co>', 'second line', 'South', '2.50', 'Header 1,234'])
      expect(pdf).toContain(want);
    expect(pdf).not.toContain('gone');
  }, 120_000);
});
