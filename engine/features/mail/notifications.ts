import type { OpContext } from '../../ops/context.js';
import { EMAIL_PATTERN, listEntries } from '../../core/validation.js';
import { Task } from '../tasks/tasks.entity.js';
import type { RequestRow } from '../requests/requests.entity.js';
import { defaultMailServer } from './mail-servers.rules.js';
import { plainMessage } from './plain-message.js';

const list = (text: string | null) => listEntries(text).filter((a) => EMAIL_PATTERN.test(a));

/**
 * Tells a task's notification recipients how a run ended, when the task asks for that outcome
 * (error, warning or success), through the outbox like any mail. Answers whether one was queued.
 */
export async function queueRunNotification(ctx: OpContext, run: Pick<RequestRow, 'id' | 'taskId' | 'title'>, status: string, message: string | null, fileCount: number): Promise<boolean> {
  if (!run.taskId) return false;
  const task = await ctx.db.getRepository(Task).findOneBy({ id: run.taskId });
  if (!task?.sendNotifications) return false;
  const wanted = (status === 'failed' && task.notifyIfError) || (status === 'warning' && task.notifyIfWarning) || (status === 'completed' && task.notifyIfSuccess);
  const to = list(task.notificationRecipients);
  if (!wanted || !to.length) return false;
  const server = await defaultMailServer(ctx);
  if (!server) return false;
  const now = ctx.now();
  const outcome = status === 'failed' ? 'failed' : status === 'warning' ? 'ended with a warning' : 'completed';
  await ctx.outbox.enqueue([plainMessage(server, now, {
    requestId: run.id, to, cc: list(task.notificationCc), bcc: list(task.notificationBcc),
    subject: `Task “${task.name}” ${outcome}`,
    text: `The run of the task “${task.name}” ${outcome} at ${now.toISOString().replace('T', ' ').slice(0, 16)} UTC with ${fileCount} file${fileCount === 1 ? '' : 's'}.${message ? `\n\n${message}` : ''}\n\nThe run's log is on the monitoring screen.`,
  })]);
  return true;
}
