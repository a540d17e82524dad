import type { ChartData } from '../analytics/model.js';
import type { ResolvedBlock } from './document.js';

// A chart's data as the block every format draws (a report's chart, a template's picture or native
// chart, the designer's preview picture): one builder, so the three cannot drift apart.

export type ChartBlock = Extract<ResolvedBlock, { type: 'chart' }>;

const DRAWN = ['bar', 'line', 'pie', 'combo'] as const;

/** A chart's kind as it is drawn: bar, line, pie or combo; any other (a table, a KPI) as bars. */
export const drawnKind = (type: string): ChartBlock['chartType'] =>
  (DRAWN as readonly string[]).includes(type) ? (type as ChartBlock['chartType']) : 'bar';

/**
 * The block of a chart's data: a category per row (its dimensions' values joined by " · "), a
 * series per measure (a value that is not a number is a gap).
 */
export function chartBlock(title: string, chartType: ChartBlock['chartType'], data: ChartData): ChartBlock {
  const nd = data.dimensions.length;
  return {
    type: 'chart',
    title,
    chartType,
    categories: data.rows.map((r) =>
      r
        .slice(0, nd)
        .map((v) => String(v ?? ''))
        .join(' · '),
    ),
    series: data.measures.map((name, k) => ({
      name,
      values: data.rows.map((r) => (typeof r[nd + k] === 'number' ? (r[nd + k] as number) : null)),
    })),
  };
}
