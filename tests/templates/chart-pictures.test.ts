import { describe, expect, it } from 'vitest';
import { Document, Packer, Paragraph } from 'docx';
import JSZip from 'jszip';
import { chartSvg, CHART_WIDTH } from '../../engine/render/chart-svg.js';
import { svgToPngAsync } from '../../engine/render/chart-png.js';
import { DRAWN_HERE, drawnAway } from '../../engine/render/chart-pictures.js';
import { fillDocx } from '../../engine/render/templates/docx-fill.js';
import { openOfficePackage } from '../../engine/render/templates/template-package.js';
import { emptyScope, type ChartValue, type TemplateData } from '../../engine/render/templates/template-data.js';

/** Region N's chart: its own figures, so every level's picture differs. */
const chartOf = (n: number): ChartValue => ({
  type: 'chart',
  title: `Sales in region ${n}`,
  chartType: 'bar',
  categories: ['North', 'South', 'East', 'West'],
  series: [{ name: 'Sales', values: [n * 10, n * 20 + 5, n * 3, 400 - n] }],
});

/** A book of `levels` letters, a chart picture in each. */
function book(levels: number): TemplateData {
  const root = emptyScope();
  root.levels['f:region'] = Array.from({ length: levels }, (_, i) => {
    const scope = emptyScope();
    scope.fields['f:region'] = [{ raw: `Region ${i + 1}`, text: `Region ${i + 1}` }];
    scope.charts['c:sales'] = chartOf(i + 1);
    return { value: `Region ${i + 1}`, scope };
  });
  return { title: 'Book', decimalSeparator: '.', groupSeparator: ',', root };
}

describe('a book with a chart picture in every level', () => {
  it('draws past its first pictures on the chart threads, each picture the bytes the fill would draw itself', async () => {
    const levels = DRAWN_HERE + 6;
    const template = await Packer.toBuffer(
      new Document({
        sections: [
          {
            children: ['{{#level:Region}}', 'Dear {{field:Region}},', '{{image:Sales}}', '{{/level:Region}}'].map(
              (t) => new Paragraph(t),
            ),
          },
        ],
      }),
    );
    const before = drawnAway.count;
    const out = await JSZip.loadAsync(await fillDocx(await openOfficePackage(template, 'docx'), book(levels)));
    const media = Object.keys(out.files)
      .filter((n) => /^word\/media\/.+\.png$/.test(n))
      .sort((a, b) => Number(/(\d+)\.png$/.exec(a)![1]) - Number(/(\d+)\.png$/.exec(b)![1]));
    expect(media).toHaveLength(levels);
    expect(drawnAway.count - before).toBe(levels - DRAWN_HERE);
    const text = (await out.file('word/document.xml')!.async('string')).replace(/<[^>]+>/g, '');
    for (let n = 1; n <= levels; n++) expect(text).toContain(`Dear Region ${n},`);
    // The first drawn here, the last on a chart thread: both the very PNG of their own region's chart.
    for (const n of [1, levels - 1, levels]) {
      const placed = await out.file(media[n - 1])!.async('nodebuffer');
      expect(placed.equals(await svgToPngAsync(chartSvg(chartOf(n)), CHART_WIDTH * 2)), `picture ${n}`).toBe(true);
    }
  });
});
