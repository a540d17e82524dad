import type { OpContext } from '../../../ops/context.js';
import { EMAIL_PATTERN, listEntries } from '../../../core/validation.js';
import { Task } from '../../../model/tasks.entity.js';
import type { RequestRow } from '../../../model/requests.entity.js';
import { defaultMailServer } from '../../mail/mail-servers.rules.js';
import { plainMessage } from '../../mail/plain-message.js';
import type { OutboxRow } from '../../../model/mail.entity.js';

const list = (text: string | null) => listEntries(text).filter((a) => EMAIL_PATTERN.test(a));

/**
 * The mail that tells a task's notification recipients how a run ended, when the task asks for
 * that outcome (error, warning or success), or null. The runner writes it to the outbox in the same
 * transaction as the run's outcome: a run that ended has told whom it should, even across a crash.
 */
export async function runNotificationMail(
  ctx: Pick<OpContext, 'db' | 'now'>,
  run: Pick<RequestRow, 'id' | 'taskId' | 'title'>,
  status: string,
  message: string | null,
  fileCount: number,
): Promise<OutboxRow | null> {
  if (!run.taskId) return null;
  const task = await ctx.db.getRepository(Task).findOneBy({ id: run.taskId });
  if (!task?.sendNotifications) return null;
  const wanted =
    (status === 'failed' && task.notifyIfError) ||
    (status === 'warning' && task.notifyIfWarning) ||
    (status === 'completed' && task.notifyIfSuccess);
  const to = list(task.notificationRecipients);
  if (!wanted || !to.length) return null;
  const server = await defaultMailServer(ctx);
  if (!server) return null;
  const now = ctx.now();
  const outcome = status === 'failed' ? 'failed' : status === 'warning' ? 'ended with a warning' : 'completed';
  return plainMessage(server, now, {
    requestId: run.id,
    to,
    cc: list(task.notificationCc),
    bcc: list(task.notificationBcc),
    subject: `Task “${task.name}” ${outcome}`,
    text: `The run of the task “${task.name}” ${outcome} at ${now.toISOString().replace('T', ' ').slice(0, 16)} UTC with ${fileCount} file${fileCount === 1 ? '' : 's'}.${message ? `\n\n${message}` : ''}\n\nThe run's log is on the monitoring screen.`,
  });
}
