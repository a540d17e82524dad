import { defineOp } from '../../ops/op.js';
import { idParam, uuidParams, v } from '../../core/validation.js';
import { ConditionA, RuleBatchA, RuleRequestA } from './conditions.inputs.js';
import {
  batchUpsertRules,
  deleteConditions,
  deleteRules,
  getRule,
  LIST_CONDITIONS,
  LIST_RULES,
  listConditions,
  listRules,
  saveCondition,
  updateRuleById,
  upsertRule,
} from './conditions.rules.js';
import { ConditionResult, ConditionRuleResult, ConditionRulesBatchUpsertResult } from './conditions.results.js';
import { DeletedResult } from '../common.results.js';

// Set A: conditions and their rules (2.2, 2.3).
const conditionId = uuidParams('conditionId');

export const conditionsV1 = [
  defineOp({
    id: 'v1.conditions.create',
    summary: 'Add condition',
    http: { method: 'POST', path: '/api/v1/conditions' },
    permission: 'createCondition',
    member: { condition: 'create' },
    input: { body: ConditionA },
    result: ConditionResult,
    handler: (ctx, { body }) => saveCondition(ctx, null, body),
  }),
  defineOp({
    id: 'v1.conditions.list',
    summary: 'List conditions',
    http: { method: 'GET', path: '/api/v1/conditions' },
    permission: 'viewCondition',
    member: { condition: 'view' },
    list: LIST_CONDITIONS,
    result: ConditionResult,
    handler: (ctx, { list }) => listConditions(ctx, list),
  }),
  defineOp({
    id: 'v1.conditions.delete',
    summary: 'Delete conditions',
    http: { method: 'DELETE', path: '/api/v1/conditions' },
    permission: 'deleteCondition',
    member: { condition: 'delete' },
    input: { body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { body }) => deleteConditions(ctx, body),
  }),
  defineOp({
    id: 'v1.conditions.update',
    summary: 'Update condition',
    http: { method: 'PUT', path: '/api/v1/conditions/{id}' },
    permission: 'editCondition',
    member: { condition: 'edit' },
    input: { params: idParam, body: ConditionA },
    result: ConditionResult,
    handler: (ctx, { params, body }) => saveCondition(ctx, params.id, body),
  }),
  defineOp({
    id: 'v1.conditionRules.list',
    summary: 'List rules of a condition',
    http: { method: 'GET', path: '/api/v1/conditions/{conditionId}/rules' },
    permission: 'viewCondition',
    member: { condition: 'view' },
    input: { params: conditionId },
    list: LIST_RULES,
    result: ConditionRuleResult,
    handler: (ctx, { params, list }) => listRules(ctx, params.conditionId, list),
  }),
  defineOp({
    id: 'v1.conditionRules.batchUpsert',
    summary: 'Add or update rules in batch',
    http: { method: 'PUT', path: '/api/v1/conditions/{conditionId}/rules/batch' },
    permission: 'editCondition',
    member: { condition: 'edit' },
    input: { params: conditionId, body: RuleBatchA },
    result: ConditionRulesBatchUpsertResult,
    handler: (ctx, { params, body }) =>
      batchUpsertRules(
        ctx,
        params.conditionId,
        body.items.map((r, i) => ({
          id: r.id,
          name: r.name,
          source: { connectionId: r.connectionId, field: `body.items.${i}.connectionId` },
          values: r.conditionRuleValues ?? [],
        })),
      ),
  }),
  defineOp({
    id: 'v1.conditionRules.upsert',
    summary: 'Add or update one rule',
    http: { method: 'POST', path: '/api/v1/conditions/{conditionId}/rules' },
    permission: 'editCondition',
    member: { condition: 'edit' },
    input: { params: conditionId, body: RuleRequestA },
    result: ConditionRuleResult,
    handler: (ctx, { params, body }) =>
      upsertRule(
        ctx,
        params.conditionId,
        {
          name: body.name,
          source: { connectionId: body.connectionId, field: 'body.connectionId' },
          values: body.conditionRuleValues ?? [],
        },
        'body.conditionRuleValues',
      ),
  }),
  defineOp({
    id: 'v1.conditionRules.get',
    summary: 'Get one rule',
    http: { method: 'GET', path: '/api/v1/conditions/{conditionId}/rules/{ruleId}' },
    permission: 'viewCondition',
    member: { condition: 'view' },
    input: { params: uuidParams('conditionId', 'ruleId') },
    result: ConditionRuleResult,
    handler: (ctx, { params }) => getRule(ctx, params.conditionId, params.ruleId),
  }),
  defineOp({
    id: 'v1.conditionRules.update',
    summary: 'Update one rule',
    http: { method: 'PUT', path: '/api/v1/conditions/rules/{conditionRuleId}' },
    permission: 'editCondition',
    member: { condition: 'edit' },
    input: { params: uuidParams('conditionRuleId'), body: RuleRequestA },
    result: ConditionRuleResult,
    handler: (ctx, { params, body }) =>
      updateRuleById(ctx, params.conditionRuleId, {
        conditionId: body.conditionId,
        name: body.name,
        source: { connectionId: body.connectionId, field: 'body.connectionId' },
        values: body.conditionRuleValues ?? [],
      }),
  }),
  defineOp({
    id: 'v1.conditionRules.delete',
    summary: 'Delete rules',
    http: { method: 'DELETE', path: '/api/v1/conditions/{conditionId}/rules' },
    permission: 'editCondition',
    member: { condition: 'edit' },
    input: { params: conditionId, body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { params, body }) => deleteRules(ctx, params.conditionId, body),
  }),
] as const;
