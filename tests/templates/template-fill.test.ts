// The fillers on their own, with data in hand: the cases the demo-app tests do not reach.
import { describe, expect, it } from 'vitest';
import { Document, Packer, Paragraph, Table, TableCell, TableRow } from 'docx';
import PptxGenJS from 'pptxgenjs';
import { covers } from '../support/covers.js';
import { ooxmlText } from '../support/read-back.js';
import { openOfficePackage } from '../../engine/render/templates/template-package.js';
import { fillDocx } from '../../engine/render/templates/docx-fill.js';
import { fillPptx } from '../../engine/render/templates/pptx-fill.js';
import { emptyScope, type TemplateData } from '../../engine/render/templates/template-data.js';

function data(): TemplateData {
  const root = emptyScope();
  root.fields['f:region'] = ['North', 'South', 'West'].map((v) => ({ raw: v, text: v }));
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
});
