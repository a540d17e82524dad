import { invoke, type Answer } from '../../bridge';
import { plainMessage } from '../../components/field-errors';
import { isNewKey, reportLabel, type ReportItem, type TaskDraft, type TaskState, type TriggerItem } from './task-draft';

/** What Save could not write, by the draft part it belongs to ("settings", "email", "recipients" or an item's key). */
export type SaveProblems = Record<string, string>;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
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
const scheduleBody = ({
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

function saveTrigger(taskId: string, t: TriggerItem): Promise<Answer<{ id: string }>> {
  const fresh = isNewKey(t.key);
  if (t.type === 'Schedule') {
    return fresh
      ? invoke('v1.taskSchedules.create', { params: { taskId }, body: scheduleBody(t) })
      : invoke('v1.taskSchedules.update', { params: { taskId, taskScheduleId: t.key }, body: scheduleBody(t) });
  }
  return fresh
    ? invoke('v1.taskExternalEvents.create', { params: { taskId }, body: eventBody(t) })
    : invoke('v1.taskExternalEvents.update', { params: { taskId, externalEventId: t.key }, body: eventBody(t) });
}

/**
 * Writes what changed between the baseline and the draft, part by part: settings, e-mail, removals
 * first (so an entry removed and added again is not a duplicate), then each changed item. A part the
 * engine refuses is named in the answer and stays in the draft; the rest is written.
 * Answers the problems and, for new items that were written, their new ids.
 */
export async function saveTaskDraft(
  taskId: string,
  base: TaskDraft,
  d: TaskDraft,
): Promise<{ problems: SaveProblems; ids: Record<string, string> }> {
  const problems: SaveProblems = {};
  const ids: Record<string, string> = {};
  const check = (part: string, a: Answer<unknown>) => {
    if (!a.ok) problems[part] = problemOf(a);
    return a.ok;
  };
  if (!same(base.settings, d.settings))
    check('settings', await invoke('v1.tasks.update', { params: { id: taskId }, body: d.settings }));
  if (!same(base.email, d.email)) {
    const e = d.email;
    check(
      'email',
      await invoke('v2.tasks.updateEmail', { params: { id: taskId }, body: { ...e, ccBcc: !!(e.cc || e.bcc) } }),
    );
  }

  const gone = <T extends { key: string }>(list: T[], now: T[]) =>
    list.filter((x) => !now.some((y) => y.key === x.key)).map((x) => x.key);
  const goneReports = gone(base.reports, d.reports);
  if (goneReports.length)
    check('reports', await invoke('v2.tasks.deleteReports', { params: { id: taskId }, body: goneReports }));
  const goneTriggers = gone(base.triggers, d.triggers);
  if (goneTriggers.length)
    check('triggers', await invoke('v2.tasks.deleteTriggers', { params: { id: taskId }, body: goneTriggers }));
  const goneRecipients = gone(base.recipients, d.recipients);
  if (goneRecipients.length)
    check('recipients', await invoke('v2.tasks.deleteRecipients', { params: { id: taskId }, body: goneRecipients }));

  for (const r of d.reports) {
    const before = base.reports.find((x) => x.key === r.key);
    if (before && same(before, r)) continue;
    const a = await invoke('v2.tasks.upsertReport', {
      params: { id: taskId },
      query: isNewKey(r.key) ? {} : { taskReportID: r.key },
      body: reportBody(r),
    });
    if (check(r.key, a) && a.ok) ids[r.key] = a.data.id;
    else problems[r.key] = `${reportLabel(r)}: ${problems[r.key]}`;
  }
  const changedRecipients = d.recipients.filter(
    (r) =>
      !same(
        base.recipients.find((x) => x.key === r.key),
        r,
      ),
  );
  if (changedRecipients.length) {
    check(
      'recipients',
      await invoke('v1.taskRecipients.add', {
        params: { taskId },
        body: changedRecipients.map((r) => ({ id: r.key, type: r.type, sendEmail: r.sendEmail, seeInHub: r.seeInHub })),
      }),
    );
  }
  for (const t of d.triggers) {
    const before = base.triggers.find((x) => x.key === t.key);
    if (before && same(before, t)) continue;
    const a = await saveTrigger(taskId, t);
    if (check(t.key, a) && a.ok) ids[t.key] = a.data.id;
    else problems[t.key] = `“${t.name}”: ${problems[t.key]}`;
  }
  return { problems, ids };
}

/**
 * The draft after a Save: what was written is taken as stored (new items with their ids), what was
 * refused is kept as edited, and what someone else added meanwhile joins the lists.
 */
export function rebaseTaskDraft(
  stored: TaskState,
  base: TaskDraft,
  d: TaskDraft,
  outcome: { problems: SaveProblems; ids: Record<string, string> },
): TaskDraft {
  const s = stored.draft;
  const merge = <T extends { key: string }>(now: T[], was: T[], server: T[]) => {
    const kept = now.flatMap((x) => {
      if (outcome.problems[x.key]) return [x];
      const id = outcome.ids[x.key] ?? x.key;
      const found = server.find((y) => y.key === id);
      return found ? [found] : [];
    });
    const others = server.filter((y) => !kept.some((k) => k.key === y.key) && !was.some((w) => w.key === y.key));
    return [...kept, ...others];
  };
  return {
    settings: outcome.problems.settings ? d.settings : s.settings,
    email: outcome.problems.email ? d.email : s.email,
    reports: merge(d.reports, base.reports, s.reports),
    recipients: outcome.problems.recipients ? d.recipients : s.recipients,
    triggers: merge(d.triggers, base.triggers, s.triggers),
  };
}
