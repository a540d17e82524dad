import { In } from 'typeorm';
import type { OpContext } from '../../../ops/context.js';
import { User, UserGroup, type UserRow } from '../../../model/users.entity.js';
import { Group } from '../../../model/groups.entity.js';
import { Report } from '../../../model/reports.entity.js';
import { TaskRecipient, TaskReport, type TaskReportRow } from '../../../model/tasks.entity.js';
import { evaluateConditions } from '../../conditions/condition-evaluation.js';
import { reachableTask } from '../../tasks/tasks.rules.js';
import { defaultMailServer } from '../../mail/mail-servers.rules.js';
import { taskAudience } from './task-mail.js';

/** One person in a dry run: how they are reached, what they get, or why they are left out. */
export interface DryRunRecipient {
  name: string;
  email: string | null;
  /** The task's user entry, or the groups that bring them in. */
  via: string[];
  byEmail: boolean;
  inHub: boolean;
  /** Why they get nothing by e-mail or in the hub (empty when they get something both ways). */
  notes: string[];
}

/**
 * Who would receive what, before anything is sent: every user the task reaches directly or through
 * a group, with the reports and formats they would get, by e-mail and in the hub, and the reason
 * for anything they would not get (no address, inactive, e-mail off for their entry, not in the
 * hub). Who is mailed is the run's own answer (`taskAudience`), test mode included, so the two
 * cannot disagree.
 */
export async function dryRun(ctx: OpContext, taskId: string) {
  const task = await reachableTask(ctx, taskId);
  const taskReports = await ctx.db
    .getRepository(TaskReport)
    .find({ where: { taskId: task.id }, order: { createdDate: 'ASC' } });
  const reports = taskReports.length
    ? await ctx.db.getRepository(Report).findBy({ id: In(taskReports.map((t) => t.reportId)) })
    : [];
  const files = await Promise.all(
    taskReports.map(async (tr) => {
      const r = reports.find((x) => x.id === tr.reportId);
      return {
        report: r?.name ?? 'a deleted report',
        format: tr.format,
        attached: tr.options.emailAttachment || tr.options.emailEmbedment,
        perIterationValue: !!r?.isIteration,
        conditions: tr.options.conditionIds.length,
        conditionsNow: await conditionsNow(ctx, tr, !!r?.isIteration),
      };
    }),
  );
  const mailOn = !!task.email?.isActive;
  const server = await defaultMailServer(ctx);
  const warnings: string[] = [];
  const information: string[] = [];
  if (!taskReports.length) warnings.push('The task has no reports: a run makes nothing.');
  for (const tr of taskReports) {
    const name = reports.find((x) => x.id === tr.reportId)?.name ?? 'a deleted report';
    if (tr.options.recipientsVariable)
      information.push(
        `“${name}” also mails each address its variable ${tr.options.recipientsVariable} names for an iteration value, with only that value's file: known when the run reads the data.`,
      );
    if (tr.options.publishToServiceHub && tr.options.hubAuthorizedUserVariable)
      information.push(
        `“${name}” is published to the hub for the users its variable ${tr.options.hubAuthorizedUserVariable} names, each seeing only their own files.`,
      );
  }
  if (
    mailOn &&
    !task.email?.sendWithoutFiles &&
    taskReports.some(
      (tr) => tr.options.conditionIds.length && (tr.options.emailAttachment || tr.options.emailEmbedment),
    )
  )
    information.push(
      "When conditions hold back every file, no mail is sent (the task's e-mail sends only with files).",
    );
  for (const f of files)
    if (f.conditionsNow === 'fail')
      warnings.push(`“${f.report}” would be left out now: its conditions fail on today's data.`);
  if (!mailOn) warnings.push('E-mail is off for this task: nobody is mailed.');
  else if (!server) warnings.push('No mail server is set up: nobody can be mailed.');
  const audience = await taskAudience(ctx, task);
  const mailed = new Set(audience.to.map((a) => a.address.toLowerCase()));
  if (task.testMode) {
    return {
      taskId: task.id,
      taskName: task.name,
      testMode: true,
      files,
      warnings,
      information: [
        ...information,
        'Test mode: only the test recipients are mailed, and nobody sees the files in the hub.',
      ],
      recipients: [
        ...audience.to.map(
          (a): DryRunRecipient => ({
            name: a.name,
            email: a.address,
            via: ['test recipients'],
            byEmail: mailOn && !!server,
            inHub: false,
            notes: [],
          }),
        ),
        ...audience.leftOut.map(
          (l): DryRunRecipient => ({
            name: l.name,
            email: null,
            via: ['test recipients'],
            byEmail: false,
            inHub: false,
            notes: [l.reason],
          }),
        ),
      ],
    };
  }
  const entries = await ctx.db.getRepository(TaskRecipient).findBy({ taskId: task.id });
  // "In the hub" on a recipient shows them what the task publishes: nothing, when no report is published.
  const published = taskReports.some((tr) => tr.options.publishToServiceHub);
  if (!published && entries.some((e) => e.seeInHub))
    warnings.push('Recipients are set to see the files in the hub, but no report of the task is published to it.');
  const groupEntries = entries.filter((e) => e.type === 'group');
  const groups = groupEntries.length
    ? await ctx.db.getRepository(Group).findBy({ id: In(groupEntries.map((g) => g.recipientId)) })
    : [];
  const members = groupEntries.length
    ? await ctx.db.getRepository(UserGroup).findBy({ targetId: In(groupEntries.map((g) => g.recipientId)) })
    : [];
  const userIds = [
    ...new Set([
      ...entries.filter((e) => e.type === 'user').map((e) => e.recipientId),
      ...members.map((m) => m.userId),
    ]),
  ];
  const users = userIds.length ? await ctx.db.getRepository(User).findBy({ id: In(userIds) }) : [];
  const name = (u: UserRow) => `${u.firstName} ${u.lastName}`.trim();
  const recipients = users
    .map((u): DryRunRecipient => {
      const direct = entries.find((e) => e.type === 'user' && e.recipientId === u.id);
      const through = groupEntries.filter((g) =>
        members.some((m) => m.userId === u.id && m.targetId === g.recipientId),
      );
      const ways = [...(direct ? [direct] : []), ...through];
      const wantsEmail = ways.some((w) => w.sendEmail);
      const wantsHub = ways.some((w) => w.seeInHub);
      const notes: string[] = [];
      if (!u.isActive) notes.push('inactive: gets nothing');
      if (!u.email) notes.push('no e-mail address');
      if (!wantsEmail) notes.push('e-mail is off for their entry');
      if (!wantsHub) notes.push('not set to see the files in the hub');
      else if (!published) notes.push('no report of the task is published to the hub');
      return {
        name: name(u),
        email: u.email,
        via: [
          ...(direct ? ['the task'] : []),
          ...through.map((g) => `group ${groups.find((x) => x.id === g.recipientId)?.name ?? ''}`.trim()),
        ],
        byEmail: !!u.email && mailed.has(u.email.toLowerCase()) && mailOn && !!server,
        inHub: u.isActive && wantsHub && published,
        notes,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  return { taskId: task.id, taskName: task.name, testMode: false, files, warnings, information, recipients };
}

/**
 * What a task report's conditions answer on the data as it is now, as the run would ask them (the
 * task report's own selections): asked once, or left to the run when they are asked per iteration
 * value (the condition's page tests one value).
 */
async function conditionsNow(
  ctx: OpContext,
  tr: TaskReportRow,
  iterates: boolean,
): Promise<'hold' | 'fail' | 'perValue' | null> {
  if (!tr.options.conditionIds.length) return null;
  if (tr.options.evaluateConditionForEachIteration && iterates) return 'perValue';
  const outcomes = await evaluateConditions(ctx, tr.options.conditionIds, tr.options.selections ?? {});
  return outcomes.every((o) => o.holds) ? 'hold' : 'fail';
}
