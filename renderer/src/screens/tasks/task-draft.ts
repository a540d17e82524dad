import { invoke } from '../../bridge';
import { mayCall } from '../../stores/session/session.store';
import type { ResultOf, RowOf } from '../../../../engine/catalogue';
import type {
  EmailDraft,
  MailChoice,
  RecipientItem,
  ReportItem,
  SettingsDraft,
  TaskDraft,
  TriggerItem,
} from '../../stores/tasks/task-draft.store';

export type {
  EmailDraft,
  MailChoice,
  RecipientItem,
  ReportItem,
  SettingsDraft,
  StorageTarget,
  TaskDraft,
  TriggerItem,
} from '../../stores/tasks/task-draft.store';
export { MAIL_CHOICES } from '../../stores/tasks/task-draft.store';

// A task as one draft: its settings, its e-mail, and its lists (reports, recipients, triggers) as
// they are being edited. Items keep the server's id as their key, or a "new-" key until saved.

export type TaskDto = ResultOf<'app.tasks.get'>;
type WholeTask = ResultOf<'app.tasks.whole'>;
type ServerTrigger = RowOf<'v1.taskTriggers.list'>;

/** What the server holds of a task, read at once: the draft's baseline, and what lists show beside it. */
export interface TaskState {
  task: TaskDto;
  draft: TaskDraft;
  /** Saved triggers as answered (their sentence and next runs), by id. */
  triggers: Record<string, ServerTrigger>;
}

export const isNewKey = (key: string) => key.startsWith('new-');
export const newKey = () => `new-${crypto.randomUUID()}`;

const mailOf = (r: { emailAttachment: boolean; emailEmbedment: boolean }): MailChoice =>
  r.emailEmbedment ? 'In the body' : r.emailAttachment ? 'Attached' : 'Not mailed';

/** A report of the task as the whole-task read answers it, with its name from beside it. */
export const reportItemOf = (r: WholeTask['reports'][number], shown: WholeTask['shown']): ReportItem => ({
  key: r.id!,
  reportId: r.reportID,
  reportName: shown.reports[r.id!]?.reportName ?? 'a deleted report',
  format: r.format,
  filterIds: [...(r.filters ?? [])].sort((a, b) => a.order - b.order).map((f) => f.id),
  conditionIds: (r.conditions ?? []).map((c) => c.id),
  eachIteration: r.iterationOptions?.evaluateConditionForEachIteration ?? false,
  hasPassword: r.isOpenFilePasswordProtected ?? false,
  newPassword: null,
  storage: (r.storageServices ?? []).map((s) => ({
    fileStorageServiceId: s.fileStorageServiceID,
    path: s.path,
    siteUrl: s.siteUrl ?? null,
    zipFiles: s.zipeFiles ?? false,
  })),
  folderVariable: r.iterationOptions?.folderVariable ?? null,
  mail: mailOf(r),
  zipEmailFiles: r.iterationOptions?.zipEmailFiles ?? false,
  recipientsVariable: r.iterationOptions?.recipientsVariable ?? null,
  hubFolderId: r.hub?.folderID ?? null,
  hubMax: r.hub?.hubMaxFileOccurrences ?? 0,
  hubUserVariable: r.iterationOptions?.hubAuthorizedUserVariable ?? null,
});

export const recipientItemOf = (r: WholeTask['recipients'][number], shown: WholeTask['shown']): RecipientItem => {
  const who = shown.recipients[r.id];
  return {
    key: r.id,
    type: r.type,
    name: who?.name ?? who?.emailAddress ?? 'someone deleted',
    email: who?.emailAddress ?? null,
    userKind: (who?.userKind ?? null) as RecipientItem['userKind'],
    sendEmail: r.sendEmail,
    seeInHub: r.seeInHub,
  };
};

export const triggerItemOf = (t: ServerTrigger): TriggerItem => ({
  key: t.id,
  type: t.type,
  name: t.name,
  isActive: t.isActive,
  timeZone: t.timeZone,
  frequency: t.frequency,
  day: t.day,
  month: t.month,
  atHour: t.atHour,
  atMinut: t.atMinut,
  everyHours: t.everyHours,
  fromHour: t.fromHour,
  fromMinut: t.fromMinut,
  toHour: t.toHour,
  toMinut: t.toMinut,
  weeklyDays: t.weeklyDays,
  startDate: t.startDate ?? new Date(0).toISOString(),
  endDate: t.endDate,
  appId: t.appId,
  description: t.description,
  execution: t.execution,
  priority: t.priority,
});

export const settingsOf = (t: TaskDto): SettingsDraft => ({
  name: t.name,
  description: t.description,
  isActive: t.isActive,
  testMode: t.testMode,
  testModeRecipients: t.testModeRecipients,
  sendNotifications: t.sendNotifications,
  notifyIfError: t.notifyIfError,
  notifyIfWarning: t.notifyIfWarning,
  notifyIfSuccess: t.notifyIfSuccess,
  notificationRecipients: t.notificationRecipients,
});

/**
 * A task's e-mail; one never set is shown off (as a run treats it), ready to be ticked, from the mail
 * server's sender and with the task's name. A stored empty sender is the mail server's own.
 */
export const emailOf = (t: TaskDto, serverSender: string): EmailDraft => {
  const e = t.email;
  return {
    from: e?.from || serverSender,
    cc: e?.cc ?? null,
    bcc: e?.bcc ?? null,
    subject: e?.subject ?? t.name,
    message: e?.message ?? null,
    oneToAll: e?.oneToAll ?? false,
    isActive: e?.isActive ?? false,
    sendWithoutFiles: e?.sendWithoutFiles ?? false,
  };
};

/** Reads the whole task from the engine (`app.tasks.whole`, the shape Save writes): the baseline of its draft. */
export async function loadTaskState(taskId: string): Promise<TaskState | string> {
  const [task, whole, servers] = await Promise.all([
    invoke('app.tasks.get', { params: { id: taskId } }),
    invoke('app.tasks.whole', { params: { id: taskId } }),
    // Only to fill the sender of a new task's mail: not asked of someone whose roles do not show settings.
    mayCall('app.mailServers.list') ? invoke('app.mailServers.list', {}) : null,
  ]);
  if (!task.ok) return task.error ?? 'The task could not be opened.';
  if (!whole.ok) return whole.error ?? 'The task could not be read.';
  const sender = (servers?.ok ? servers.data[0]?.fromAddress : null) ?? '';
  const { shown } = whole.data;
  return {
    task: task.data,
    draft: {
      settings: settingsOf(task.data),
      email: emailOf(task.data, sender),
      reports: whole.data.reports.map((r) => reportItemOf(r, shown)),
      recipients: whole.data.recipients.map((r) => recipientItemOf(r, shown)),
      // In the order they were added, schedules and events together, as the list showed them.
      triggers: Object.values(shown.triggers).map(triggerItemOf),
    },
    triggers: shown.triggers,
  };
}

/** The item's name as a person reads it in a question or a problem: "Regional review as Pdf". */
export const reportLabel = (r: Pick<ReportItem, 'reportName' | 'format'>) => `“${r.reportName}” as ${r.format}`;
