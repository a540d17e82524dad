import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { ConditionCreateB, ConditionDuplicateB, ConditionTest, ConditionUpdateB, RuleB } from './conditions.inputs.js';
import {
  conditionWithRules,
  deleteRules,
  duplicateCondition,
  reachableCondition,
  saveCondition,
  upsertRule,
} from './conditions.rules.js';
import { evaluateCondition } from './condition-evaluation.js';
import { ConditionSaveInput, saveWholeCondition } from './condition-save.js';
import {
  ConditionBResult,
  ConditionRuleBResult,
  ConditionWithRulesResult,
  ConditionsTestResult,
  ConditionWithRulesBResult,
} from './conditions.results.js';
import { DeletedResult } from '../common.results.js';
import { withSetBIds } from '../../core/set-b-names.js';

// Set B: conditions (2.4), with the editor's own reads (one condition with its rules, "test now").
export const conditionsV2 = [
  defineOp({
    id: 'v2.conditions.create',
    summary: 'Create condition',
    http: { method: 'POST', path: '/api/v2/conditions' },
    permission: 'createCondition',
    objects: { 'body.projectID': 'project' },
    member: { condition: 'create' },
    input: { body: ConditionCreateB },
    result: ConditionBResult,
    handler: async (ctx, { body }) =>
      withSetBIds(
        await saveCondition(ctx, null, { ...body, projectId: body.projectID }, 'body.projectID'),
        'projectId',
      ),
  }),
  defineOp({
    id: 'v2.conditions.duplicate',
    summary: 'Duplicate condition',
    http: { method: 'POST', path: '/api/v2/conditions/{id}/duplicate' },
    permission: 'createCondition',
    objects: { 'body.organizationID': 'organization', 'body.projectID': 'project', 'params.id': 'condition' },
    member: { condition: 'duplicate' },
    input: { params: idParam, body: ConditionDuplicateB },
    result: ConditionWithRulesBResult,
    handler: async (ctx, { params, body }) =>
      withSetBIds(
        await duplicateCondition(ctx, params.id, { projectId: body.projectID, organizationId: body.organizationID }),
        'projectId',
      ),
  }),
  defineOp({
    id: 'v2.conditions.update',
    summary: 'Update condition',
    http: { method: 'PUT', path: '/api/v2/conditions/{id}' },
    permission: 'editCondition',
    objects: { 'params.id': 'condition' },
    member: { condition: 'edit' },
    input: { params: idParam, body: ConditionUpdateB },
    result: ConditionBResult,
    handler: async (ctx, { params, body }) => withSetBIds(await saveCondition(ctx, params.id, body), 'projectId'),
  }),
  defineOp({
    id: 'v2.conditionRules.upsert',
    summary: 'Create or update a rule',
    http: { method: 'PUT', path: '/api/v2/conditions/{id}/rules' },
    permission: 'editCondition',
    objects: {
      'body.analyticsAppID': 'analyticsApp',
      'body.id': 'conditionRule',
      'body.values[].conditionRuleId': 'none',
      'body.values[].id': 'none',
      'params.id': 'condition',
    },
    member: { condition: 'edit' },
    input: { params: idParam, body: RuleB },
    result: ConditionRuleBResult,
    handler: async (ctx, { params, body }) => {
      const rule = await upsertRule(
        ctx,
        params.id,
        {
          id: body.id,
          name: body.name,
          source: { analyticsAppId: body.analyticsAppID, field: 'body.analyticsAppID' },
          values: body.values,
        },
        'body.values',
      );
      // Set B names a rule's values `values`.
      return { ...rule, values: rule.conditionRuleValues };
    },
  }),
  defineOp({
    id: 'v2.conditionRules.delete',
    summary: 'Delete rules',
    http: { method: 'DELETE', path: '/api/v2/conditions/{id}/rules' },
    permission: 'editCondition',
    objects: { 'body[]': 'conditionRule', 'params.id': 'condition' },
    member: { condition: 'edit' },
    input: { params: idParam, body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { params, body }) => deleteRules(ctx, params.id, body),
  }),
  defineOp({
    id: 'app.conditions.get',
    summary: 'One condition with its rules',
    http: { method: 'GET', path: '/api/v1/conditions/{id}' },
    permission: 'viewCondition',
    objects: { 'params.id': 'condition' },
    member: { condition: 'view' },
    readOnly: true,
    input: { params: idParam },
    result: ConditionWithRulesResult,
    handler: async (ctx, { params }) => conditionWithRules(ctx, await reachableCondition(ctx, params.id)),
  }),
  defineOp({
    id: 'app.conditions.save',
    summary: 'Save a whole condition (name, description, active, and every rule) in one transaction: all or nothing',
    http: { method: 'PUT', path: '/api/app/conditions/{id}' },
    permission: 'editCondition',
    objects: {
      'body.rules[].conditionRuleValues[].conditionRuleId': 'none',
      'body.rules[].conditionRuleValues[].id': 'none',
      'body.rules[].connectionId': 'connection',
      'body.rules[].id': 'conditionRule',
      'params.id': 'condition',
    },
    member: { condition: 'edit' },
    input: { params: idParam, body: ConditionSaveInput },
    result: ConditionWithRulesResult,
    handler: (ctx, { params, body }) => saveWholeCondition(ctx, params.id, body),
  }),
  defineOp({
    id: 'app.conditions.test',
    summary: "Evaluate a condition now: each rule's value and whether it holds",
    http: { method: 'POST', path: '/api/v1/conditions/{id}/test' },
    permission: 'viewCondition',
    objects: { 'params.id': 'condition' },
    member: { condition: 'edit' },
    readOnly: true,
    input: { params: idParam, body: ConditionTest },
    result: ConditionsTestResult,
    handler: async (ctx, { params, body }) =>
      evaluateCondition(ctx, await reachableCondition(ctx, params.id), body?.selections ?? {}),
  }),
] as const;
