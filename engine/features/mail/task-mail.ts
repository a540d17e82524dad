import { randomUUID } from 'node:crypto';
import { In } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { newBase } from '../../core/entity-base.js';
import { EMAIL_PATTERN } from '../../core/validation.js';
import { User, UserGroup, type UserRow } from '../users/users.entity.js';
import { TaskRecipient, TaskReport, type TaskRow } from '../tasks/tasks.entity.js';
import type { RequestFile } from '../requests/requests.entity.js';
import { defaultMailServer } from './mail-servers.rules.js';
import type { OutboxRow } from './mail.entity.js';

/** Who a task mails, and who it leaves out and why (the dry run and the log say the same). */
export interface MailAudience {
  to: { address: string; name: string }[];
  leftOut: { name: string; reason: string }[];
}

const addresses = (text: string | null) => (text ?? '').split(/[;,]/).map((x) => x.trim()).filter(Boolean);

/**
 * The people a task mails: in test mode its test recipients only; otherwise its users and the
 * members of its groups whose recipient entry sends e-mail, each once, active and with an address.
 */
export async function taskAudience(ctx: Pick<OpContext, 'db'>, task: TaskRow): Promise<MailAudience> {
  if (task.testMode) {
    const list = addresses(task.testModeRecipients);
    return { to: list.filter((a) => EMAIL_PATTERN.test(a)).map((a) => ({ address: a.toLowerCase(), name: a })), leftOut: list.filter((a) => !EMAIL_PATTERN.test(a)).map((a) => ({ name: a, reason: 'not an e-mail address' })) };
  }
  const entries = await ctx.db.getRepository(TaskRecipient).findBy({ taskId: task.id, sendEmail: true });
  const groupIds = entries.filter((e) => e.type === 'group').map((e) => e.recipientId);
  const members = groupIds.length ? await ctx.db.getRepository(UserGroup).findBy({ targetId: In(groupIds) }) : [];
  const userIds = [...new Set([...entries.filter((e) => e.type === 'user').map((e) => e.recipientId), ...members.map((m) => m.userId)])];
  const users = userIds.length ? await ctx.db.getRepository(User).findBy({ id: In(userIds) }) : [];
  const out: MailAudience = { to: [], leftOut: [] };
  const seen = new Set<string>();
  const name = (u: UserRow) => `${u.firstName} ${u.lastName}`.trim();
  for (const u of users.sort((a, b) => name(a).localeCompare(name(b)))) {
    if (!u.isActive) out.leftOut.push({ name: name(u), reason: 'inactive' });
    else if (!u.email) out.leftOut.push({ name: name(u), reason: 'no e-mail address' });
    else if (!seen.has(u.email)) {
      seen.add(u.email);
      out.to.push({ address: u.email, name: name(u) });
    }
  }
  return out;
}

/** The task's name and the run's date in a subject or message: {TaskName}, {Date}. */
function fill(text: string, task: TaskRow, now: Date) {
  return text.replace(/\{TaskName\}/gi, task.name).replace(/\{Date\}/gi, now.toISOString().slice(0, 10));
}

/**
 * Writes a task run's mail to the outbox: one mail to all or one each, with the files of the task
 * reports that attach theirs. Answers a warning to put on the run, or null.
 */
export async function queueTaskMail(ctx: OpContext, task: TaskRow, requestId: string, files: RequestFile[], log: (line: string) => void): Promise<string | null> {
  const email = task.email;
  if (!email || !email.isActive) return null;
  const server = await defaultMailServer(ctx);
  if (!server) {
    log('No mail server is set up: nothing was mailed');
    return 'no mail server is set up, so nothing was mailed';
  }
  const audience = await taskAudience(ctx, task);
  for (const l of audience.leftOut) log(`Not mailed to ${l.name}: ${l.reason}`);
  if (!audience.to.length) {
    log('Nobody to mail: the task has no recipient with an e-mail address');
    return 'nobody to mail';
  }
  const attaching = new Set((await ctx.db.getRepository(TaskReport).findBy({ taskId: task.id })).filter((r) => r.options.emailAttachment).map((r) => r.id));
  const attachments = files.filter((f) => f.taskReportId && attaching.has(f.taskReportId)).map((f) => ({ fileName: f.name, path: `files/requests/${requestId}/${f.name}` }));
  const fromAddress = email.from || server.fromAddress || `broadsheet@${server.hostName}`;
  const from = `"${server.fromName.replace(/["\\]/g, '')}" <${fromAddress}>`;
  const domain = fromAddress.split('@')[1] ?? 'broadsheet.local';
  const now = ctx.now();
  const subject = fill(email.subject, task, now);
  const text = fill(email.message ?? '', task, now);
  const cc = email.ccBcc ? addresses(email.cc).filter((a) => EMAIL_PATTERN.test(a)) : [];
  const bcc = email.ccBcc ? addresses(email.bcc).filter((a) => EMAIL_PATTERN.test(a)) : [];
  const message = (to: string[]): OutboxRow => ({
    ...newBase(now), requestId, mailServerId: server.id, messageId: `<${randomUUID()}@${domain}>`, from, to, cc, bcc, subject, text, html: null,
    attachments, status: 'queued', attempts: 0, nextAttemptAt: now, lastError: null, accepted: [], rejected: [], uncertain: false, sentAt: null,
  });
  const rows = email.oneToAll ? [message(audience.to.map((r) => r.address))] : audience.to.map((r) => message([r.address]));
  await ctx.outbox.enqueue(rows);
  log(`${rows.length} mail${rows.length === 1 ? '' : 's'} queued for ${audience.to.length} recipient${audience.to.length === 1 ? '' : 's'}${task.testMode ? ' (test mode)' : ''}, ${attachments.length} attachment${attachments.length === 1 ? '' : 's'} each`);
  return null;
}
