import { invoke, type Answer } from '../../bridge';
import { plainMessage } from '../../components/field-errors';
import { isNewKey, type ReportItem, type TaskDraft, type TriggerItem } from './task-draft';

/** What Save could not write, by the draft part it belongs to ("settings", "email", "recipients" or an item's key). */
export type SaveProblems = Record<string, string>;

const problemOf = (a: Answer<unknown>) =>
  [
    a.error ?? 'It could not be saved',
    ...a.errorDetails.map((d) => plainMessage(`${d.field.split('.').pop()} ${d.message}`)),
  ].join(': ');

const reportBody = (r: ReportItem) => ({
  reportID: r.reportId,
  format: r.format,
  emailAttachment: r.mail === 'Attached',
  emailEmbedment: r.mail === 'In the body',
  filters: r.filterIds.map((id, order) => ({ id, order })),
  conditions: r.conditionIds.map((id) => ({ id })),
  iterationOptions: {
    evaluateConditionForEachIteration: r.eachIteration,
    zipEmailFiles: r.zipEmailFiles,
    recipientsVariable: r.recipientsVariable,
    folderVariable: r.folderVariable,
    hubAuthorizedUserVariable: r.hubUserVariable,
  },
  hub: { folderID: r.hubFolderId, hubMaxFileOccurrences: r.hubMax },
  // An unchanged password is not sent: the stored one is kept.
  isOpenFilePasswordProtected: r.hasPassword || !!r.newPassword,
  ...(r.newPassword ? { fileOpenPassword: r.newPassword } : {}),
  storageServices: r.storage.map((s, order) => ({
    fileStorageServiceID: s.fileStorageServiceId,
    path: s.path,
    siteUrl: s.siteUrl,
    zipeFiles: s.zipFiles,
    order,
  })),
});

// A schedule's body is the draft's trigger less what only a reload event has (the item's fields are the schedule's names).
export const scheduleBody = ({
  key: _key,
  type: _type,
  appId: _appId,
  description: _description,
  ...schedule
}: TriggerItem) => ({
  ...schedule,
  execution: schedule.execution as 'Parallel' | 'Serial' | null,
  timeZone: schedule.timeZone ?? 'UTC',
});

const eventBody = (t: TriggerItem) => ({
  name: t.name,
  description: t.description,
  appId: t.appId ?? '',
  isActive: t.isActive,
  execution: t.execution as 'Parallel' | 'Serial' | null,
  priority: t.priority,
  startDate: t.startDate,
  endDate: t.endDate,
});

const withId = (key: string) => (isNewKey(key) ? {} : { id: key });

/**
 * The task as the draft holds it, in the shape `app.tasks.save` takes: the whole of it. The e-mail
 * goes only once someone changed it: a task never given one keeps none (its sender may not be
 * known yet, before a mail server is set up).
 */
const wholeTask = (base: TaskDraft, d: TaskDraft) => ({
  settings: d.settings,
  ...(JSON.stringify(base.email) === JSON.stringify(d.email)
    ? {}
    : { email: { ...d.email, ccBcc: !!(d.email.cc || d.email.bcc) } }),
  reports: d.reports.map((r) => ({ ...withId(r.key), ...reportBody(r) })),
  recipients: d.recipients.map((r) => ({ id: r.key, type: r.type, sendEmail: r.sendEmail, seeInHub: r.seeInHub })),
  schedules: d.triggers.filter((t) => t.type === 'Schedule').map((t) => ({ ...withId(t.key), ...scheduleBody(t) })),
  events: d.triggers.filter((t) => t.type !== 'Schedule').map((t) => ({ ...withId(t.key), ...eventBody(t) })),
});

/** The draft part a refused field belongs to: "settings", "email", "recipients" or an item's key. */
function partOf(d: TaskDraft, field: string): string {
  const [, part, index] = field.split('.');
  const item = (list: { key: string }[]) => list[Number(index)]?.key ?? part;
  if (part === 'reports') return item(d.reports);
  if (part === 'schedules') return item(d.triggers.filter((t) => t.type === 'Schedule'));
  if (part === 'events') return item(d.triggers.filter((t) => t.type !== 'Schedule'));
  return part ?? 'task';
}

/**
 * Writes the whole draft in one call: the engine stores all of it or, when a part is refused,
 * nothing, and names the part. Answers the problems by draft part (none when it was stored).
 */
export async function saveTaskDraft(taskId: string, base: TaskDraft, d: TaskDraft): Promise<SaveProblems> {
  const a = await invoke('app.tasks.save', { params: { id: taskId }, body: wholeTask(base, d) });
  if (a.ok) return {};
  const problems: SaveProblems = {};
  const parts = a.errorDetails.length ? a.errorDetails.map((e) => partOf(d, e.field)) : ['task'];
  for (const part of parts) problems[part] = problemOf(a);
  return problems;
}
