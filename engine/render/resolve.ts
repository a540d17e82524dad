import { badInput } from '../core/errors.js';
import type { AnalyticsPort } from '../analytics/port.js';
import type { AppMeta, ChartDef, Selections } from '../analytics/model.js';
import { formatCell } from './number-format.js';
import { chartBlock, drawnKind } from './chart-block.js';
import type { DocBlock, ReportDocument, ResolvedBlock, ResolvedReport } from './document.js';

export interface ResolveInput {
  provider: AnalyticsPort;
  appId: string;
  title: string;
  document: ReportDocument;
  selections: Selections;
  /** Variable values set by filters, replacing the app's definitions. */
  variables?: Record<string, string>;
  now?: Date;
}

const TOKEN = /\{\{\s*(=)?([^}]+?)\s*\}\}/g;

function chartOf(
  meta: AppMeta,
  block: Extract<DocBlock, { type: 'table' | 'chart' }>,
  where: string,
): Pick<ChartDef, 'dimensions' | 'measures' | 'sort' | 'limit'> & { name: string; type?: string } {
  if (block.chartId) {
    const chart = meta.charts.find((c) => c.id === block.chartId || c.name === block.chartId);
    if (!chart)
      throw badInput(`${where}: the chart "${block.chartId}" is not in the app`, [
        { field: `${where}.chartId`, message: 'unknown chart' },
      ]);
    return { ...chart, sort: block.sort ?? chart.sort, limit: block.limit ?? chart.limit };
  }
  if (!block.measures?.length && !block.dimensions?.length)
    throw badInput(`${where}: choose a chart or give dimensions and measures`, [
      { field: where, message: 'has no data' },
    ]);
  return {
    name: block.title ?? '',
    dimensions: block.dimensions ?? [],
    measures: block.measures ?? [],
    sort: block.sort,
    limit: block.limit,
  };
}

/** Fills every block of the document with data from the app under the selections. */
export async function resolveReport(input: ResolveInput): Promise<ResolvedReport> {
  const { provider, appId, selections, variables } = input;
  const meta = await provider.meta(appId);
  const dec = input.document.settings?.decimalSeparator ?? '.';
  const grp = input.document.settings?.groupSeparator ?? (dec === ',' ? '.' : ',');
  const fmt = (v: string | number | null, f?: { decimals?: number; prefix?: string; suffix?: string }) =>
    formatCell(v, dec, grp, f);

  const fillText = async (text: string, where: string) => {
    const parts: Promise<string>[] = [];
    const pieces: string[] = [];
    let last = 0;
    for (const m of text.matchAll(TOKEN)) {
      pieces.push(text.slice(last, m.index));
      const isExpr = m[1] === '=';
      const body = m[2].trim();
      parts.push(
        (async () => {
          if (
            !isExpr &&
            !meta.variables.some((v) => v.name.toLowerCase() === body.toLowerCase()) &&
            !(variables && body in variables)
          )
            throw badInput(`${where}: unknown variable "${body}"`, [
              { field: where, message: `unknown variable "${body}"` },
            ]);
          const value = await provider
            .evaluate(appId, isExpr ? body : `$(${body})`, selections, variables)
            .catch((e) => {
              throw badInput(`${where}: ${(e as Error).message}`, [{ field: where, message: (e as Error).message }]);
            });
          return fmt(value);
        })(),
      );
      last = (m.index ?? 0) + m[0].length;
    }
    const values = await Promise.all(parts);
    let out = '';
    pieces.forEach((p, i) => (out += p + values[i]));
    return out + text.slice(last);
  };

  const blocks: ResolvedBlock[] = [];
  for (const [i, block] of input.document.blocks.entries()) {
    const where = `document.blocks.${i}`;
    switch (block.type) {
      case 'heading':
        blocks.push({ type: 'heading', text: await fillText(block.text, `${where}.text`), level: block.level ?? 1 });
        break;
      case 'text':
        blocks.push({ type: 'text', text: await fillText(block.text, `${where}.text`) });
        break;
      case 'kpi': {
        const value = await provider.evaluate(appId, block.expression, selections, variables);
        blocks.push({ type: 'kpi', label: block.label, value, display: fmt(value, block.format) });
        break;
      }
      case 'table': {
        const chart = chartOf(meta, block, where);
        const data = await provider.chartData(appId, chart, selections, variables);
        const nd = data.dimensions.length;
        blocks.push({
          type: 'table',
          title: block.title ?? chart.name,
          columns: [
            ...data.dimensions.map((label) => ({ label, numeric: false })),
            ...data.measures.map((label) => ({ label, numeric: true })),
          ],
          rows: data.rows,
          display: data.rows.map((r) => r.map((v, k) => (k < nd ? fmt(v) : fmt(v, block.format)))),
        });
        break;
      }
      case 'chart': {
        const chart = chartOf(meta, block, where);
        const data = await provider.chartData(appId, chart, selections, variables);
        blocks.push(chartBlock(block.title ?? chart.name, block.chartType ?? drawnKind(String(chart.type)), data));
        break;
      }
      case 'image': {
        const m = /^data:(image\/(?:png|jpeg));base64,(.*)$/.exec(block.dataUrl)!;
        blocks.push({ type: 'image', mime: m[1], data: m[2], width: block.width ?? 300, alt: block.alt ?? '' });
        break;
      }
      case 'break':
        blocks.push({ type: 'break' });
        break;
    }
  }
  return {
    title: input.title,
    generatedAt: (input.now ?? new Date()).toISOString(),
    decimalSeparator: dec,
    groupSeparator: grp,
    orientation: input.document.settings?.orientation ?? 'portrait',
    blocks,
  };
}
