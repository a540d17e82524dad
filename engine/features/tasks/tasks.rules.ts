import { memberVisible } from '../../access/member-access.js';
import type { OpContext } from '../../ops/context.js';
import { me } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput, foundOrFieldError, notFound } from '../../core/errors.js';
import type { ListQuery, ListSpec } from '../../core/list-query.js';
import { pageOf } from '../../core/list-query.js';
import { Report } from '../../model/reports.entity.js';
import { reachableInProject, reachableProject, visibleProjects } from '../../access/project-reach.js';
import {
  Task,
  TaskRecipient,
  TaskReport,
  TaskTrigger,
  type TaskEmail,
  type TaskRow,
} from '../../model/tasks.entity.js';
import type { TaskSettings } from './tasks.inputs.js';

export const LIST_TASKS: ListSpec = {
  sort: {
    Name: 'LOWER(t.name)',
    Description: 'LOWER(t.description)',
    IsActive: 't."isActive"',
    CreatedDate: 't."createdDate"',
    ModifiedDate: 't."modifiedDate"',
    'Project.Name': '(SELECT LOWER(p.name) FROM projects p WHERE p.id = t."projectId")',
  },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 't.name', description: 't.description' },
  uuid: { project_id: 't."projectId"' },
  bool: {
    is_active: 't."isActive"',
    // Scheduled: the task has an active schedule (an external event alone does not make it scheduled).
    is_scheduled: (value, param) => ({
      sql: `${value ? '' : 'NOT '}EXISTS (SELECT 1 FROM task_triggers tt WHERE tt."taskId" = t.id AND tt.kind = 'Schedule' AND tt."isActive" = TRUE)`,
      params: { [param]: value },
    }),
  },
};

/** A task's own settings (name, notifications, test mode), as answered and as the whole-task save takes them. */
export const taskSettingsOf = (t: TaskRow) => ({
  name: t.name,
  description: t.description,
  isActive: t.isActive,
  sendNotifications: t.sendNotifications,
  notifyIfError: t.notifyIfError,
  notifyIfWarning: t.notifyIfWarning,
  notifyIfSuccess: t.notifyIfSuccess,
  notificationRecipients: t.notificationRecipients,
  notificationCc: t.notificationCc,
  notificationBcc: t.notificationBcc,
  testMode: t.testMode,
  testModeRecipients: t.testModeRecipients,
});

export function taskDto(t: TaskRow) {
  return {
    id: t.id,
    projectId: t.projectId,
    ...taskSettingsOf(t),
    email: t.email ? { ...t.email, sendWithoutFiles: t.email.sendWithoutFiles ?? false } : null,
    createdDate: iso(t.createdDate),
    modifiedDate: iso(t.modifiedDate),
    createdBy: t.createdBy,
    modifiedBy: t.modifiedBy,
  };
}

/**
 * A task of a project the caller reaches, or 404 (one outside their roles is not confirmed to exist).
 * A subscription's own task is not a task to the task operations: it changes through its subscription.
 */
export async function reachableTask(ctx: OpContext, id: string): Promise<TaskRow> {
  const row = await reachableInProject(ctx, Task, id, 'Task');
  if (row.subscriptionId) throw notFound(`Task ${id}`);
  return row;
}

/** Tasks the caller sees: those of projects they reach, subscriptions' own tasks left out. */
export const visibleTasks = (ctx: OpContext) =>
  memberVisible(
    ctx,
    visibleProjects(ctx, ctx.db.getRepository(Task).createQueryBuilder('t'), 't."projectId"').andWhere(
      't."subscriptionId" IS NULL',
    ),
    't',
    'task',
  );

export async function listTasks(ctx: OpContext, list: ListQuery) {
  return pageOf(visibleTasks(ctx), LIST_TASKS, list, 't.id', taskDto);
}

export async function createTask(ctx: OpContext, f: { name: string; projectId: string; description?: string | null }) {
  await foundOrFieldError(
    reachableProject(ctx, f.projectId),
    'The project does not exist or is not yours to use',
    'body.projectId',
    'must be a project you reach',
  );
  const by = me(ctx).user.id;
  const row: TaskRow = {
    ...newBase(ctx.now()),
    projectId: f.projectId,
    name: f.name,
    description: f.description ?? null,
    isActive: true,
    sendNotifications: false,
    notifyIfError: false,
    notifyIfWarning: false,
    notifyIfSuccess: false,
    notificationRecipients: null,
    notificationCc: null,
    notificationBcc: null,
    testMode: false,
    testModeRecipients: null,
    // Off until set: the reference API's tasks start without e-mail. The task page sets it on at creation.
    email: null,
    subscriptionId: null,
    createdBy: by,
    modifiedBy: by,
  };
  await ctx.db.getRepository(Task).insert(row);
  return taskDto(row);
}

export async function updateTask(ctx: OpContext, id: string, f: TaskSettings) {
  const row = await reachableTask(ctx, id);
  Object.assign(row, {
    name: f.name,
    description: f.description ?? null,
    isActive: f.isActive,
    sendNotifications: f.sendNotifications ?? row.sendNotifications,
    notifyIfError: f.notifyIfError ?? row.notifyIfError,
    notifyIfWarning: f.notifyIfWarning ?? row.notifyIfWarning,
    notifyIfSuccess: f.notifyIfSuccess ?? row.notifyIfSuccess,
    notificationRecipients: f.notificationRecipients ?? null,
    notificationCc: f.notificationCc ?? null,
    notificationBcc: f.notificationBcc ?? null,
    testMode: f.testMode ?? row.testMode,
    testModeRecipients: f.testModeRecipients ?? null,
    modifiedDate: ctx.now(),
    modifiedBy: me(ctx).user.id,
  });
  if (row.sendNotifications && !row.notificationRecipients?.trim())
    throw badInput('Notifications need someone to send them to', [
      { field: 'body.notificationRecipients', message: 'is required when sendNotifications is true' },
    ]);
  if (row.testMode && !row.testModeRecipients?.trim())
    throw badInput('Test mode sends to its own recipients only', [
      { field: 'body.testModeRecipients', message: 'is required when testMode is true' },
    ]);
  await ctx.db.getRepository(Task).save(row);
  return taskDto(row);
}

/** Enables or disables tasks; all are checked first, then all change in one transaction. */
export async function setTasksActive(ctx: OpContext, items: { id: string; isActive: boolean }[]) {
  const rows: TaskRow[] = [];
  for (const [i, item] of items.entries()) {
    rows.push(
      await foundOrFieldError(
        reachableTask(ctx, item.id),
        `Task ${item.id} does not exist`,
        `body.${i}.id`,
        'must be a task you reach',
      ),
    );
  }
  await ctx.db.transaction(async (m) => {
    for (const [i, row] of rows.entries())
      await m.getRepository(Task).update(row.id, { isActive: items[i].isActive, modifiedDate: ctx.now() });
  });
  return { updated: rows.length };
}

export async function updateTaskEmail(ctx: OpContext, id: string, email: TaskEmail) {
  const row = await reachableTask(ctx, id);
  row.email = email;
  row.modifiedDate = ctx.now();
  await ctx.db.getRepository(Task).save(row);
  return { taskId: row.id, ...email, sendWithoutFiles: email.sendWithoutFiles ?? false };
}

/**
 * A copy of a task with its reports, recipients and triggers, under a new name. A report listed in
 * `overwriteReportApps` reads from the new apps instead (kept on the copy's task report).
 */
export async function duplicateTask(
  ctx: OpContext,
  id: string,
  f: {
    newName?: string | null;
    overwriteReportApps?:
      | { reportId: string; analyticsApps: { analyticsAppId: string; newAnalyticsAppId: string }[] }[]
      | null;
  },
) {
  const source = await reachableTask(ctx, id);
  const now = ctx.now();
  const by = me(ctx).user.id;
  const copy: TaskRow = {
    ...source,
    ...newBase(now),
    name: f.newName?.trim() || `${source.name} (copy)`,
    createdBy: by,
    modifiedBy: by,
  };
  const overwrite = f.overwriteReportApps ?? [];
  const taskReports = await ctx.db.getRepository(TaskReport).findBy({ taskId: id });
  overwrite.forEach((o, i) => {
    if (!taskReports.some((r) => r.reportId === o.reportId))
      throw badInput('A report to re-point is not run by the task', [
        { field: `body.overwriteReportApps.${i}.reportId`, message: 'must be a report the task runs' },
      ]);
  });
  await ctx.db.transaction(async (m) => {
    await m.getRepository(Task).insert(copy);
    for (const r of taskReports) {
      const apps = overwrite.filter((o) => o.reportId === r.reportId);
      const options = apps.length ? { ...r.options, overwriteReportApps: apps } : r.options;
      await m.getRepository(TaskReport).insert({ ...r, ...newBase(now), taskId: copy.id, options });
    }
    for (const r of await m.getRepository(TaskRecipient).findBy({ taskId: id }))
      await m.getRepository(TaskRecipient).insert({ ...r, ...newBase(now), taskId: copy.id });
    // A copied schedule starts afresh: it has not fired yet.
    for (const t of await m.getRepository(TaskTrigger).findBy({ taskId: id })) {
      await m
        .getRepository(TaskTrigger)
        .insert({ ...t, ...newBase(now), taskId: copy.id, lastFireTime: null, lastScheduledFor: null });
    }
  });
  return taskDto(copy);
}

/** The task's project must hold the report a task report runs. */
export async function reportOfTask(ctx: OpContext, task: TaskRow, reportId: string, field: string) {
  const report = await ctx.db.getRepository(Report).findOneBy({ id: reportId, projectId: task.projectId });
  if (!report)
    throw badInput("The report is not one of the task's project", [
      { field, message: "must be a report of the task's project" },
    ]);
  return report;
}

/**
 * Deletes tasks (with their reports, recipients and triggers): their queued and running requests
 * are stopped first; finished runs stay in the history under the task's name.
 */
export async function deleteTasks(ctx: OpContext, ids: string[]) {
  const tasks: TaskRow[] = [];
  for (const id of new Set(ids)) tasks.push(await reachableTask(ctx, id));
  await ctx.requests.stopTasks(tasks.map((t) => t.id));
  if (tasks.length) await ctx.write(() => ctx.db.getRepository(Task).delete(tasks.map((t) => t.id)));
  ctx.scheduler.wake();
  return { deleted: tasks.length };
}
