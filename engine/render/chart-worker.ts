// Worker-thread entry: one chart picture (ECharts' SVG, then resvg's PNG) drawn away from the thread
// that fills the document, so a book of many charts draws them side by side (chart-pictures.ts).
import { chartSvg } from './chart-svg.js';
import { svgToPngAsync } from './chart-png.js';
import type { ChartValue } from './templates/template-data.js';

export async function picture(task: { chart: ChartValue; width: number }): Promise<Uint8Array> {
  const png = await svgToPngAsync(chartSvg(task.chart), task.width);
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}
