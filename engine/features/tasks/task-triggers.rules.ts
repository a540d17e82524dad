import { In } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput, notFound } from '../../core/errors.js';
import type { ListQuery, ListSpec } from '../../core/list-query.js';
import { pageOf } from '../../core/list-query.js';
import { describeSchedule, nextFireTimes } from '../schedules/fire-times.js';
import { nextFireAfterChange, scheduleOf, storedSchedule, timeZoneOffset } from '../schedules/schedule-spec.js';
import { TaskTrigger, type StoredSchedule, type TaskTriggerRow, type TriggerKind } from '../../model/tasks.entity.js';
import { reachableTask } from './tasks.rules.js';
import type { ScheduleInput } from './tasks.inputs.js';

export const LIST_TASK_TRIGGERS: ListSpec = {
  sort: { Name: 'LOWER(tt.name)', Type: 'tt.kind', NextFireTime: 'tt."nextFireTime"', CreatedDate: 'tt."createdDate"' },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'tt.name' },
  exact: { type: 'tt.kind' },
};

/**
 * A trigger as answered: a schedule with its sentence and next five run times. Both sets' spellings
 * are there (set A's `timeZoneOfset`, set B's `appID` beside `appId`): answers carry more fields,
 * never fewer.
 */
/** An external event answers the schedule's fields too, empty: the interface's schedule object names them all. */
const NO_SCHEDULE: { [K in keyof StoredSchedule]: StoredSchedule[K] | null } = {
  frequency: null,
  day: null,
  month: null,
  atHour: null,
  atMinut: null,
  everyHours: null,
  fromHour: null,
  fromMinut: null,
  toHour: null,
  toMinut: null,
  weeklyDays: null,
};

export function triggerDto(t: TaskTriggerRow, now: Date) {
  const spec = t.kind === 'Schedule' ? scheduleOf(t) : null;
  return {
    id: t.id,
    taskId: t.taskId,
    type: t.kind,
    name: t.name,
    description: t.description,
    isActive: t.isActive,
    execution: t.execution,
    priority: t.priority,
    timeZone: t.timeZone,
    ...NO_SCHEDULE,
    ...(t.schedule ?? {}),
    timeZoneOfset: timeZoneOffset(t.timeZone, now),
    appId: t.appId,
    appID: t.appId,
    analyticsEvent: t.analyticsEvent,
    startDate: iso(t.startDate),
    endDate: iso(t.endDate),
    lastFireTime: iso(t.lastFireTime),
    nextFireTime: iso(t.nextFireTime),
    summary: spec ? describeSchedule(spec) : null,
    nextRuns: spec && t.isActive ? nextFireTimes(spec, now, 5).map((d) => d.toISOString()) : [],
    createdDate: iso(t.createdDate),
    modifiedDate: iso(t.modifiedDate),
  };
}

export async function listTaskTriggers(ctx: OpContext, taskId: string, list: ListQuery) {
  const task = await reachableTask(ctx, taskId);
  const qb = ctx.db.getRepository(TaskTrigger).createQueryBuilder('tt').where('tt."taskId" = :task', { task: task.id });
  const now = ctx.now();
  return pageOf(qb, LIST_TASK_TRIGGERS, list, 'tt.id', (t) => triggerDto(t, now));
}

async function triggerOf(ctx: OpContext, taskId: string, id: string, kind: TriggerKind): Promise<TaskTriggerRow> {
  const task = await reachableTask(ctx, taskId);
  const row = await ctx.db.getRepository(TaskTrigger).findOneBy({ id, taskId: task.id, kind });
  if (!row) throw notFound(kind === 'Schedule' ? `Task schedule ${id}` : `Task external event ${id}`);
  return row;
}

export const getTrigger = async (ctx: OpContext, taskId: string, id: string, kind: TriggerKind) =>
  triggerDto(await triggerOf(ctx, taskId, id, kind), ctx.now());

/**
 * A schedule trigger of a task from its input (a change keeps the slots already run), with its next
 * fire time computed at once so a change takes effect at once. Checks what zod cannot alone.
 */
export function scheduleTrigger(
  now: Date,
  taskId: string,
  current: TaskTriggerRow | null,
  f: ScheduleInput & { isActive?: boolean },
  field = 'body',
): TaskTriggerRow {
  const schedule = storedSchedule(f, field);
  const row: TaskTriggerRow = {
    ...(current ?? { ...newBase(now), lastFireTime: null, lastScheduledFor: null }),
    taskId,
    kind: 'Schedule',
    name: f.name,
    description: null,
    isActive: f.isActive ?? current?.isActive ?? true,
    execution: f.execution ?? null,
    priority: f.priority ?? null,
    timeZone: f.timeZone,
    schedule,
    appId: null,
    analyticsEvent: null,
    startDate: new Date(f.startDate),
    endDate: f.endDate ? new Date(f.endDate) : null,
    nextFireTime: null,
    modifiedDate: now,
  };
  row.nextFireTime = nextFireAfterChange(row, now);
  return row;
}

/** Adds (no id) or changes a schedule. */
export async function saveSchedule(
  ctx: OpContext,
  taskId: string,
  id: string | null,
  f: ScheduleInput & { isActive?: boolean },
) {
  const task = await reachableTask(ctx, taskId);
  const current = id ? await triggerOf(ctx, taskId, id, 'Schedule') : null;
  const row = scheduleTrigger(ctx.now(), task.id, current, f);
  await ctx.db.getRepository(TaskTrigger).save(row);
  ctx.scheduler.wake();
  return triggerDto(row, ctx.now());
}

export interface ExternalEventInput {
  name: string;
  description?: string | null;
  appId: string | null;
  isActive?: boolean;
  execution?: string | null;
  priority?: number | null;
  analyticsEvent?: string | null;
  startDate: string;
  endDate?: string | null;
  timeZone?: string | null;
}

/** An external-event trigger of a task from its input: the task runs when the named analytics app reloads. */
export function externalEventTrigger(
  now: Date,
  taskId: string,
  current: TaskTriggerRow | null,
  f: ExternalEventInput,
): TaskTriggerRow {
  return {
    ...(current ?? { ...newBase(now), lastFireTime: null, lastScheduledFor: null }),
    taskId,
    kind: 'ExternalEvent',
    name: f.name,
    description: f.description ?? null,
    isActive: f.isActive ?? current?.isActive ?? true,
    execution: f.execution ?? null,
    priority: f.priority ?? null,
    timeZone: f.timeZone ?? null,
    schedule: null,
    appId: f.appId,
    analyticsEvent: f.analyticsEvent ?? 'Reload',
    startDate: new Date(f.startDate),
    endDate: f.endDate ? new Date(f.endDate) : null,
    nextFireTime: null,
    modifiedDate: now,
  };
}

/** Adds (no id) or changes an external event. */
/**
 * What a schedule being edited will do, before it is saved: its sentence and next five runs, read
 * by the same rules that will fire it.
 */
export async function previewSchedule(now: Date, f: ScheduleInput & { isActive?: boolean }) {
  const row = scheduleTrigger(now, 'preview', null, f);
  // A row made from a valid schedule always has its spec; the check keeps the types honest.
  const spec = scheduleOf(row);
  if (!spec)
    throw badInput('The schedule needs a start date and a time zone', [{ field: 'body', message: 'is incomplete' }]);
  return {
    summary: describeSchedule(spec),
    nextRuns: row.isActive ? nextFireTimes(spec, now, 5).map((d) => d.toISOString()) : [],
  };
}

export async function saveExternalEvent(ctx: OpContext, taskId: string, id: string | null, f: ExternalEventInput) {
  const task = await reachableTask(ctx, taskId);
  const current = id ? await triggerOf(ctx, taskId, id, 'ExternalEvent') : null;
  const row = externalEventTrigger(ctx.now(), task.id, current, f);
  await ctx.db.getRepository(TaskTrigger).save(row);
  return triggerDto(row, ctx.now());
}

export async function deleteTrigger(ctx: OpContext, taskId: string, id: string, kind: TriggerKind) {
  const row = await triggerOf(ctx, taskId, id, kind);
  await ctx.db.getRepository(TaskTrigger).delete(row.id);
  return { deleted: 1 };
}

/** Deletes triggers of the task (of one kind when given); every id must be one of them. */
export async function deleteTriggers(ctx: OpContext, taskId: string, ids: string[], kind?: TriggerKind) {
  const task = await reachableTask(ctx, taskId);
  const found = ids.length
    ? await ctx.db.getRepository(TaskTrigger).findBy({ taskId: task.id, id: In(ids), ...(kind ? { kind } : {}) })
    : [];
  ids.forEach((id, i) => {
    if (!found.some((t) => t.id === id))
      throw badInput(`Trigger ${id} is not one of the task's`, [
        { field: `body.${i}`, message: 'must be a trigger of the task' },
      ]);
  });
  if (found.length) await ctx.db.getRepository(TaskTrigger).delete({ id: In(found.map((t) => t.id)) });
  return { deleted: found.length };
}
