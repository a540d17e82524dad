import { badInput } from '../core/errors.js';
import type { AnalyticsPort } from '../analytics/port.js';
import type { AppMeta } from '../analytics/model.js';
import type { ReportDocument } from './document.js';

/** Checks a document against its app before it is saved: charts, fields and expressions must exist and compile. */
export function validateDocument(provider: AnalyticsPort, meta: AppMeta, doc: ReportDocument) {
  doc.blocks.forEach((b, i) => {
    const at = `body.document.blocks.${i}`;
    if (b.type === 'kpi') provider.checkExpression(meta, b.expression, `${at}.expression`);
    if (b.type === 'table' || b.type === 'chart') {
      if (b.chartId && !meta.charts.some((c) => c.id === b.chartId || c.name === b.chartId)) throw badInput(`The chart "${b.chartId}" is not in the app`, [{ field: `${at}.chartId`, message: 'unknown chart' }]);
      for (const d of b.dimensions ?? [])
        if (!meta.fields.some((f) => f.name.toLowerCase() === d.toLowerCase())) throw badInput(`Unknown field "${d}"`, [{ field: `${at}.dimensions`, message: `unknown field "${d}"` }]);
      (b.measures ?? []).forEach((m, k) => provider.checkExpression(meta, m.expression, `${at}.measures.${k}.expression`));
    }
  });
}
