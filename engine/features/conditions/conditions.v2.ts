import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { ConditionCreateB, ConditionDuplicateB, ConditionTest, ConditionUpdateB, RuleB } from './conditions.inputs.js';
import { conditionWithRules, deleteRules, duplicateCondition, reachableCondition, saveCondition, upsertRule } from './conditions.rules.js';
import { evaluateCondition } from './condition-evaluation.js';
import { ConditionResult, ConditionRuleResult, ConditionsDuplicateResult, ConditionsTestResult } from './conditions.results.js';
import { DeletedResult } from '../common.results.js';

// Set B: conditions (2.4), with the editor's own reads (one condition with its rules, "test now").
export const conditionsV2 = [
  defineOp({ id: 'v2.conditions.create', summary: 'Create condition', http: { method: 'POST', path: '/api/v2/conditions' }, permission: 'createCondition', member: { condition: 'create' }, input: { body: ConditionCreateB }, result: ConditionResult, handler: (ctx, { body }) => saveCondition(ctx, null, { ...body, projectId: body.projectID }, 'body.projectID') }),
  defineOp({
    id: 'v2.conditions.duplicate', summary: 'Duplicate condition', http: { method: 'POST', path: '/api/v2/conditions/{id}/duplicate' }, permission: 'createCondition', member: { condition: 'duplicate' }, input: { params: idParam, body: ConditionDuplicateB },
    result: ConditionsDuplicateResult,
    handler: (ctx, { params, body }) => duplicateCondition(ctx, params.id, { projectId: body.projectID, organizationId: body.organizationID }),
  }),
  defineOp({ id: 'v2.conditions.update', summary: 'Update condition', http: { method: 'PUT', path: '/api/v2/conditions/{id}' }, permission: 'editCondition', member: { condition: 'edit' }, input: { params: idParam, body: ConditionUpdateB }, result: ConditionResult, handler: (ctx, { params, body }) => saveCondition(ctx, params.id, body) }),
  defineOp({
    id: 'v2.conditionRules.upsert', summary: 'Create or update a rule', http: { method: 'PUT', path: '/api/v2/conditions/{id}/rules' }, permission: 'editCondition', member: { condition: 'edit' }, input: { params: idParam, body: RuleB },
    result: ConditionRuleResult,
    handler: (ctx, { params, body }) => upsertRule(ctx, params.id, { id: body.id, name: body.name, source: { analyticsAppId: body.analyticsAppID, field: 'body.analyticsAppID' }, values: body.values }, 'body.values'),
  }),
  defineOp({ id: 'v2.conditionRules.delete', summary: 'Delete rules', http: { method: 'DELETE', path: '/api/v2/conditions/{id}/rules' }, permission: 'editCondition', member: { condition: 'edit' }, input: { params: idParam, body: v.uuidList() }, result: DeletedResult, handler: (ctx, { params, body }) => deleteRules(ctx, params.id, body) }),
  defineOp({ id: 'app.conditions.get', summary: 'One condition with its rules', http: { method: 'GET', path: '/api/v1/conditions/{id}' }, permission: 'viewCondition', member: { condition: 'view' }, readOnly: true, input: { params: idParam }, result: ConditionsDuplicateResult, handler: async (ctx, { params }) => conditionWithRules(ctx, await reachableCondition(ctx, params.id)) }),
  defineOp({
    id: 'app.conditions.test', summary: 'Evaluate a condition now: each rule\'s value and whether it holds', http: { method: 'POST', path: '/api/v1/conditions/{id}/test' }, permission: 'viewCondition', member: { condition: 'edit' }, readOnly: true,
    input: { params: idParam, body: ConditionTest },
    result: ConditionsTestResult,
    handler: async (ctx, { params, body }) => evaluateCondition(ctx, await reachableCondition(ctx, params.id), body?.selections ?? {}),
  }),
] as const;
