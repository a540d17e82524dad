import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import type { ListQuery } from '../../core/list-query.js';
import { TaskTriggerResult } from '../common.results.js';
import type { TaskEmail, TaskReportRow, TaskTriggerRow } from '../../model/tasks.entity.js';
import { TaskReport, TaskTrigger } from '../../model/tasks.entity.js';
import { reachableTask, taskSettingsOf } from './tasks.rules.js';
import { taskReportDto } from './task-reports.rules.js';
import { listTaskRecipients } from './task-recipients.rules.js';
import { triggerDto } from './task-triggers.rules.js';
import { TaskSaveInput, type TaskSave } from './task-save.js';

// The whole task read in the very shape `app.tasks.save` takes (settings, e-mail, reports,
// recipients, schedules, events), so a client can GET it, change one thing and PUT it back. What a
// page shows beside it and cannot be saved (a report's name, a recipient's address, a schedule's
// sentence and next runs) is under `shown`, by id; the save ignores it. A field the save would not
// carry back whole is left out, and an absent field is kept as stored: set A's own report options
// (FTP and cloud-drive variables, folders, secured output) and passwords stay as they are.

/** Every row of a list, in the order they were added. */
const EVERY_ROW: ListQuery = {
  page: 1,
  pageSize: 100,
  getAll: true,
  sortBy: 'CreatedDate',
  sortDirection: 'asc',
  text: [],
  exact: {},
  bool: {},
  uuid: {},
};

export const WholeTaskResult = lazySchema(() =>
  TaskSaveInput.safeExtend({
    shown: z.object({
      reports: z.record(
        z.string(),
        z.object({ reportName: z.string().nullable(), outputFormats: z.array(z.string()) }),
      ),
      recipients: z.record(
        z.string(),
        z.object({ name: z.string().nullable(), emailAddress: z.string().nullable(), userKind: z.string().nullable() }),
      ),
      triggers: z.record(z.string(), TaskTriggerResult),
    }),
  }),
);

/** The stored e-mail as the save takes it (an empty sender is the mail server's, as stored). */
const emailOf = (e: TaskEmail): NonNullable<TaskSave['email']> => ({
  from: e.from,
  ccBcc: e.ccBcc,
  cc: e.cc,
  bcc: e.bcc,
  ccAnalyticsVariable: e.ccAnalyticsVariableId,
  bccAnalyticsVariable: e.bccAnalyticsVariableId,
  subject: e.subject,
  message: e.message,
  isActive: e.isActive,
  oneToAll: e.oneToAll,
  sendWithoutFiles: e.sendWithoutFiles ?? false,
});

const reportOf = (r: TaskReportRow): TaskSave['reports'][number] => {
  const o = r.options;
  return {
    id: r.id,
    reportID: r.reportId,
    format: r.format,
    emailEmbedment: o.emailEmbedment,
    emailAttachment: o.emailAttachment,
    isOpenFilePasswordProtected: o.isOpenFilePasswordProtected,
    isWriteFilePasswordProtected: o.isWriteFilePasswordProtected,
    iterationOptions: {
      zipEmailFiles: o.zipEmailFiles,
      evaluateConditionForEachIteration: o.evaluateConditionForEachIteration,
      recipientsVariable: o.recipientsVariable,
      folderVariable: o.folderVariable,
      hubAuthorizedUserVariable: o.hubAuthorizedUserVariable,
    },
    filters: o.filterIds.map((id, order) => ({ id, order })),
    conditions: o.conditionIds.map((id) => ({ id })),
    storageServices: o.storageServices.map((s) => ({
      fileStorageServiceID: s.fileStorageServiceId,
      path: s.path,
      siteUrl: s.siteUrl,
      zipeFiles: s.zipFiles,
      order: s.order,
    })),
    hub: {
      folderID: o.publishToServiceHub ? o.hubFolderId : null,
      hubMaxFileOccurrences: o.maxFileOccurrences,
    },
    separatorOptions: {
      numberDecimalSeparator: o.numberDecimalSeparator as '.' | ',' | null,
      numberGroupSeparator: o.numberGroupSeparator as ',' | '.' | ' ' | "'" | '' | null,
    },
  };
};

const scheduleOf = (t: TaskTriggerRow): TaskSave['schedules'][number] => {
  const s = t.schedule;
  return {
    id: t.id,
    name: t.name,
    isActive: t.isActive,
    priority: t.priority,
    execution: t.execution as 'Parallel' | 'Serial' | null,
    timeZone: t.timeZone ?? 'UTC',
    frequency: s?.frequency ?? null,
    day: s?.day ?? null,
    month: s?.month ?? null,
    atHour: s?.atHour ?? null,
    atMinut: s?.atMinut ?? null,
    everyHours: s?.everyHours ?? null,
    fromHour: s?.fromHour ?? null,
    fromMinut: s?.fromMinut ?? null,
    toHour: s?.toHour ?? null,
    toMinut: s?.toMinut ?? null,
    weeklyDays: s?.weeklyDays ?? null,
    startDate: (t.startDate ?? new Date(0)).toISOString(),
    endDate: t.endDate?.toISOString() ?? null,
  };
};

const eventOf = (t: TaskTriggerRow): TaskSave['events'][number] => ({
  id: t.id,
  name: t.name,
  description: t.description,
  appId: t.appId ?? '',
  isActive: t.isActive,
  execution: t.execution as 'Parallel' | 'Serial' | null,
  priority: t.priority,
  startDate: (t.startDate ?? new Date(0)).toISOString(),
  endDate: t.endDate?.toISOString() ?? null,
});

const byAdding = <T extends { createdDate: Date; id: string }>(a: T, b: T) =>
  a.createdDate.getTime() - b.createdDate.getTime() || a.id.localeCompare(b.id);

/** The whole task in the shape `app.tasks.save` takes, with what a page shows beside it. */
export async function wholeTask(ctx: OpContext, taskId: string) {
  const task = await reachableTask(ctx, taskId);
  const [reports, recipients, triggers] = await Promise.all([
    ctx.db.getRepository(TaskReport).findBy({ taskId: task.id }),
    listTaskRecipients(ctx, task.id, EVERY_ROW),
    ctx.db.getRepository(TaskTrigger).findBy({ taskId: task.id }),
  ]);
  reports.sort(byAdding);
  triggers.sort(byAdding);
  const now = ctx.now();
  const shownReports = await Promise.all(reports.map((r) => taskReportDto(ctx, r)));
  return {
    settings: taskSettingsOf(task),
    ...(task.email ? { email: emailOf(task.email) } : {}),
    reports: reports.map(reportOf),
    recipients: recipients.items.map((r) => ({
      id: r.id,
      type: r.type,
      sendEmail: r.sendEmail,
      seeInHub: r.seeInHub,
    })),
    schedules: triggers.filter((t) => t.kind === 'Schedule').map(scheduleOf),
    events: triggers.filter((t) => t.kind !== 'Schedule').map(eventOf),
    shown: {
      reports: Object.fromEntries(
        shownReports.map((r) => [r.id, { reportName: r.reportName, outputFormats: r.outputFormats }]),
      ),
      recipients: Object.fromEntries(
        recipients.items.map((r) => [r.id, { name: r.name, emailAddress: r.emailAddress, userKind: r.userKind }]),
      ),
      triggers: Object.fromEntries(triggers.map((t) => [t.id, triggerDto(t, now)])),
    },
  };
}
