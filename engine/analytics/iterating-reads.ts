import type { ChartData, ChartDef, Selections } from './model.js';
import { GROUP_KEY, type AnalyticsPort } from './port.js';

type Value = string | number | null;

/**
 * The combination of iteration values a selection asks for, when it is the iteration's base
 * selection with each iterated field narrowed to one value (how a run asks per file); else null,
 * and the read is not one the grouped answers hold.
 */
function comboOf(selections: Selections | undefined, by: string[], base: Selections): string | null {
  const sel = selections ?? {};
  const values: string[] = [];
  for (const f of by) {
    const v = sel[f];
    if (!v || v.length !== 1) return null;
    values.push(v[0]);
  }
  const rest = Object.keys(sel).filter((k) => !by.includes(k));
  const baseRest = Object.keys(base).filter((k) => !by.includes(k));
  if (rest.length !== baseRest.length) return null;
  for (const k of rest) if (JSON.stringify(sel[k]) !== JSON.stringify(base[k])) return null;
  return values.join(GROUP_KEY);
}

/**
 * Answers keyed by the iterated fields and then inner ones, split at the iterated ones: for each
 * combination of the iteration, its answers keyed by the inner fields alone.
 */
function byCombination<T>(grouped: Map<string, T>, outer: number): Map<string, Map<string, T>> {
  const out = new Map<string, Map<string, T>>();
  for (const [key, value] of grouped) {
    const parts = key.split(GROUP_KEY);
    const combo = parts.slice(0, outer).join(GROUP_KEY);
    let own = out.get(combo);
    if (!own) out.set(combo, (own = new Map()));
    own.set(parts.slice(outer).join(GROUP_KEY), value);
  }
  return out;
}

/**
 * The analytics port as a run that iterates fields reads it: each expression and chart asked once
 * for every value of the iteration, grouped by the iterated fields (one statement instead of one
 * per value: the columnar store answers a whole-data grouping in about the time of one value), and
 * each file's read answered from those groups; a read grouped within a file (a template's level, a
 * repeated row) is asked once grouped by the iterated fields and its own. A read the groups do not
 * hold (another app, other selections, a combination with no rows or a null) goes to the port as it
 * came.
 */
export function iteratingReads(port: AnalyticsPort, appId: string, by: string[], base: Selections): AnalyticsPort {
  const evaluateGrouped = port.evaluateGrouped?.bind(port);
  const chartDataGrouped = port.chartDataGrouped?.bind(port);
  if (!by.length || !evaluateGrouped || !chartDataGrouped) return port;
  const values = new Map<string, Promise<Map<string, Value>>>();
  const charts = new Map<string, Promise<Map<string, ChartData>>>();
  const once = <T>(cache: Map<string, Promise<T>>, key: string, read: () => Promise<T>) => {
    let held = cache.get(key);
    if (!held) {
      held = read();
      cache.set(key, held);
      // A grouped read that fails is not kept: each file then asks alone, and says its own error.
      held.catch(() => cache.delete(key));
    }
    return held;
  };
  const nestedValues = new Map<string, Promise<Map<string, Map<string, Value>>>>();
  const nestedCharts = new Map<string, Promise<Map<string, Map<string, ChartData>>>>();
  /**
   * How a read grouped within one file is answered from reads for all files: grouped by fields the
   * run does not iterate (a level's field), from one read grouped by both (`nested`); grouped by
   * iterated fields the file already fixes to one value (a row repeated inside a level of the same
   * field), from the run's own grouped read, as one group (`own`, keyed by those values).
   */
  const within = (app: string, inner: string[], selections: Selections | undefined) => {
    const combo = app === appId && inner.length ? comboOf(selections, by, base) : null;
    if (combo === null) return null;
    if (inner.every((f) => by.includes(f))) return { combo, own: inner.map((f) => selections![f][0]).join(GROUP_KEY) };
    return inner.some((f) => by.includes(f)) ? null : { combo, own: null };
  };
  /**
   * A read grouped within one file, from the run's reads: `key` is what the run's own per-file read
   * of it is cached under ([expression or chart, variables]); `read` asks the port grouped by `fields`.
   */
  const groupedWithin = async <T>(
    at: { combo: string; own: string | null },
    inner: string[],
    key: unknown[],
    own: Map<string, Promise<Map<string, T>>>,
    nested: Map<string, Promise<Map<string, Map<string, T>>>>,
    read: (fields: string[]) => Promise<Map<string, T>>,
  ): Promise<Map<string, T>> => {
    if (at.own !== null) {
      const grouped = await once(own, JSON.stringify(key), () => read(by));
      return grouped.has(at.combo) ? new Map([[at.own, grouped.get(at.combo)!]]) : new Map<string, T>();
    }
    const all = await once(nested, JSON.stringify([key[0], inner, key[1]]), async () =>
      byCombination(await read([...by, ...inner]), by.length),
    );
    return all.get(at.combo) ?? new Map<string, T>();
  };
  return {
    ...port,
    meta: port.meta.bind(port),
    fieldValues: port.fieldValues.bind(port),
    checkExpression: port.checkExpression.bind(port),
    onReload: port.onReload.bind(port),
    async evaluateGrouped(app, expression, inner, selections, variables) {
      const at = within(app, inner, selections);
      if (!at) return evaluateGrouped(app, expression, inner, selections, variables);
      return groupedWithin(at, inner, [expression, variables ?? null], values, nestedValues, (fields) =>
        evaluateGrouped(appId, expression, fields, base, variables),
      );
    },
    async chartDataGrouped(app, chart, inner, selections, variables) {
      const at = within(app, inner, selections);
      if (!at) return chartDataGrouped(app, chart, inner, selections, variables);
      const shape = { dimensions: chart.dimensions, measures: chart.measures, sort: chart.sort, limit: chart.limit };
      return groupedWithin(at, inner, [shape, variables ?? null], charts, nestedCharts, (fields) =>
        chartDataGrouped(appId, shape, fields, base, variables),
      );
    },
    async evaluate(app, expression, selections, variables) {
      const combo = app === appId ? comboOf(selections, by, base) : null;
      if (combo !== null) {
        const key = JSON.stringify([expression, variables ?? null]);
        const grouped = await once(values, key, () => evaluateGrouped(appId, expression, by, base, variables)).catch(
          () => null,
        );
        if (grouped?.has(combo)) return grouped.get(combo)!;
      }
      return port.evaluate(app, expression, selections, variables);
    },
    // A field's values within each file (a template's level or row inside it): one grouped read of them all.
    async iterationValues(app, fields, selections) {
      const combo = app === appId ? comboOf(selections, by, base) : null;
      if (combo !== null) {
        const key = JSON.stringify(['values', fields]);
        const grouped = await once(charts, key, () =>
          chartDataGrouped(appId, { dimensions: fields, measures: [] }, by, base),
        ).catch(() => null);
        if (grouped?.has(combo)) return grouped.get(combo)!.rows.map((r) => r.map((v) => String(v ?? '')));
      }
      return port.iterationValues(app, fields, selections);
    },
    async chartData(app, chart: Pick<ChartDef, 'dimensions' | 'measures' | 'sort' | 'limit'>, selections, variables) {
      const combo = app === appId ? comboOf(selections, by, base) : null;
      if (combo !== null) {
        const shape = { dimensions: chart.dimensions, measures: chart.measures, sort: chart.sort, limit: chart.limit };
        const key = JSON.stringify([shape, variables ?? null]);
        const grouped = await once(charts, key, () => chartDataGrouped(appId, shape, by, base, variables)).catch(
          () => null,
        );
        if (grouped?.has(combo)) return grouped.get(combo)!;
      }
      return port.chartData(app, chart, selections, variables);
    },
  };
}
