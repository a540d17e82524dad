import { nullIfRefused } from '../../../core/errors.js';
import { randomUUID } from 'node:crypto';
import { In } from 'typeorm';
import type { OpContext } from '../../../ops/context.js';
import { EMAIL_PATTERN, listEntries } from '../../../core/validation.js';
import { User, UserGroup, type UserRow } from '../../../model/users.entity.js';
import {
  TaskRecipient,
  TaskReport,
  type TaskReportOptions,
  type TaskReportRow,
  type TaskRow,
} from '../../../model/tasks.entity.js';
import type { RequestFile } from '../../../model/requests.entity.js';
import { defaultMailServer } from '../../mail/mail-servers.rules.js';
import { plainMessage } from '../../mail/plain-message.js';
import type { OutboxAttachment, OutboxRow } from '../../../model/mail.entity.js';
import { Report } from '../../../model/reports.entity.js';
import { reportApp } from '../../reports/reports.rules.js';
import { readRequestFile, zipRequestFiles } from '../../requests/request-output.js';
import type { Deliver } from './delivery.js';
import type { KeptFile } from '../../requests/request-output.js';

/** Who a task mails, and who it leaves out and why (the dry run and the log say the same). */
export interface MailAudience {
  to: { address: string; name: string }[];
  leftOut: { name: string; reason: string }[];
}

/**
 * The people a task mails: in test mode its test recipients only; otherwise its users and the
 * members of its groups whose recipient entry sends e-mail, each once, active and with an address.
 */
export async function taskAudience(ctx: Pick<OpContext, 'db'>, task: TaskRow): Promise<MailAudience> {
  if (task.testMode) {
    const list = listEntries(task.testModeRecipients);
    return {
      to: list.filter((a) => EMAIL_PATTERN.test(a)).map((a) => ({ address: a.toLowerCase(), name: a })),
      leftOut: list.filter((a) => !EMAIL_PATTERN.test(a)).map((a) => ({ name: a, reason: 'not an e-mail address' })),
    };
  }
  const entries = await ctx.db.getRepository(TaskRecipient).findBy({ taskId: task.id, sendEmail: true });
  const groupIds = entries.filter((e) => e.type === 'group').map((e) => e.recipientId);
  const members = groupIds.length ? await ctx.db.getRepository(UserGroup).findBy({ targetId: In(groupIds) }) : [];
  const userIds = [
    ...new Set([
      ...entries.filter((e) => e.type === 'user').map((e) => e.recipientId),
      ...members.map((m) => m.userId),
    ]),
  ];
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

/** What a message carries: its attachments and the HTML shown inline. */
interface MailContent {
  attachments: OutboxAttachment[];
  html: string | null;
}

/** How a task report's files travel by mail. */
export type MailOptions = Pick<TaskReportOptions, 'emailAttachment' | 'emailEmbedment' | 'zipEmailFiles'>;

/** Keeps a file a mail makes (a zip of a report's files) beside the run's other files. */
export type KeepFile = (file: KeptFile, taskReportId: string | null) => Promise<RequestFile>;

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
/** The report's own markup for a mail body: its styles and what its body holds, without scripts. */
function inlineHtml(doc: string) {
  const styles = [...doc.matchAll(/<style[^>]*>[\s\S]*?<\/style>/gi)].map((m) => m[0]).join('');
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(doc)?.[1] ?? doc;
  return styles + body.replace(/<script[\s\S]*?<\/script>/gi, '');
}

/**
 * Builds what one message carries from a set of files: per task report, attached as they are, or
 * zipped into one when it asks (the zip kept with the run's files, made once per set), or shown in
 * the HTML body when it embeds (an HTML report's markup, a PNG chart as an inline image; other
 * formats are attached, since a mail body cannot show them).
 */
function mailContent(
  ctx: OpContext,
  requestId: string,
  optionsOf: (taskReportId: string) => MailOptions | undefined,
  reportNames: Map<string, string>,
  keep: KeepFile,
  message: string,
) {
  const zips = new Map<string, Promise<RequestFile>>();
  const path = (f: RequestFile) => `files/requests/${requestId}/${f.name}`;
  return async (files: RequestFile[]): Promise<MailContent> => {
    const attachments: OutboxAttachment[] = [];
    const inline: string[] = [];
    const byReport = new Map<string, RequestFile[]>();
    for (const f of files) byReport.set(f.taskReportId ?? '', [...(byReport.get(f.taskReportId ?? '') ?? []), f]);
    for (const [trId, group] of byReport) {
      const o = optionsOf(trId);
      if (!o) continue;
      const attach: RequestFile[] = [];
      for (const f of group) {
        if (o.emailEmbedment && f.format === 'Html')
          inline.push(inlineHtml((await readRequestFile(ctx.files, requestId, f.name)).toString('utf8')));
        else if (o.emailEmbedment && f.format === 'Png') {
          const cid = `${randomUUID()}@broadsheet`;
          attachments.push({ fileName: f.name, path: path(f), cid });
          inline.push(`<p><img src="cid:${cid}" alt="${escapeHtml(f.name)}"></p>`);
        } else if (o.emailAttachment || o.emailEmbedment) attach.push(f);
      }
      if (o.zipEmailFiles && attach.length > 1) {
        const key = `${trId}:${attach
          .map((f) => f.name)
          .sort()
          .join('|')}`;
        if (!zips.has(key))
          zips.set(key, zipForMail(ctx, requestId, attach, keep, trId, reportNames.get(trId) ?? 'Report files'));
        const zip = await zips.get(key)!;
        attachments.push({ fileName: zip.name, path: path(zip) });
      } else attachments.push(...attach.map((f) => ({ fileName: f.name, path: path(f) })));
    }
    const html = inline.length ? `<div>${escapeHtml(message).replace(/\r?\n/g, '<br>')}</div>${inline.join('')}` : null;
    return { attachments, html };
  };
}

async function zipForMail(
  ctx: OpContext,
  requestId: string,
  files: RequestFile[],
  keep: KeepFile,
  taskReportId: string,
  reportName: string,
) {
  return keep(
    {
      name: `${reportName}.zip`,
      format: 'Zip',
      data: await zipRequestFiles(ctx.files, requestId, files),
      iteration: [],
    },
    taskReportId,
  );
}

/**
 * The addresses each file's recipients variable names (task reports that set one), for mails of
 * their own: each address gets only the files naming it.
 */
function dynamicRecipients(files: RequestFile[], taskReports: Map<string, TaskReportRow>, log: (line: string) => void) {
  const byAddress = new Map<string, RequestFile[]>();
  const invalid = new Set<string>();
  for (const f of files) {
    const variable = taskReports.get(f.taskReportId ?? '')?.options.recipientsVariable?.trim();
    if (!variable) continue;
    for (const a of listEntries(f.variables?.[variable]).map((a) => a.toLowerCase())) {
      if (!EMAIL_PATTERN.test(a)) invalid.add(a);
      else byAddress.set(a, [...(byAddress.get(a) ?? []), f]);
    }
  }
  if (invalid.size)
    log(`Not mailed to ${[...invalid].slice(0, 5).join(', ')}: not e-mail addresses (from a recipients variable)`);
  return byAddress;
}

/** The task's name and the run's date in a subject or message ({TaskName}, {Date}), and analytics variables written $(name). */
async function filler(
  ctx: OpContext,
  task: TaskRow,
  taskReports: TaskReportRow[],
  now: Date,
  texts: string[],
  log: (line: string) => void,
) {
  const names = [...new Set(texts.flatMap((t) => [...t.matchAll(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g)].map((m) => m[1])))];
  const values = new Map<string, string>();
  if (names.length && taskReports.length) {
    const report = await ctx.db.getRepository(Report).findOneBy({ id: taskReports[0].reportId });
    const appId = report ? await reportApp(ctx, report).then((x) => x.appId, nullIfRefused) : null;
    for (const n of names) {
      const value = appId ? await ctx.analytics.evaluate(appId, `$(${n})`).catch(nullIfRefused) : null;
      // Left empty in the mail, and said in the run's log: a name the app does not know is the user's to mend.
      if (value === null) log(`$(${n}) in the subject or message could not be read from the report's app: left empty`);
      values.set(
        n,
        value === null
          ? ''
          : typeof value === 'number'
            ? value.toLocaleString('en-US', { maximumFractionDigits: 2 })
            : value,
      );
    }
  }
  return (text: string) =>
    text
      .replace(/\{TaskName\}/gi, task.name)
      .replace(/\{Date\}/gi, now.toISOString().slice(0, 10))
      .replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (m, n: string) => values.get(n) ?? m);
}

/**
 * Makes a task run's mail and hands it to `post` (the runner writes it with the run's outcome): to
 * the task's recipients one mail to all or one each,
 * with the files of the task reports that attach or embed theirs; and to the addresses a recipients
 * variable names, one mail each with only their files. Answers a warning to put on the run, or null.
 */
export async function queueTaskMail(
  ctx: OpContext,
  task: TaskRow,
  requestId: string,
  files: RequestFile[],
  log: (line: string) => void,
  keep: KeepFile,
  post: (rows: OutboxRow[]) => void,
  untracked: MailOptions | null = null,
): Promise<string | null> {
  const email = task.email;
  if (!email || !email.isActive) {
    // Someone set recipients to be mailed: a run that mails none of them says so, in its log and on the run.
    const waiting = (await taskAudience(ctx, task)).to.length;
    if (!waiting) return null;
    log(`E-mail is off for this task: ${waiting} recipient${waiting === 1 ? ' was' : 's were'} not mailed`);
    return 'e-mail is off for this task, so its recipients were not mailed';
  }
  const audience = await taskAudience(ctx, task);
  for (const l of audience.leftOut) log(`Not mailed to ${l.name}: ${l.reason}`);
  const trs = await ctx.db.getRepository(TaskReport).findBy({ taskId: task.id });
  const taskReports = new Map(trs.map((r) => [r.id, r]));
  // Files of no task report (a subscribed chart) travel as `untracked` says.
  const optionsOf = (trId: string) =>
    taskReports.get(trId)?.options ?? (trId === '' ? (untracked ?? undefined) : undefined);
  const mailed = files.filter(
    (f) =>
      f.format !== 'Zip' &&
      (optionsOf(f.taskReportId ?? '')?.emailAttachment || optionsOf(f.taskReportId ?? '')?.emailEmbedment),
  );
  // Conditions may hold back every file: a mail announcing reports that are not there is not sent, unless the task asks.
  if (
    !mailed.length &&
    trs.some((tr) => tr.options.emailAttachment || tr.options.emailEmbedment) &&
    !email.sendWithoutFiles
  ) {
    log(
      "No mail sent: no report file was made to attach (conditions held back every one); the task's e-mail sends only with files",
    );
    return null;
  }
  let dynamic = dynamicRecipients(files, taskReports, log);
  if (task.testMode && dynamic.size) {
    log(`Test mode: ${dynamic.size} address${dynamic.size === 1 ? '' : 'es'} from recipients variables not mailed`);
    dynamic = new Map();
  }
  const regular = new Set(audience.to.map((r) => r.address.toLowerCase()));
  for (const a of regular) dynamic.delete(a);
  if (!audience.to.length && !dynamic.size) {
    log('Nobody to mail: the task has no recipient with an e-mail address');
    return 'nobody to mail';
  }
  // Asked once there is someone to mail: a task with nobody to mail says that, whatever the server.
  const server = await defaultMailServer(ctx);
  if (!server) {
    log('No mail server is set up: nothing was mailed');
    return 'no mail server is set up, so nothing was mailed';
  }
  const fromAddress = email.from || server.fromAddress || `broadsheet@${server.hostName}`;
  const now = ctx.now();
  const reports = await ctx.db.getRepository(Report).findBy({ id: In(trs.map((r) => r.reportId)) });
  const reportNames = new Map(trs.map((r) => [r.id, reports.find((x) => x.id === r.reportId)?.name ?? 'Report files']));
  const fill = await filler(ctx, task, trs, now, [email.subject, email.message ?? ''], log);
  // A value from the data must not start a header of its own.
  const subject = fill(email.subject).replace(/[\r\n]+/g, ' ');
  const text = fill(email.message ?? '');
  const cc = email.ccBcc ? listEntries(email.cc).filter((a) => EMAIL_PATTERN.test(a)) : [];
  const bcc = email.ccBcc ? listEntries(email.bcc).filter((a) => EMAIL_PATTERN.test(a)) : [];
  const content = mailContent(ctx, requestId, optionsOf, reportNames, keep, text);
  const message = (to: string[], c: MailContent, copies: boolean): OutboxRow =>
    plainMessage(server, now, {
      requestId,
      to,
      cc: copies ? cc : [],
      bcc: copies ? bcc : [],
      subject,
      text,
      html: c.html,
      attachments: c.attachments,
      fromAddress,
    });
  const rows: OutboxRow[] = [];
  if (audience.to.length) {
    const all = await content(mailed);
    if (email.oneToAll)
      rows.push(
        message(
          audience.to.map((r) => r.address),
          all,
          true,
        ),
      );
    else rows.push(...audience.to.map((r) => message([r.address], all, true)));
    log(
      `${rows.length} mail${rows.length === 1 ? '' : 's'} queued for ${audience.to.length} recipient${audience.to.length === 1 ? '' : 's'}${task.testMode ? ' (test mode)' : ''}, ${all.attachments.length} attachment${all.attachments.length === 1 ? '' : 's'} each`,
    );
  }
  // Copies go with the task's own mail only: a cc on every per-address mail would show them everyone's files.
  for (const [address, own] of dynamic)
    rows.push(
      message(
        [address],
        await content(own.filter((f) => mailed.includes(f))),
        !audience.to.length && rows.length === 0,
      ),
    );
  if (dynamic.size)
    log(
      `${dynamic.size} mail${dynamic.size === 1 ? '' : 's'} queued for the addresses the recipients variable named, each with its own files`,
    );
  post(rows);
  return null;
}

/** Mail as a delivery: the run's files at its end, through the outbox (a subscribed chart inline in the body). */
export const byMail: Deliver = async (d) => {
  const warning = await queueTaskMail(
    d.ctx,
    d.task,
    d.requestId,
    d.files,
    d.log,
    d.keep,
    d.post,
    d.inline ? { emailAttachment: false, emailEmbedment: true, zipEmailFiles: false } : null,
  );
  return warning ? [warning] : [];
};
