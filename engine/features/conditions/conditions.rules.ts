import { memberVisible } from '../../access/member-access.js';
import { In } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput, conflict, foundOrFieldError, notFound, type FieldError } from '../../core/errors.js';
import type { ListQuery, ListSpec } from '../../core/list-query.js';
import { pageOf } from '../../core/list-query.js';
import type { AppMeta } from '../../analytics/model.js';
import { Connection, type ConnectionRow } from '../../model/connections.entity.js';
import { connectionOfProject } from '../connections/connections.rules.js';
import { providerAppId } from '../analytics-apps/analytics-apps.rules.js';
import { duplicateTarget } from '../projects/projects.rules.js';
import { reachableInProject, reachableProject, visibleProjects } from '../../access/project-reach.js';
import { Task, TaskReport } from '../../model/tasks.entity.js';
import {
  Condition,
  ConditionRule,
  type ConditionRow,
  type ConditionRuleRow,
  type RuleValue,
} from '../../model/conditions.entity.js';
import type { RuleValueInput } from './conditions.inputs.js';

export const LIST_CONDITIONS: ListSpec = {
  sort: {
    name: 'LOWER(c.name)',
    description: 'LOWER(c.description)',
    createdDate: 'c."createdDate"',
    modifiedDate: 'c."modifiedDate"',
    isActive: 'c."isActive"',
    'project.name': '(SELECT LOWER(p.name) FROM projects p WHERE p.id = c."projectId")',
  },
  defaultSort: { by: 'name', direction: 'asc' },
  text: { name: 'c.name', description: 'c.description' },
  uuid: { project_id: 'c."projectId"' },
  bool: { is_active: 'c."isActive"' },
};

export const LIST_RULES: ListSpec = {
  sort: {
    Name: 'LOWER(r.name)',
    'connection.name': '(SELECT LOWER(cn.name) FROM connections cn WHERE cn.id = r."connectionId")',
    CreatedDate: 'r."createdDate"',
    ModifiedDate: 'r."modifiedDate"',
  },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'r.name' },
};

export function conditionDto(c: ConditionRow) {
  return {
    id: c.id,
    projectId: c.projectId,
    name: c.name,
    description: c.description,
    isActive: c.isActive,
    createdDate: iso(c.createdDate),
    modifiedDate: iso(c.modifiedDate),
  };
}

/** A rule as set A's response-style rule (2.3), with set B's `analyticsAppID` beside it. */
export function ruleDto(r: ConditionRuleRow, connection: ConnectionRow | null) {
  return {
    id: r.id,
    conditionId: r.conditionId,
    name: r.name,
    connectionId: r.connectionId,
    connection: connection?.name ?? null,
    analyticsAppID: connection?.analyticsAppId ?? null,
    numberOfValues: r.values.length,
    conditionRuleValues: r.values.map((x) => ({ ...x, conditionRuleId: r.id })),
    createdDate: iso(r.createdDate),
    modifiedDate: iso(r.modifiedDate),
  };
}

async function ruleDtos(ctx: OpContext, rules: ConditionRuleRow[]) {
  const conns = rules.length
    ? await ctx.db.getRepository(Connection).findBy({ id: In([...new Set(rules.map((r) => r.connectionId))]) })
    : [];
  return rules.map((r) => ruleDto(r, conns.find((c) => c.id === r.connectionId) ?? null));
}

/** A condition with its rules, as the editor shows it. */
export async function conditionWithRules(ctx: OpContext, c: ConditionRow) {
  const rules = await ctx.db
    .getRepository(ConditionRule)
    .find({ where: { conditionId: c.id }, order: { createdDate: 'ASC' } });
  return { ...conditionDto(c), rules: await ruleDtos(ctx, rules) };
}

/** A condition of a project the caller reaches, or 404. */
export const reachableCondition = (ctx: OpContext, id: string): Promise<ConditionRow> =>
  reachableInProject(ctx, Condition, id, 'Condition');

export async function listConditions(ctx: OpContext, list: ListQuery) {
  return pageOf(
    memberVisible(
      ctx,
      visibleProjects(ctx, ctx.db.getRepository(Condition).createQueryBuilder('c'), 'c."projectId"'),
      'c',
      'condition',
    ),
    LIST_CONDITIONS,
    list,
    'c.id',
    conditionDto,
  );
}

export async function saveCondition(
  ctx: OpContext,
  id: string | null,
  f: { projectId?: string; name: string; description?: string | null; isActive?: boolean },
  projectField = 'body.projectId',
) {
  const current = id ? await reachableCondition(ctx, id) : null;
  const projectId = f.projectId ?? current?.projectId;
  if (!projectId)
    throw badInput('A condition belongs to a project', [{ field: 'body.projectId', message: 'is required' }]);
  // A new condition, or one moved: the project must take it.
  if (!current || current.projectId !== projectId)
    await foundOrFieldError(
      reachableProject(ctx, projectId),
      'The project does not exist or is not yours to use',
      projectField,
      'must be a project you reach',
    );
  if (
    current &&
    current.projectId !== projectId &&
    (await ctx.db.getRepository(ConditionRule).countBy({ conditionId: current.id }))
  ) {
    throw badInput(
      "A condition with rules stays in its project (its rules read the project's connections); duplicate it instead",
      [{ field: projectField, message: 'cannot change while the condition has rules' }],
    );
  }
  const row: ConditionRow = {
    ...(current ?? newBase(ctx.now())),
    projectId,
    name: f.name,
    description: f.description ?? null,
    isActive: f.isActive ?? current?.isActive ?? true,
    modifiedDate: ctx.now(),
  };
  await ctx.db.getRepository(Condition).save(row);
  return conditionDto(row);
}

/** Task reports (with their task's name) that apply any of the conditions. */
async function tasksUsing(ctx: OpContext, conditionIds: string[]) {
  const rows = await ctx.db
    .getRepository(TaskReport)
    .createQueryBuilder('tr')
    .where(
      conditionIds.map((_, i) => `tr.options LIKE :c${i}`).join(' OR '),
      Object.fromEntries(conditionIds.map((c, i) => [`c${i}`, `%${c}%`])),
    )
    .getMany();
  const using = rows.filter((r) => r.options.conditionIds.some((c) => conditionIds.includes(c)));
  if (!using.length) return [];
  const tasks = await ctx.db.getRepository(Task).findBy({ id: In([...new Set(using.map((r) => r.taskId))]) });
  return tasks.map((t) => t.name);
}

/** Deletes conditions with their rules; refused while a task applies one, naming the tasks. */
export async function deleteConditions(ctx: OpContext, ids: string[]) {
  const unique = [...new Set(ids)];
  const rows = [];
  for (const id of unique) rows.push(await reachableCondition(ctx, id));
  if (!rows.length) return { deleted: 0 };
  const tasks = await tasksUsing(ctx, unique);
  if (tasks.length) {
    const names = tasks
      .slice(0, 10)
      .map((n) => `“${n}”`)
      .join(', ');
    throw conflict(
      `${rows.length === 1 ? `The condition “${rows[0].name}” is` : 'These conditions are'} applied by the task${tasks.length === 1 ? '' : 's'} ${names}; remove ${rows.length === 1 ? 'it' : 'them'} from the task reports first`,
      [{ field: 'body', message: `applied by ${names}` }],
    );
  }
  await ctx.db.getRepository(Condition).delete(unique);
  return { deleted: unique.length };
}

export async function duplicateCondition(
  ctx: OpContext,
  id: string,
  target: { projectId: string; organizationId: string },
) {
  const source = await reachableCondition(ctx, id);
  const project = await duplicateTarget(ctx, target.projectId, target.organizationId);
  const rules = await ctx.db.getRepository(ConditionRule).findBy({ conditionId: source.id });
  // Rules read connections of their project; in another project they read its connection to the same app.
  const sourceConns = rules.length
    ? await ctx.db.getRepository(Connection).findBy({ id: In(rules.map((r) => r.connectionId)) })
    : [];
  const targetConns =
    project.id === source.projectId
      ? sourceConns
      : await ctx.db.getRepository(Connection).findBy({ projectId: project.id });
  const copy: ConditionRow = {
    ...newBase(ctx.now()),
    projectId: project.id,
    name: `${source.name} (copy)`,
    description: source.description,
    isActive: source.isActive,
  };
  const copies = rules.map((r) => {
    const app = sourceConns.find((c) => c.id === r.connectionId)?.analyticsAppId;
    const conn =
      project.id === source.projectId ? r.connectionId : targetConns.find((c) => c.analyticsAppId === app)?.id;
    if (!conn)
      throw badInput(
        `The project "${project.name}" has no connection to the app rule "${r.name}" reads; connect it first`,
        [{ field: 'body.projectID', message: "has no connection to the rule's app" }],
      );
    return {
      ...r,
      ...newBase(ctx.now()),
      conditionId: copy.id,
      connectionId: conn,
      values: r.values.map((x) => ({ ...x })),
    };
  });
  await ctx.db.transaction(async (m) => {
    await m.getRepository(Condition).insert(copy);
    if (copies.length) await m.getRepository(ConditionRule).insert(copies);
  });
  return conditionWithRules(ctx, copy);
}

export async function listRules(ctx: OpContext, conditionId: string, list: ListQuery) {
  await reachableCondition(ctx, conditionId);
  const qb = ctx.db
    .getRepository(ConditionRule)
    .createQueryBuilder('r')
    .where('r."conditionId" = :c', { c: conditionId });
  const page = await pageOf(qb, LIST_RULES, list, 'r.id', (r) => r);
  return Object.assign(page, { items: await ruleDtos(ctx, page.items) });
}

export async function getRule(ctx: OpContext, conditionId: string, ruleId: string) {
  await reachableCondition(ctx, conditionId);
  const rule = await ctx.db.getRepository(ConditionRule).findOneBy({ id: ruleId, conditionId });
  if (!rule) throw notFound(`Rule ${ruleId}`);
  return (await ruleDtos(ctx, [rule]))[0];
}

/** Where a rule reads: set A names a connection, set B an analytics app the project connects to. */
export type RuleSource = { connectionId: string; field: string } | { analyticsAppId: string; field: string };

export interface RuleInput {
  id?: string | null;
  name: string;
  source: RuleSource;
  values: RuleValueInput[];
}

/** Values checked against the app: a variable and operator, or a chart, that exist; every problem at once. */
function ruleValues(meta: AppMeta, input: RuleValueInput[], field: string): RuleValue[] {
  const errors: FieldError[] = [];
  const out = input.map((x, i): RuleValue => {
    const at = `${field}.${i}`;
    const type = x.type ?? (x.chart ? 'Chart' : 'Variable');
    if (type === 'Variable') {
      const variable = meta.variables.find(
        (m) => m.name.toLowerCase() === (x.variable ?? '').trim().toLowerCase() || m.id === x.variable,
      );
      if (!x.variable?.trim()) errors.push({ field: `${at}.variable`, message: 'is required for a variable rule' });
      else if (!variable)
        errors.push({ field: `${at}.variable`, message: `is not a variable of the app "${meta.name}"` });
      if (!x.operator)
        errors.push({ field: `${at}.operator`, message: 'is required for a variable rule: =, <>, >, >=, < or <=' });
      if (x.comparisonValue === null || x.comparisonValue === undefined)
        errors.push({ field: `${at}.comparisonValue`, message: 'is required for a variable rule' });
      return {
        id: x.id ?? crypto.randomUUID(),
        type,
        variable: variable?.name ?? x.variable ?? null,
        comparisonValue: x.comparisonValue ?? null,
        chart: null,
        chartHasValue: false,
        operator: x.operator ?? null,
        lastReloadSuccessful: x.lastReloadSuccessful ?? false,
        order: x.order ?? i,
      };
    }
    const chart = meta.charts.find(
      (c) => c.id === x.chart || c.name.toLowerCase() === (x.chart ?? '').trim().toLowerCase(),
    );
    if (!x.chart?.trim()) errors.push({ field: `${at}.chart`, message: 'is required for a chart rule' });
    else if (!chart) errors.push({ field: `${at}.chart`, message: `is not a chart of the app "${meta.name}"` });
    return {
      id: x.id ?? crypto.randomUUID(),
      type,
      variable: null,
      comparisonValue: null,
      chart: chart?.id ?? x.chart ?? null,
      chartHasValue: x.chartHasValue ?? true,
      operator: null,
      lastReloadSuccessful: x.lastReloadSuccessful ?? false,
      order: x.order ?? i,
    };
  });
  if (errors.length)
    throw badInput(
      errors.length === 1
        ? `The rule value is not valid: ${errors[0].field.split('.').pop()} ${errors[0].message}`
        : `${errors.length} rule values are not valid`,
      errors,
    );
  return out.sort((a, b) => a.order - b.order);
}

async function ruleConnection(ctx: OpContext, projectId: string, source: RuleSource): Promise<ConnectionRow> {
  if ('connectionId' in source) return connectionOfProject(ctx, projectId, source.connectionId, source.field);
  const conn = await ctx.db
    .getRepository(Connection)
    .findOne({ where: { projectId, analyticsAppId: source.analyticsAppId }, order: { createdDate: 'ASC' } });
  if (!conn)
    throw badInput("The condition's project is not connected to that analytics app", [
      { field: source.field, message: 'is not an app the project connects to' },
    ]);
  return conn;
}

/** Adds a rule, or updates the one named by `input.id`; its values are checked against the rule's app. */
export async function upsertRule(ctx: OpContext, conditionId: string, input: RuleInput, valuesField: string) {
  const condition = await reachableCondition(ctx, conditionId);
  const row = await prepareRule(ctx, condition, input, valuesField);
  await ctx.db.getRepository(ConditionRule).save(row);
  return (await ruleDtos(ctx, [row]))[0];
}

async function prepareRule(
  ctx: OpContext,
  condition: ConditionRow,
  input: RuleInput,
  valuesField: string,
): Promise<ConditionRuleRow> {
  const repo = ctx.db.getRepository(ConditionRule);
  const current = input.id ? await repo.findOneBy({ id: input.id, conditionId: condition.id }) : null;
  if (input.id && !current) throw notFound(`Rule ${input.id}`);
  const conn = await ruleConnection(ctx, condition.projectId, input.source);
  const meta = await ctx.analytics.meta(await providerAppId(ctx, conn.analyticsAppId));
  return {
    ...(current ?? newBase(ctx.now())),
    conditionId: condition.id,
    name: input.name,
    connectionId: conn.id,
    values: ruleValues(meta, input.values, valuesField),
    modifiedDate: ctx.now(),
  };
}

/** Set A's batch: every rule checked first, then all saved in one transaction (nothing half-done). */
export async function batchUpsertRules(
  ctx: OpContext,
  conditionId: string,
  inputs: RuleInput[],
  listField = 'body.items',
) {
  const condition = await reachableCondition(ctx, conditionId);
  const rows: ConditionRuleRow[] = [];
  for (const [i, input] of inputs.entries())
    rows.push(await prepareRule(ctx, condition, input, `${listField}.${i}.conditionRuleValues`));
  await ctx.db.transaction(async (m) => {
    for (const r of rows) await m.getRepository(ConditionRule).save(r);
  });
  return ruleDtos(ctx, rows);
}

/** Set A's single update addresses the rule alone; its condition comes from the rule. */
export async function updateRuleById(
  ctx: OpContext,
  ruleId: string,
  input: Omit<RuleInput, 'id'> & { conditionId: string },
) {
  const rule = await ctx.db.getRepository(ConditionRule).findOneBy({ id: ruleId });
  if (!rule) throw notFound(`Rule ${ruleId}`);
  if (rule.conditionId !== input.conditionId)
    throw badInput('The rule belongs to another condition', [
      { field: 'body.conditionId', message: "is not the rule's condition" },
    ]);
  return upsertRule(ctx, rule.conditionId, { ...input, id: ruleId }, 'body.conditionRuleValues');
}

export async function deleteRules(ctx: OpContext, conditionId: string, ruleIds: string[]) {
  await reachableCondition(ctx, conditionId);
  const unique = [...new Set(ruleIds)];
  const found = unique.length ? await ctx.db.getRepository(ConditionRule).findBy({ conditionId, id: In(unique) }) : [];
  const missing = unique.filter((id) => !found.some((r) => r.id === id));
  if (missing.length) throw notFound(`Rule ${missing.join(', ')}`);
  if (unique.length) await ctx.db.getRepository(ConditionRule).delete(unique);
  return { deleted: unique.length };
}
