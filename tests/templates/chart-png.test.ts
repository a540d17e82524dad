// Chart pictures drawn on the thread pool are PNGs any reader takes: the chunks' CRCs hold, the
// pixels inflate to the picture's size, and they are the pixels the one-thread drawing makes.
import { describe, expect, it } from 'vitest';
import { crc32, inflateSync } from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';
import { chartSvg, CHART_WIDTH } from '../../engine/render/chart-svg.js';
import { svgToPngAsync } from '../../engine/render/chart-png.js';
import { textAsOutlines } from '../../engine/render/chart-text-paths.js';
import { covers } from '../support/covers.js';

/** A PNG's chunks, each checked against its CRC. */
function chunks(png: Buffer): { type: string; data: Buffer }[] {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const out: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const typeAndData = png.subarray(at + 4, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length)).toBe(crc32(typeAndData) >>> 0);
    out.push({ type: typeAndData.subarray(0, 4).toString('latin1'), data: typeAndData.subarray(4) });
    at += 12 + length;
  }
  return out;
}

describe(covers('chart pictures', 'v2.reports.generate'), () => {
  it('draws on the pool a PNG whose pixels are the ones drawn on this thread', async () => {
    const svg = chartSvg({
      type: 'chart',
      title: 'Sales by category',
      chartType: 'bar',
      categories: ['Bikes', 'Parts', 'Clothing'],
      series: [{ name: 'Sales', values: [120, 45.5, 80] }],
    });
    const parts = chunks(await svgToPngAsync(svg, CHART_WIDTH * 2));
    expect(parts.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    const [width, height] = [parts[0].data.readUInt32BE(0), parts[0].data.readUInt32BE(4)];
    expect(width).toBe(CHART_WIDTH * 2);
    // 8-bit RGBA, each row after its filter byte (none).
    expect([...parts[0].data.subarray(8)]).toEqual([8, 6, 0, 0, 0]);
    const raw = inflateSync(parts[1].data);
    expect(raw.length).toBe((width * 4 + 1) * height);
    const stride = width * 4 + 1;
    const pixels = Buffer.concat(
      Array.from({ length: height }, (_, y) => raw.subarray(y * stride + 1, (y + 1) * stride)),
    );
    // Drawn on this thread the way the pool draws it: the chart's words as outlines (see
    // chart-text-paths.test.ts for those against resvg's own text).
    const outlined = textAsOutlines(svg);
    expect(outlined.textLeft).toBe(false);
    const same = new Resvg(outlined.svg, {
      fitTo: { mode: 'width', value: CHART_WIDTH * 2 },
      background: '#ffffff',
      font: { loadSystemFonts: false },
    }).render();
    expect([same.width, same.height]).toEqual([width, height]);
    expect(pixels.equals(same.pixels)).toBe(true);
  });
});
