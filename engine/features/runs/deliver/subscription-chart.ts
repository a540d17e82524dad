import type { OpContext } from '../../../ops/context.js';
import { resolveReport } from '../../../render/resolve.js';
import { safeFileName } from '../../../core/file-result.js';
import type { KeptFile } from '../../requests/request-output.js';
import { Subscription, type SubscribedChart } from '../../../model/subscriptions.entity.js';
import { selectionsOf } from '../../subscriptions/subscription-selections.js';
import { resolveFilters } from '../../filters/filters.rules.js';
import { narrowed } from '../../reports/generate.js';

/** The chart a subscription's task makes, when it subscribes to one (an analytics entity). */
export async function subscribedChart(
  ctx: Pick<OpContext, 'db'>,
  subscriptionId: string,
): Promise<SubscribedChart | null> {
  return (await ctx.db.getRepository(Subscription).findOneBy({ id: subscriptionId }))?.chart ?? null;
}

/**
 * The chart drawn as the app defines it, under the subscriber's selections, at the size they asked:
 * the same resolution and drawing as a report's chart block, rasterized to PNG.
 */
export async function chartFile(ctx: OpContext, chart: SubscribedChart): Promise<KeptFile> {
  const filtered = await resolveFilters(ctx, chart.filterIds, await ctx.analytics.meta(chart.appId));
  const resolved = await resolveReport({
    provider: ctx.analytics,
    appId: chart.appId,
    title: chart.id,
    document: { blocks: [{ id: 'chart', type: 'chart', chartId: chart.id }] },
    selections: narrowed(filtered.selections, selectionsOf(chart.selections)),
    variables: filtered.variables,
    now: ctx.now(),
  });
  const block = resolved.blocks[0];
  if (block?.type !== 'chart') throw new Error(`The chart ${chart.id} could not be drawn`);
  // The chart libraries load with the first chart drawn, not at start.
  const [{ chartSvg }, { svgToPng }] = await Promise.all([
    import('../../../render/chart-svg.js'),
    import('../../../render/chart-png.js'),
  ]);
  const svg = chartSvg(
    block,
    { decimal: resolved.decimalSeparator, group: resolved.groupSeparator },
    chart.width,
    chart.height,
  );
  return {
    name: `${safeFileName(block.title, 'Chart')}.png`,
    format: 'Png',
    data: svgToPng(svg, chart.width),
    iteration: [],
  };
}
