import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { v } from '../../core/validation.js';
import { COMPARISON_OPERATORS, RULE_VALUE_TYPES } from '../../model/conditions.entity.js';

// The bodies of both sets for conditions and rules (set A 2.2/2.3, set B 2.4), mapped onto one model.

const caseless = <const T extends readonly [string, ...string[]]>(values: T, label: string) =>
  z
    .string()
    .max(40)
    .transform((s, c) => {
      const hit = values.find((x) => x.toLowerCase() === s.trim().toLowerCase());
      if (!hit) c.addIssue({ code: 'custom', message: `must be one of: ${label}` });
      return (hit ?? values[0]) as T[number];
    });

/** One comparison of a rule, as both sets spell it (set B omits the ids). */
export const RuleValueInput = lazySchema(() =>
  z.object({
    id: v.nuuid(),
    conditionRuleId: v.nuuid(),
    type: caseless(RULE_VALUE_TYPES, RULE_VALUE_TYPES.join(', ')).nullable().optional(),
    variable: v.nstr(300),
    comparisonValue: v.nstr(1000),
    chart: v.nstr(300),
    chartHasValue: v.obool().nullable(),
    operator: caseless(COMPARISON_OPERATORS, COMPARISON_OPERATORS.join(' ')).nullable().optional(),
    lastReloadSuccessful: v.obool().nullable(),
    order: v.int().nullable().optional(),
  }),
);
export type RuleValueInput = z.output<typeof RuleValueInput>;
const values = () => z.array(RuleValueInput).max(100);

export const ConditionA = lazySchema(() =>
  z.object({ projectId: v.uuid(), name: v.text(), description: v.nstr(), isActive: v.bool() }),
);
export const ConditionCreateB = lazySchema(() =>
  z.object({ name: v.text(), description: v.nstr(), projectID: v.uuid() }),
);
export const ConditionUpdateB = lazySchema(() =>
  z.object({ name: v.text(), description: v.nstr(), isActive: v.obool() }),
);
export const ConditionDuplicateB = lazySchema(() => z.object({ projectID: v.uuid(), organizationID: v.uuid() }));

/** Request-style rule of set A (single add or update). */
export const RuleRequestA = lazySchema(() =>
  z.object({
    conditionId: v.uuid(),
    name: v.text(),
    connectionId: v.uuid(),
    conditionRuleValues: values().nullable().optional(),
  }),
);
/** Response-style rule of set A, as the batch operation takes it: an id updates, none adds. */
export const RuleResponseA = lazySchema(() =>
  z.object({
    id: v.nuuid(),
    conditionId: v.nuuid(),
    name: v.text(),
    connectionId: v.uuid(),
    connection: v.nstr(300),
    numberOfValues: v.int().nullable().optional(),
    conditionRuleValues: values().nullable().optional(),
  }),
);
export const RuleBatchA = lazySchema(() => z.object({ items: z.array(RuleResponseA).max(100) }));
export const RuleB = lazySchema(() =>
  z.object({ id: v.nuuid(), name: v.text(), analyticsAppID: v.uuid(), values: values() }),
);

/** A "test now": optional selections to evaluate under (field name → values). */
export const ConditionTest = z
  .object({ selections: z.record(z.string().max(300), z.array(z.string().max(1000)).max(1000)).optional() })
  .optional();
