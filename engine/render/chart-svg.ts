import * as echarts from 'echarts';
import type { ResolvedBlock } from './document.js';
import { formatNumber } from './number-format.js';

type ChartBlock = Extract<ResolvedBlock, { type: 'chart' }>;

export const CHART_WIDTH = 640;
export const CHART_HEIGHT = 340;
const PALETTE = [
  '#1f6feb',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#ff9da7',
  '#9c755f',
  '#bab0ac',
];

/** Draws a chart as SVG with ECharts' server-side renderer (no DOM, no canvas). */
export function chartSvg(
  block: ChartBlock,
  separators: { decimal: string; group: string } = { decimal: '.', group: ',' },
  width = CHART_WIDTH,
  height = CHART_HEIGHT,
): string {
  const axisNumber = (v: number) =>
    formatNumber(v, separators.decimal, separators.group, Math.abs(v) < 10 && !Number.isInteger(v) ? 1 : 0);
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width, height });
  const axis = block.chartType !== 'pie';
  const series =
    block.chartType === 'pie'
      ? [
          {
            type: 'pie' as const,
            radius: ['35%', '68%'],
            center: ['40%', '55%'],
            data: block.categories.map((name, i) => ({ name, value: block.series[0]?.values[i] ?? 0 })),
            label: { formatter: '{b}: {d}%', color: '#1d2733', textBorderWidth: 0 },
          },
        ]
      : block.series.map((s, k) => ({
          name: s.name,
          type: (block.chartType === 'line' || (block.chartType === 'combo' && k > 0) ? 'line' : 'bar') as
            | 'bar'
            | 'line',
          data: s.values,
          yAxisIndex: block.chartType === 'combo' && k > 0 ? 1 : 0,
          smooth: false,
        }));
  chart.setOption({
    animation: false,
    color: PALETTE,
    backgroundColor: '#ffffff',
    textStyle: { fontFamily: 'Helvetica, Arial, sans-serif' },
    title: { text: block.title, left: 8, top: 4, textStyle: { fontSize: 14, fontWeight: 'bold' } },
    legend: {
      show: block.series.length > 1 || block.chartType === 'pie',
      top: 6,
      right: 8,
      type: 'plain',
      orient: block.chartType === 'pie' ? 'vertical' : 'horizontal',
    },
    grid: { left: 96, right: block.chartType === 'combo' ? 90 : 24, top: 44, bottom: 56 },
    tooltip: { show: false },
    xAxis: axis
      ? {
          type: 'category',
          data: block.categories,
          axisLabel: { interval: 0, rotate: block.categories.length > 6 ? 30 : 0, fontSize: 10 },
        }
      : undefined,
    yAxis: axis
      ? block.chartType === 'combo'
        ? [
            { type: 'value', axisLabel: { formatter: axisNumber } },
            { type: 'value', splitLine: { show: false }, axisLabel: { formatter: axisNumber } },
          ]
        : { type: 'value', axisLabel: { formatter: axisNumber } }
      : undefined,
    series,
  });
  // Without fixed width and height the drawing scales to the room each format gives it (its viewBox stays).
  const svg = chart.renderToSVGString().replace(/^<svg width="\d+" height="\d+"/, '<svg');
  chart.dispose();
  return withoutInlineStyles(svg);
}

/**
 * ECharts writes fonts as style attributes and hover rules in a <style> element. A page with a strict
 * Content-Security-Policy refuses both (the preview lost its fonts and clipped labels), so the fonts
 * become SVG presentation attributes, which every consumer honours, and the hover rules, which a
 * static report never uses, are dropped.
 */
export function withoutInlineStyles(svg: string): string {
  return svg.replace(/<style[\s\S]*?<\/style>/g, '').replace(/ style="([^"]*)"/g, (_, css: string) =>
    css
      .split(';')
      .map((decl) => decl.split(':').map((x) => x.trim()))
      .filter(([prop, value]) => value && PRESENTATION.has(prop))
      .map(([prop, ...rest]) => ` ${prop}="${rest.join(':')}"`)
      .join(''),
  );
}

const PRESENTATION = new Set([
  'font-size',
  'font-family',
  'font-weight',
  'font-style',
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'opacity',
  'text-anchor',
  'dominant-baseline',
]);

/** The report's separators, as chartSvg takes them. */
export const seps = (r: { decimalSeparator: string; groupSeparator: string }) => ({
  decimal: r.decimalSeparator,
  group: r.groupSeparator,
});
