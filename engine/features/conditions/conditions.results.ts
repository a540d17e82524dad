import { z } from 'zod';
import { withSetBIdsSchema } from '../../core/set-b-names.js';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const ConditionResult = lazySchema(() =>
  z.object({
    id: z.string(),
    projectId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    isActive: z.boolean(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
  }),
);

export const ConditionRuleResult = lazySchema(() =>
  z.object({
    id: z.string(),
    conditionId: z.string(),
    name: z.string(),
    connectionId: z.string(),
    connection: z.string().nullable(),
    analyticsAppID: z.string().nullable(),
    numberOfValues: z.number(),
    conditionRuleValues: z.array(
      z.object({
        conditionRuleId: z.string(),
        id: z.string(),
        type: z.enum(['Variable', 'Chart']),
        variable: z.string().nullable(),
        comparisonValue: z.string().nullable(),
        chart: z.string().nullable(),
        chartHasValue: z.boolean(),
        operator: z.enum(['=', '<>', '>', '>=', '<', '<=']).nullable(),
        lastReloadSuccessful: z.boolean(),
        order: z.number(),
      }),
    ),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
  }),
);

export const ConditionRulesBatchUpsertResult = lazySchema(() => z.array(ConditionRuleResult));

/** A condition with its rules (one condition read, or a copy just made). */
export const ConditionWithRulesResult = lazySchema(() =>
  ConditionResult.extend({ rules: z.array(ConditionRuleResult) }),
);

export const ConditionsTestResult = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    holds: z.boolean(),
    rules: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        holds: z.boolean(),
        values: z.array(
          z.object({
            id: z.string(),
            type: z.enum(['Variable', 'Chart']),
            test: z.string(),
            actual: z.union([z.string(), z.number()]).nullable(),
            holds: z.boolean(),
          }),
        ),
      }),
    ),
  }),
);

export const ConditionBResult = lazySchema(() => withSetBIdsSchema(ConditionResult, 'projectId'));
export const ConditionWithRulesBResult = lazySchema(() => withSetBIdsSchema(ConditionWithRulesResult, 'projectId'));
export const ConditionRuleBResult = lazySchema(() =>
  ConditionRuleResult.extend({
    values: ConditionRuleResult.shape.conditionRuleValues,
  }),
);
