import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { findBundledWorker } from '../core/bundled-worker.js';
import { chartSvg } from './chart-svg.js';
import { svgToPngAsync } from './chart-png.js';
import type { ChartValue } from './templates/template-data.js';

/**
 * Chart pictures of one document. ECharts lays a chart out in about 12 ms of synchronous work; a
 * book with a chart per level spent most of its fill there, one chart after another on the thread
 * filling it. The first few are drawn here as before (a report of a few charts never waits for a
 * thread to start); past them, each goes to the chart threads, one per core, and the fill goes on.
 * The pictures are the same bytes either way: the same code draws them.
 */
export const DRAWN_HERE = 8;

let pool: Promise<Piscina> | null = null;
/** How many pictures this thread's chart threads have drawn (for the tests and the bench to see). */
export const drawnAway = { count: 0 };

/** The chart threads, started with the first picture a document sends them; they leave when idle. */
function chartThreads(): Promise<Piscina> {
  const made = (pool ??= import('piscina').then(
    ({ Piscina }) =>
      new Piscina({
        filename: findBundledWorker('chart-worker.cjs'),
        name: 'picture',
        minThreads: 0,
        maxThreads: Math.max(1, availableParallelism()),
        idleTimeout: 10_000,
      }),
  ));
  // A thread that cannot start (a module missing) fails its picture; the next document tries afresh.
  made.catch(() => (pool === made ? (pool = null) : undefined));
  return made;
}

export class ChartPictures {
  private drawn = 0;

  constructor(private readonly width: number) {}

  /** A chart's PNG: drawn here for the document's first few, on the chart threads past them. */
  draw(chart: ChartValue): Promise<Buffer> {
    if (this.drawn++ < DRAWN_HERE) return svgToPngAsync(chartSvg(chart), this.width);
    return chartThreads()
      .then((threads) => threads.run({ chart, width: this.width }) as Promise<Uint8Array>)
      .then((bytes) => {
        drawnAway.count += 1;
        return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      });
  }
}
