import { In } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import type { AppMeta, Selections } from '../../analytics/model.js';
import { Connection } from '../../model/connections.entity.js';
import { providerAppId } from '../analytics-apps/analytics-apps.rules.js';
import {
  Condition,
  ConditionRule,
  type ComparisonOperator,
  type ConditionRow,
  type RuleValue,
} from '../../model/conditions.entity.js';

/** What one comparison found: the value read, and whether the comparison held. */
export interface ValueOutcome {
  id: string;
  type: RuleValue['type'];
  /** "vTotalSales > 1000" or "chart Sales by region has data". */
  test: string;
  actual: string | number | null;
  holds: boolean;
}

export interface RuleOutcome {
  id: string;
  name: string;
  holds: boolean;
  values: ValueOutcome[];
}

export interface ConditionOutcome {
  id: string;
  name: string;
  holds: boolean;
  rules: RuleOutcome[];
}

const asNumber = (x: unknown): number | null => {
  if (typeof x === 'number') return Number.isFinite(x) ? x : null;
  if (typeof x !== 'string' || x.trim() === '') return null;
  const n = Number(x.trim());
  return Number.isFinite(n) ? n : null;
};

/** Numbers compare as numbers; anything else as text, ignoring case (as the analytics engine compares). */
export function compare(actual: string | number | null, operator: ComparisonOperator, expected: string): boolean {
  if (actual === null) return operator === '<>' ? expected.trim() !== '' : operator === '=' && expected.trim() === '';
  const a = asNumber(actual);
  const b = asNumber(expected);
  const order =
    a !== null && b !== null
      ? Math.sign(a - b)
      : String(actual).localeCompare(expected, undefined, { sensitivity: 'accent' });
  switch (operator) {
    case '=':
      return order === 0;
    case '<>':
      return order !== 0;
    case '>':
      return order > 0;
    case '>=':
      return order >= 0;
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
  }
}

/** Only the selections on fields the app has: a rule may read another app than the report. */
const selectionsFor = (meta: AppMeta, selections: Selections): Selections =>
  Object.fromEntries(Object.entries(selections).filter(([field]) => meta.fields.some((f) => f.name === field)));

async function evaluateValue(
  ctx: OpContext,
  appId: string,
  meta: AppMeta,
  v: RuleValue,
  selections: Selections,
  variables: Record<string, string>,
): Promise<ValueOutcome> {
  if (v.type === 'Chart') {
    const chart = meta.charts.find((c) => c.id === v.chart);
    const name = chart?.name ?? v.chart ?? '?';
    const want = v.chartHasValue ? 'has data' : 'has no data';
    if (!chart)
      return { id: v.id, type: v.type, test: `chart ${name} ${want}`, actual: 'chart not found', holds: false };
    const data = await ctx.analytics.chartData(appId, chart, selections, variables);
    const rows = data.rows.filter((r) =>
      r.slice(data.dimensions.length).some((x) => x !== null && x !== 0 && x !== ''),
    );
    return {
      id: v.id,
      type: v.type,
      test: `chart ${name} ${want}`,
      actual: `${rows.length} row${rows.length === 1 ? '' : 's'} with data`,
      holds: v.chartHasValue ? rows.length > 0 : rows.length === 0,
    };
  }
  const variable = meta.variables.find((x) => x.name === v.variable);
  const test = `${v.variable} ${v.operator} ${v.comparisonValue}`;
  if (!variable) return { id: v.id, type: v.type, test, actual: 'variable not found', holds: false };
  const actual = await ctx.analytics.evaluate(appId, `$(${variable.name})`, selections, variables);
  return { id: v.id, type: v.type, test, actual, holds: compare(actual, v.operator ?? '=', v.comparisonValue ?? '') };
}

/** Evaluates conditions under a run's selections: a condition holds when all its rules' values hold. */
export async function evaluateConditions(
  ctx: OpContext,
  ids: string[],
  selections: Selections = {},
  variables: Record<string, string> = {},
): Promise<ConditionOutcome[]> {
  if (!ids.length) return [];
  const conditions = await ctx.db.getRepository(Condition).findBy({ id: In(ids) });
  const missing = ids.filter((id) => !conditions.some((c) => c.id === id));
  const out: ConditionOutcome[] = missing.map((id) => ({
    id,
    name: `condition ${id} (deleted)`,
    holds: false,
    rules: [],
  }));
  for (const c of ids.map((id) => conditions.find((x) => x.id === id)).filter((x): x is ConditionRow => !!x)) {
    // An inactive condition is switched off: it does not stop anything.
    if (!c.isActive) {
      out.push({ id: c.id, name: c.name, holds: true, rules: [] });
      continue;
    }
    out.push(await evaluateCondition(ctx, c, selections, variables));
  }
  return out;
}

export async function evaluateCondition(
  ctx: OpContext,
  c: ConditionRow,
  selections: Selections = {},
  variables: Record<string, string> = {},
): Promise<ConditionOutcome> {
  const rules = await ctx.db
    .getRepository(ConditionRule)
    .find({ where: { conditionId: c.id }, order: { createdDate: 'ASC' } });
  const outcomes: RuleOutcome[] = [];
  for (const r of rules) {
    const conn = await ctx.db.getRepository(Connection).findOneBy({ id: r.connectionId });
    const appId = conn ? await providerAppId(ctx, conn.analyticsAppId) : null;
    if (!appId) {
      outcomes.push({ id: r.id, name: r.name, holds: false, values: [] });
      continue;
    }
    const meta = await ctx.analytics.meta(appId);
    const sel = selectionsFor(meta, selections);
    const values: ValueOutcome[] = [];
    for (const v of r.values) values.push(await evaluateValue(ctx, appId, meta, v, sel, variables));
    outcomes.push({ id: r.id, name: r.name, holds: values.every((x) => x.holds), values });
  }
  return { id: c.id, name: c.name, holds: outcomes.every((r) => r.holds), rules: outcomes };
}

/** One line per comparison, for a run's log: "Condition “Big month”: vTotalSales > 1000 → 532.4 (fails)". */
export function describeOutcome(o: ConditionOutcome): string[] {
  if (!o.rules.length) return [`Condition “${o.name}”: ${o.holds ? 'holds (no rules)' : 'fails'}`];
  return o.rules.flatMap((r) =>
    (r.values.length ? r.values : [{ test: 'no values', actual: null, holds: r.holds }]).map(
      (v) =>
        `Condition “${o.name}”, rule “${r.name}”: ${v.test} → ${v.actual ?? 'null'} (${v.holds ? 'holds' : 'fails'})`,
    ),
  );
}
