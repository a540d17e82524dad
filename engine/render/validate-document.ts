import { badInput, EngineError, type FieldError } from '../core/errors.js';
import type { AnalyticsPort } from '../analytics/port.js';
import type { AppMeta } from '../analytics/model.js';
import type { ReportDocument } from './document.js';

/**
 * Checks a document against its app before it is saved: charts, fields and expressions must exist
 * and compile. Every problem of every block is reported at once, each at its block, so a designer
 * fixes them in one pass instead of one Save per mistake.
 */
export function validateDocument(provider: AnalyticsPort, meta: AppMeta, doc: ReportDocument) {
  const found: FieldError[] = [];
  let firstMessage = '';
  const check = (field: string, run: () => void) => {
    try {
      run();
    } catch (e) {
      if (!(e instanceof EngineError) || e.status !== 400) throw e;
      firstMessage ||= e.message;
      found.push(...(e.details?.length ? e.details : [{ field, message: e.message }]));
    }
  };
  doc.blocks.forEach((b, i) => {
    const at = `body.document.blocks.${i}`;
    if (b.type === 'kpi')
      check(`${at}.expression`, () => provider.checkExpression(meta, b.expression, `${at}.expression`));
    if (b.type === 'table' || b.type === 'chart') {
      if (b.chartId && !meta.charts.some((c) => c.id === b.chartId || c.name === b.chartId))
        found.push({ field: `${at}.chartId`, message: 'is not a chart of the app' });
      for (const d of b.dimensions ?? [])
        if (!meta.fields.some((f) => f.name.toLowerCase() === d.toLowerCase()))
          found.push({ field: `${at}.dimensions`, message: `"${d}" is not a field of the app` });
      (b.measures ?? []).forEach((m, k) =>
        check(`${at}.measures.${k}.expression`, () =>
          provider.checkExpression(meta, m.expression, `${at}.measures.${k}.expression`),
        ),
      );
    }
  });
  if (found.length === 1) throw badInput(firstMessage || `A block needs fixing: ${found[0].message}`, found);
  if (found.length) throw badInput(`${found.length} problems in the blocks need fixing`, found);
}
