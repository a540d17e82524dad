// A chart picture's words drawn as outlines look as resvg's own text would: every form ECharts
// writes (axis numbers, rotated category names, a bold title, a legend, a pie's labels, escaped
// characters) within anti-aliasing of resvg laying the same text out, while a word the font cannot
// draw, or a form the outlines do not know, is left as text for resvg.
import { describe, expect, it } from 'vitest';
import { Resvg } from '@resvg/resvg-js';
import { chartSvg, CHART_WIDTH } from '../../engine/render/chart-svg.js';
import { DEJAVU, textAsOutlines } from '../../engine/render/chart-text-paths.js';
import { covers } from '../support/covers.js';

const WIDTH = CHART_WIDTH * 2;

/** resvg's pixels: with DejaVu to lay text out, or with no font at all (outlines need none). */
function pixels(svg: string, fonts: boolean): Buffer {
  const font = fonts
    ? { loadSystemFonts: false, fontFiles: DEJAVU, defaultFontFamily: 'DejaVu Sans' }
    : { loadSystemFonts: false };
  return Buffer.from(
    new Resvg(svg, { fitTo: { mode: 'width', value: WIDTH }, background: '#ffffff', font }).render().pixels,
  );
}

/** How two drawings differ: the share of channels off by more than a shade, and the mean difference. */
function difference(a: Buffer, b: Buffer) {
  expect(a.length).toBe(b.length);
  let off = 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    if (d > 8) off++;
    sum += d;
  }
  return { off: off / a.length, mean: sum / a.length };
}

const many = (k: number) => Array.from({ length: k }, (_, i) => `Category ${i + 1}`);

describe(covers('chart pictures', 'v2.reports.generate'), () => {
  it.each([
    [
      'bars with axis numbers and a bold title',
      { chartType: 'bar', categories: many(6), series: [{ name: 'Sales', values: [1, 20, 300, 4000, 50000, 7.5] }] },
    ],
    [
      '30 rotated category names, two axes and a legend',
      {
        chartType: 'combo',
        categories: many(30),
        series: [
          { name: 'Sales', values: many(30).map((_, i) => i * 40.5) },
          { name: 'Margin %', values: many(30).map((_, i) => i / 3) },
        ],
      },
    ],
    [
      'a pie with its labels',
      {
        chartType: 'pie',
        categories: ['North', 'South', 'East & West'],
        series: [{ name: 'Share', values: [5, 3, 2] }],
      },
    ],
    [
      'escaped characters in the title',
      { chartType: 'line', categories: ['Q1', 'Q2'], series: [{ name: '"R&D" <costs>', values: [3, 4] }] },
    ],
  ])('draws %s as resvg would', (_, chart) => {
    const svg = chartSvg({ type: 'chart', title: `Sales & "returns" <2026>`, ...chart } as never);
    const outlined = textAsOutlines(svg);
    expect(outlined.textLeft).toBe(false);
    expect(outlined.svg).not.toContain('<text');
    const { off, mean } = difference(pixels(outlined.svg, false), pixels(svg, true));
    // Rounding at a glyph's edge moves a few anti-aliased pixels by a shade; a misplaced word, a
    // wrong baseline or a missing glyph moves thousands (a baseline off by a tenth of the size
    // gave 3% of channels off and a mean of 2.5).
    expect(off).toBeLessThan(0.001);
    expect(mean).toBeLessThan(0.05);
  });

  it('leaves to resvg a word the font cannot draw, and a form it does not know, and draws the rest', () => {
    const svg = chartSvg({
      type: 'chart',
      title: '売上 by region',
      chartType: 'bar',
      categories: ['A', 'B'],
      series: [{ name: 'S', values: [1, 2] }],
    });
    const outlined = textAsOutlines(svg);
    expect(outlined.textLeft).toBe(true);
    expect(outlined.svg.match(/<text/g)).toHaveLength(1);
    expect(outlined.svg).toContain('売上 by region</text>');
    const italic = textAsOutlines(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text font-style="italic" x="1">A</text><text x="1">B</text></svg>',
    );
    expect(italic.textLeft).toBe(true);
    expect(italic.svg).toContain('<text font-style="italic" x="1">A</text>');
    expect(italic.svg).not.toContain('>B</text>');
  });
});
