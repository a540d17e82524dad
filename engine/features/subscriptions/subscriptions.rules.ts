import { In, type EntityManager } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { me } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput, notFound, nullIfNotFound, nullIfRefused, type FieldError } from '../../core/errors.js';
import { EMAIL_PATTERN, listEntries } from '../../core/validation.js';
import { pageOf, type ListQuery, type ListSpec } from '../../core/list-query.js';
import { Page } from '../../core/envelope.js';
import { Report, type ReportRow } from '../../model/reports.entity.js';
import { reachableReport, reportApp } from '../reports/reports.rules.js';
import { User } from '../../model/users.entity.js';
import { visibleFiles } from '../hub/hub-visibility.js';
import {
  Task,
  TaskRecipient,
  TaskReport,
  TaskTrigger,
  type TaskReportRow,
  type TaskRow,
  type TaskTriggerRow,
} from '../../model/tasks.entity.js';
import { DEFAULT_TASK_REPORT_OPTIONS, offeredFormat } from '../tasks/task-reports.rules.js';
import { removeOwnedTasks, writeOwnedTask } from '../tasks/owned-tasks.js';
import { externalEventTrigger, scheduleTrigger, triggerDto } from '../tasks/task-triggers.rules.js';
import {
  Subscription,
  type SubscribedChart,
  type SubscribedReport,
  type SubscriptionRow,
} from '../../model/subscriptions.entity.js';
import type { SubscriptionInput } from './subscriptions.inputs.js';
import { selectionsOf } from './subscription-selections.js';
import { filterDto, resolveFilter } from './subscription-filter.js';
import { jsonText } from '../../core/sql.js';
import { isTenantAdministrator } from '../../access/tenant-administrator.js';

const FIRE_TIMES = {
  last: '(SELECT MAX(tt."lastFireTime") FROM task_triggers tt WHERE tt."taskId" = s."taskId")',
  next: '(SELECT MIN(tt."nextFireTime") FROM task_triggers tt WHERE tt."taskId" = s."taskId" AND tt."isActive" = TRUE)',
};

export const LIST_OWN_SUBSCRIPTIONS: ListSpec = {
  sort: {
    subscribeTo: 'LOWER(s."subscribeTo")',
    Type: 's.type',
    Subject: (db) => `LOWER(${jsonText(db, 's.email', 'subject')})`,
    triggerType: 's."triggerType"',
    lastExecutionDate: FIRE_TIMES.last,
    nextExecutionDate: FIRE_TIMES.next,
  },
  defaultSort: { by: 'subscribeTo', direction: 'asc' },
  text: { subscribe_to: 's."subscribeTo"', type: 's.type' },
};

export const LIST_SITE_SUBSCRIPTIONS: ListSpec = {
  sort: { name: 'LOWER(s.name)', createddate: 's."createdDate"', modifieddate: 's."modifiedDate"' },
  defaultSort: { by: 'name', direction: 'asc' },
  text: { name: 's.name' },
};

/** A century: a subscription's schedule or event runs until it is changed or deleted. */
const OPEN_ENDED_MS = 100 * 365.25 * 24 * 3600_000;

/** What a subscription may be made of: a report the caller reaches, with the filters it must keep. */
interface Source {
  report: ReportRow;
  /** The published task report's filters (a hub user's view of it), or none for those who reach the report itself. */
  from: TaskReportRow | null;
}

/**
 * A report the caller may subscribe to: one of a project their roles reach when they may view
 * projects, or one published to them in the hub as a file for everyone it is shown to (not a file
 * dedicated to some users). A hub user's subscription keeps the filters and protection the task that
 * published it applied, so it never shows more than the hub showed them.
 */
async function subscribable(ctx: OpContext, id: string, field: string): Promise<Source> {
  if (me(ctx).permissions.viewProject) {
    // Not reached by their roles: perhaps published to them. Reached but refused (a member flag): that refusal stands.
    const report = await reachableReport(ctx, id).catch(nullIfNotFound);
    if (report) return { report, from: null };
  }
  const file = await visibleFiles(ctx)
    .andWhere("f.kind <> 'dedicated'")
    .andWhere('f."reportId" = :reportId', { reportId: id })
    .orderBy('f."modifiedDate"', 'DESC')
    .getOne();
  const from = file ? await ctx.db.getRepository(TaskReport).findOneBy({ id: file.taskReportId }) : null;
  const report = from ? await ctx.db.getRepository(Report).findOneBy({ id: from.reportId }) : null;
  if (!report || !from)
    throw badInput(`Report ${id} is not published to you`, [
      { field, message: 'must be a report published to you in the hub' },
    ]);
  return { report, from };
}

/** The field names of selections, checked against the app: a missing one is a 400 naming it. */
function checkFields(
  fields: { name: string }[],
  selections: { fieldName: string }[],
  where: string,
  errors: FieldError[],
) {
  selections.forEach((s, i) => {
    if (!fields.some((f) => f.name.toLowerCase() === s.fieldName.toLowerCase()))
      errors.push({ field: `${where}.${i}.fieldName`, message: `is not a field of the app ("${s.fieldName}")` });
  });
}

const cleanSelections = (list: { fieldName: string; selectedValues: string[] }[] | null | undefined) =>
  (list ?? []).map((s) => ({ fieldName: s.fieldName, selectedValues: s.selectedValues }));

/** Everything a subscription needs, checked: its reports or chart, the project its task lives in. */
async function resolveInput(ctx: OpContext, f: SubscriptionInput) {
  const errors: FieldError[] = [];
  const shared = cleanSelections(f.filter?.selections);
  const reports: { entry: SubscribedReport; source: Source; appId: string; formats: string[] }[] = [];
  let chart: SubscribedChart | null = null;
  let projectId: string | null = null;
  let eventAppId: string | null = null;
  if (f.type === 'AnalyticsEntity') {
    const e = f.analyticsEntity;
    if (!e)
      throw badInput('A subscription to a chart names it', [
        { field: 'body.analyticsEntity', message: 'is required when type is AnalyticsEntity' },
      ]);
    const source = await chartSource(ctx, e.appId);
    const meta = await ctx.analytics.meta(e.appId);
    if (!meta.charts.some((c) => c.id === e.id))
      throw badInput(`The chart ${e.id} is not in the app`, [
        { field: 'body.analyticsEntity.id', message: `must be a chart of the app "${meta.name}"` },
      ]);
    checkFields(meta.fields, shared, 'body.filter.selections', errors);
    const { selections, kept } = resolveFilter(meta, f.filter, shared, 'body.filter', errors);
    chart = {
      id: e.id,
      appId: e.appId,
      type: e.type ?? null,
      format: 'png',
      width: e.width ?? 800,
      height: e.height ?? 450,
      selections,
      filterIds: [...source.report.filterIds, ...(source.from?.options.filterIds ?? [])],
      serverAddress: e.serverAddress ?? null,
      filter: kept,
    };
    projectId = source.report.projectId;
    eventAppId = e.appId;
  } else {
    const list = f.reports ?? [];
    if (!list.length)
      throw badInput('A subscription to reports names them', [
        { field: 'body.reports', message: `is required when type is ${f.type}` },
      ]);
    if (f.type === 'Report' && list.length > 1)
      throw badInput('A subscription of type Report receives one report', [
        { field: 'body.reports', message: 'must hold one report (use MultipleReports for more)' },
      ]);
    for (const [i, r] of list.entries()) {
      const source = await subscribable(ctx, r.id, `body.reports.${i}.id`);
      const formats = r.formats.map((x, k) => offeredFormat(source.report, x, `body.reports.${i}.formats.${k}`));
      const { appId, meta } = await reportApp(ctx, source.report);
      const own = r.filter?.selections ? cleanSelections(r.filter.selections) : shared;
      checkFields(
        meta.fields,
        own,
        r.filter?.selections ? `body.reports.${i}.filter.selections` : 'body.filter.selections',
        errors,
      );
      // The report's own filter, or the subscription's shared one.
      const { selections, kept } = r.filter
        ? resolveFilter(meta, r.filter, own, `body.reports.${i}.filter`, errors)
        : resolveFilter(meta, f.filter, own, 'body.filter', errors);
      reports.push({
        entry: {
          id: r.id,
          formats,
          zipEmailFiles: r.zipEmailFiles ?? false,
          emailAttachment: r.emailAttachment ?? !r.emailEmbedment,
          emailEmbedment: r.emailEmbedment ?? false,
          selections,
          filter: kept,
        },
        source,
        appId,
        formats,
      });
    }
    projectId = reports[0].source.report.projectId;
    eventAppId = reports[0].appId;
  }
  for (const key of ['bc', 'bcc'] as const) {
    const bad = listEntries(f.email[key]).filter((a) => !EMAIL_PATTERN.test(a));
    if (bad.length)
      errors.push({ field: `body.email.${key}`, message: `must list e-mail addresses ("${bad[0]}" is not one)` });
  }
  if (f.triggerType === 'Schedule' && !f.schedule)
    errors.push({ field: 'body.schedule', message: 'is required when triggerType is Schedule' });
  const recipients = await recipientsOf(ctx, f, errors);
  if (errors.length) throw badInput('The subscription is not valid', errors);
  return { reports, chart, projectId: projectId!, eventAppId: f.externalEvent?.appId || eventAppId, recipients };
}

/** A chart's app must back a report the caller may subscribe to (the first found gives its project and filters). */
async function chartSource(ctx: OpContext, appId: string): Promise<Source> {
  const ids = new Set<string>();
  const published = await visibleFiles(ctx)
    .andWhere("f.kind <> 'dedicated'")
    .select('f."reportId"', 'reportId')
    .distinct(true)
    .getRawMany<{ reportId: string }>();
  published.forEach((x) => ids.add(x.reportId));
  if (me(ctx).permissions.viewProject) {
    const p = me(ctx);
    const own = await ctx.db.getRepository(Report).find({ select: { id: true, projectId: true } });
    own.filter((r) => p.allProjects || p.projectIds.includes(r.projectId)).forEach((r) => ids.add(r.id));
  }
  // The candidates read at once (not one query each); their apps are then asked in turn until one matches.
  const found = ids.size ? await ctx.db.getRepository(Report).findBy({ id: In([...ids]) }) : [];
  const candidates = [...ids].map((id) => found.find((r) => r.id === id)).filter((r) => !!r);
  for (const report of candidates) {
    const id = report.id;
    if (!report.connectionId) continue;
    const app = await reportApp(ctx, report).catch(nullIfRefused);
    if (app?.appId === appId) return subscribable(ctx, id, 'body.analyticsEntity.appId');
  }
  throw badInput(`The app ${appId} is not one you may subscribe to`, [
    { field: 'body.analyticsEntity.appId', message: 'must be the app of a report published to you' },
  ]);
}

/**
 * Who receives it: the subscriber. A tenant administrator may name other users (a team's
 * subscription); anyone else naming another user is refused, so a subscription cannot mail people.
 */
async function recipientsOf(ctx: OpContext, f: SubscriptionInput, errors: FieldError[]): Promise<string[]> {
  const self = me(ctx).user.id;
  const ids = [...new Set((f.recipients ?? []).map((r) => r.id))];
  if (!ids.length) return [self];
  const admin = isTenantAdministrator(me(ctx));
  const found = await ctx.db.getRepository(User).findBy({ id: In(ids) });
  (f.recipients ?? []).forEach((r, i) => {
    if (r.id !== self && !admin)
      errors.push({
        field: `body.recipients.${i}.id`,
        message: 'must be you: a subscription is sent to its subscriber',
      });
    else if (!found.some((u) => u.id === r.id))
      errors.push({ field: `body.recipients.${i}.id`, message: 'is not a user' });
  });
  return ids;
}

type Resolved = Awaited<ReturnType<typeof resolveInput>>;

/** The title a subscription goes by: what it subscribes to, its name, or its reports' or chart's names. */
function titleOf(f: SubscriptionInput, r: Resolved) {
  return (
    f.subscribeTo?.trim() ||
    f.name?.trim() ||
    (r.chart ? `Chart ${r.chart.id}` : r.reports.map((x) => x.source.report.name).join(', '))
  );
}

/** Writes the subscription's own task: its reports (or none, for a chart), its one trigger, its recipients. */
async function writeTask(
  m: EntityManager,
  ctx: OpContext,
  sub: SubscriptionRow,
  f: SubscriptionInput,
  r: Resolved,
  current: TaskRow | null,
) {
  const now = ctx.now();
  const by = me(ctx).user.id;
  const title = titleOf(f, r);
  const task: TaskRow = {
    ...(current ?? { ...newBase(now), createdBy: by }),
    projectId: r.projectId,
    name: `Subscription: ${title}`,
    description: f.description ?? null,
    isActive: sub.isActive,
    sendNotifications: false,
    notifyIfError: false,
    notifyIfWarning: false,
    notifyIfSuccess: false,
    notificationRecipients: null,
    notificationCc: null,
    notificationBcc: null,
    testMode: false,
    testModeRecipients: null,
    email: {
      from: null,
      ccBcc: !!(f.email.bc?.trim() || f.email.bcc?.trim()),
      cc: f.email.bc ?? null,
      bcc: f.email.bcc ?? null,
      ccAnalyticsVariableId: f.email.ccAnalyticsVariableId ?? null,
      bccAnalyticsVariableId: f.email.bccAnalyticsVariableId ?? null,
      subject: sub.email.subject,
      message: sub.email.message,
      isActive: true,
      oneToAll: false,
    },
    subscriptionId: sub.id,
    modifiedBy: by,
    modifiedDate: now,
  };
  const reports = r.reports.flatMap(({ entry, source }) =>
    entry.formats.map((format) => ({
      reportId: source.report.id,
      format,
      options: {
        ...DEFAULT_TASK_REPORT_OPTIONS,
        emailAttachment: entry.emailAttachment,
        emailEmbedment: entry.emailEmbedment,
        zipEmailFiles: entry.zipEmailFiles,
        filterIds: source.from?.options.filterIds ?? [],
        selections: selectionsOf(entry.selections),
        isOpenFilePasswordProtected: source.from?.options.isOpenFilePasswordProtected ?? false,
        isWriteFilePasswordProtected: source.from?.options.isWriteFilePasswordProtected ?? false,
      },
      fileOpenPassword: source.from?.fileOpenPassword ?? null,
      fileWritePassword: source.from?.fileWritePassword ?? null,
    })),
  );
  await writeOwnedTask(
    m,
    {
      task,
      reports,
      recipientUserIds: r.recipients,
      // The trigger keeps the slots it already ran when its kind stays the same.
      trigger: (previous) =>
        triggerOf(now, task.id, previous && previous.kind === f.triggerType ? previous : null, f, r, title),
    },
    !!current,
    now,
  );
  return task;
}

function triggerOf(
  now: Date,
  taskId: string,
  current: TaskTriggerRow | null,
  f: SubscriptionInput,
  r: Resolved,
  title: string,
): TaskTriggerRow {
  const start = new Date(now.getTime()).toISOString();
  const end = new Date(now.getTime() + OPEN_ENDED_MS).toISOString();
  if (f.triggerType === 'Schedule') {
    const s = f.schedule!;
    return scheduleTrigger(
      now,
      taskId,
      current,
      {
        ...s,
        name: s.name?.trim() || title,
        timeZone: s.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
        startDate: s.startDate ?? start,
        endDate: s.endDate ?? end,
        isActive: s.isActive ?? true,
      },
      'body.schedule',
    );
  }
  const e = f.externalEvent;
  return externalEventTrigger(now, taskId, current, {
    name: e?.name?.trim() || title,
    description: e?.description ?? null,
    appId: r.eventAppId,
    isActive: e?.isActive ?? true,
    execution: e?.execution ?? null,
    priority: e?.priority ?? null,
    startDate: e?.startDate ?? start,
    endDate: e?.endDate ?? end,
  });
}

function rowOf(ctx: OpContext, f: SubscriptionInput, r: Resolved, current: SubscriptionRow | null): SubscriptionRow {
  const title = titleOf(f, r);
  return {
    ...(current ?? { ...newBase(ctx.now()), userId: me(ctx).user.id, taskId: '' }),
    name: f.name ?? null,
    description: f.description ?? null,
    type: f.type,
    triggerType: f.triggerType,
    subscribeTo: f.subscribeTo?.trim() || title,
    reports: r.reports.map((x) => x.entry),
    chart: r.chart,
    email: {
      cc: f.email.bc ?? null,
      bcc: f.email.bcc ?? null,
      subject: f.email.subject?.trim() || title,
      message: f.email.message ?? '',
    },
    isActive: f.isActive ?? current?.isActive ?? true,
    modifiedDate: ctx.now(),
  };
}

/** Creates a subscription and its task; its schedule's next fire time is known at once. */
export async function createSubscription(ctx: OpContext, f: SubscriptionInput) {
  const resolved = await resolveInput(ctx, f);
  const sub = rowOf(ctx, f, resolved, null);
  // The operation runs on the write queue already: one transaction, the task first (the row refers to it).
  await ctx.db.transaction(async (m) => {
    const task = await writeTask(m, ctx, sub, f, resolved, null);
    sub.taskId = task.id;
    await m.getRepository(Subscription).insert(sub);
  });
  ctx.scheduler.wake();
  return subscriptionDto(ctx, sub);
}

/** The caller's own subscription, or 404 (another's is not confirmed to exist). */
async function ownSubscription(ctx: OpContext, id: string, field: string | null = null): Promise<SubscriptionRow> {
  const row = await ctx.db.getRepository(Subscription).findOneBy({ id, userId: me(ctx).user.id });
  if (row) return row;
  if (field)
    throw badInput(`Subscription ${id} is not yours`, [{ field, message: 'must be one of your subscriptions' }]);
  throw notFound(`Subscription ${id}`);
}

export async function updateSubscription(ctx: OpContext, id: string, f: SubscriptionInput) {
  const current = await ownSubscription(ctx, id);
  const resolved = await resolveInput(ctx, f);
  const sub = rowOf(ctx, f, resolved, current);
  await ctx.db.transaction(async (m) => {
    const task = await m.getRepository(Task).findOneByOrFail({ id: current.taskId });
    await writeTask(m, ctx, sub, f, resolved, task);
    await m.getRepository(Subscription).save(sub);
  });
  ctx.scheduler.wake();
  return subscriptionDto(ctx, sub);
}

/** Deletes the caller's subscriptions with their tasks; runs under way stop first, finished ones stay in the history. */
export async function deleteSubscriptions(ctx: OpContext, ids: string[]) {
  const rows: SubscriptionRow[] = [];
  for (const [i, id] of [...new Set(ids)].entries()) rows.push(await ownSubscription(ctx, id, `body.${i}`));
  if (!rows.length) return { deleted: 0 };
  await ctx.requests.stopTasks(rows.map((r) => r.taskId));
  // The subscription goes with its task (ON DELETE CASCADE).
  await removeOwnedTasks(
    ctx,
    rows.map((r) => r.taskId),
  );
  return { deleted: rows.length };
}

const ownQuery = (ctx: OpContext) =>
  ctx.db
    .getRepository(Subscription)
    .createQueryBuilder('s')
    .where('s."userId" = :owner', { owner: me(ctx).user.id });

export async function listOwnSubscriptions(ctx: OpContext, list: ListQuery, spec: ListSpec) {
  const page = await pageOf(ownQuery(ctx), spec, list, 's.id', (s) => s);
  return new Page(await subscriptionDtos(ctx, page.items), page.page, page.pageSize, page.totalItems);
}

/** A subscription as answered (set A 2.17), with its trigger, its recipients and when it last ran and runs next. */
export async function subscriptionDto(ctx: OpContext, s: SubscriptionRow) {
  return (await subscriptionDtos(ctx, [s]))[0];
}

/** Subscriptions as answered, read together: five queries for a whole page, not four per row. */
async function subscriptionDtos(ctx: OpContext, rows: SubscriptionRow[]) {
  if (!rows.length) return [];
  const taskIds = rows.map((s) => s.taskId);
  const reportIds = [...new Set(rows.flatMap((s) => s.reports.map((r) => r.id)))];
  const [triggers, recipients, reports, tasks] = await Promise.all([
    ctx.db.getRepository(TaskTrigger).findBy({ taskId: In(taskIds) }),
    ctx.db.getRepository(TaskRecipient).findBy({ taskId: In(taskIds) }),
    reportIds.length ? ctx.db.getRepository(Report).findBy({ id: In(reportIds) }) : Promise.resolve([]),
    ctx.db.getRepository(Task).findBy({ id: In(taskIds) }),
  ]);
  const userIds = [...new Set(recipients.map((r) => r.recipientId))];
  const users = userIds.length ? await ctx.db.getRepository(User).findBy({ id: In(userIds) }) : [];
  const now = ctx.now();
  return rows.map((s) => {
    const trigger = triggers.find((x) => x.taskId === s.taskId) ?? null;
    const task = tasks.find((x) => x.id === s.taskId) ?? null;
    const mine = recipients
      .filter((r) => r.taskId === s.taskId)
      .map((r) => users.find((u) => u.id === r.recipientId))
      .filter((u) => !!u);
    const t = trigger ? triggerDto(trigger, now) : null;
    return {
      id: s.id,
      name: s.name,
      description: s.description,
      triggerType: s.triggerType,
      type: s.type,
      subscribeTo: s.subscribeTo,
      isActive: s.isActive,
      reports: s.reports.map((r) => {
        const report = reports.find((x) => x.id === r.id);
        return {
          id: r.id,
          name: report?.name ?? null,
          description: report?.description ?? null,
          formats: r.formats,
          zipEmailFiles: r.zipEmailFiles,
          emailAttachment: r.emailAttachment,
          emailEmbedment: r.emailEmbedment,
          filter: filterDto(r.selections, r.filter),
        };
      }),
      analyticsEntity: s.chart
        ? {
            id: s.chart.id,
            appId: s.chart.appId,
            serverAddress: s.chart.serverAddress ?? null,
            type: s.chart.type,
            format: s.chart.format,
            width: s.chart.width,
            height: s.chart.height,
          }
        : null,
      format: s.chart ? 'png' : null,
      filter: s.chart ? filterDto(s.chart.selections, s.chart.filter) : filterDto([], undefined),
      schedule: t && trigger?.kind === 'Schedule' ? t : null,
      externalEvent: t && trigger?.kind === 'ExternalEvent' ? t : null,
      recipients: mine.map((u) => ({
        id: u.id,
        fullName: `${u.firstName} ${u.lastName}`.trim(),
        email: u.email,
        type: 'user',
      })),
      email: {
        bc: s.email.cc,
        bcc: s.email.bcc,
        ccAnalyticsVariableId: task?.email?.ccAnalyticsVariableId ?? null,
        bccAnalyticsVariableId: task?.email?.bccAnalyticsVariableId ?? null,
        subject: s.email.subject,
        message: s.email.message,
      },
      lastExecutionDate: iso(trigger?.lastFireTime ?? null),
      nextExecutionDate: iso(trigger?.isActive ? trigger.nextFireTime : null),
      createdDate: iso(s.createdDate),
      modifiedDate: iso(s.modifiedDate),
    };
  });
}
