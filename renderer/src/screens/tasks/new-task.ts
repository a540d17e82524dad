import { invoke, type Answer } from '../../bridge';
import { useSession } from '../../stores/session/session.store';
import type { ReportChoice } from './task-options';

/**
 * A task made on these screens mails its recipients, as its page shows from the first moment: its
 * e-mail is stored on at once, from the mail server's sender (an empty sender is read at send
 * time), with the task's name as subject. The API's own tasks start without e-mail, as the
 * reference's do.
 */
/** A new task's message; the engine fills {TaskName} and {Date} at send time. */
export const NEW_TASK_MESSAGE = 'Here are the reports of {TaskName}, made on {Date}.';

export const taskEmailOn = (t: { id: string; name: string }) =>
  invoke('v1.taskEmail.update', {
    params: { taskId: t.id },
    body: { taskId: t.id, from: null, subject: t.name, message: NEW_TASK_MESSAGE, isActive: true },
  });

/** The hub's top folder, where a new task report is published unless told otherwise (null: none can be read). */
export async function hubRootId(): Promise<string | null> {
  const a = await invoke('v1.hubFolders.list', { query: { get_all: true, sort_by: 'ParentUrl' } });
  return a.ok ? (a.data.find((f) => f.isRoot)?.id ?? null) : null;
}

const failed = (a: Answer<unknown>) => (a.ok ? null : (a.error ?? 'It could not be saved.'));

/**
 * "Distribute this report": a task in the report's project that makes it, attached to the task's
 * e-mail and published to the hub's top folder, mailed first to the person who made it (they add
 * the others on the task page). Answers the new task's id, or why it could not be made whole.
 */
export async function distributeReport(
  projectId: string,
  report: Pick<ReportChoice, 'id' | 'name' | 'formats'>,
): Promise<{ taskId: string } | { problem: string; taskId?: string }> {
  const made = await invoke('v1.tasks.create', { body: { name: `Distribute ${report.name}`, projectId } });
  if (!made.ok) return { problem: made.error ?? 'The task could not be made.' };
  const taskId = made.data.id;
  const me = useSession.getState().me?.user.id;
  const format = report.formats.includes('Pdf') ? 'Pdf' : (report.formats[0] ?? 'Pdf');
  const folder = await hubRootId();
  const steps = [
    () => taskEmailOn(made.data),
    () =>
      invoke('v2.tasks.upsertReport', {
        params: { id: taskId },
        query: {},
        body: {
          reportID: report.id,
          format,
          emailAttachment: true,
          emailEmbedment: false,
          hub: folder ? { folderID: folder, hubMaxFileOccurrences: 0 } : null,
        },
      }),
    ...(me
      ? [
          () =>
            invoke('v1.taskRecipients.add', {
              params: { taskId },
              body: [{ id: me, type: 'user' as const, sendEmail: true, seeInHub: true }],
            }),
        ]
      : []),
  ];
  for (const step of steps) {
    const problem = failed(await step());
    if (problem) return { problem, taskId };
  }
  return { taskId };
}
