import { z } from 'zod';
import { withSetBIdsSchema } from '../../core/set-b-names.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const ConditionResult = z.object({
  id: z.string(),
  projectId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  isActive: z.boolean(),
  createdDate: z.string().nullable(),
  modifiedDate: z.string().nullable(),
});

export const ConditionRuleResult = z.object({
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
});

export const ConditionRulesBatchUpsertResult = z.array(ConditionRuleResult);

/** A condition with its rules (one condition read, or a copy just made). */
export const ConditionWithRulesResult = ConditionResult.extend({ rules: z.array(ConditionRuleResult) });

export const ConditionsTestResult = z.object({
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
});

export const ConditionBResult = withSetBIdsSchema(ConditionResult, 'projectId');
export const ConditionWithRulesBResult = withSetBIdsSchema(ConditionWithRulesResult, 'projectId');
export const ConditionRuleBResult = ConditionRuleResult.extend({
  values: ConditionRuleResult.shape.conditionRuleValues,
});
