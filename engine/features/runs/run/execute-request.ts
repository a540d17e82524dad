import { In } from 'typeorm';
import type { OpContext } from '../../../ops/context.js';
import { isDatabaseUnavailable, isEngineError, isStorageTransient } from '../../../core/errors.js';
import { parseFormat, type OutputFormat } from '../../../render/formats.js';
import { Report, type ReportRow } from '../../../model/reports.entity.js';
import { generateFiles } from '../../reports/generate.js';
import { Task, TaskReport, type TaskReportRow, type TaskRow } from '../../../model/tasks.entity.js';
import { toHub } from '../deliver/hub-publish.js';
import { describeOutcome, evaluateConditions } from '../../conditions/condition-evaluation.js';
import { byMail } from '../deliver/task-mail.js';
import type { Selections } from '../../../analytics/model.js';
import type { RequestFile, RequestRow, RequestStatus } from '../../../model/requests.entity.js';
import { writeRequestFile, zipRequestFiles, type KeptFile } from '../../requests/request-output.js';
import { uniqueName } from '../../../core/file-result.js';
import { toFolders } from '../deliver/storage-delivery.js';
import { SupersededAttempt, type Deliver, type Delivery } from '../deliver/delivery.js';
import { chartFile, subscribedChart } from '../deliver/subscription-chart.js';
import type { SubscribedChart } from '../../../model/subscriptions.entity.js';
import type { OutboxRow } from '../../../model/mail.entity.js';

/** Where a task report's files go as soon as they are made; mail carries the run's files at its end. */
const REPORT_DELIVERIES: Deliver[] = [toFolders, toHub];

/** The run's own deliveries, once every report is made: mail (through the outbox). */
async function deliverRun(ctx: OpContext, task: TaskRow, control: RunControl, inline = false): Promise<string[]> {
  const files = control.files();
  const d: Delivery = {
    ctx,
    task,
    requestId: control.requestId,
    from: null,
    files,
    zip: null,
    inline,
    log: control.log,
    signal: control.signal,
    keep: control.keep,
    post: control.post,
    stillHeld: control.stillHeld,
  };
  return byMail(d);
}

/** What the runner gives an execution: a stop signal, the log, progress, and a place for files. */
export interface RunControl {
  signal: AbortSignal;
  log: (line: string) => void;
  progress: (done: number, total: number) => void;
  requestId: string;
  /** The files kept so far. */
  files: () => RequestFile[];
  /** Writes one file and records it on the request. */
  keep: (file: KeptFile, taskReportId: string | null) => Promise<RequestFile>;
  /** The run's mail, written to the outbox with the run's outcome (see `Delivery.post`). */
  post: (rows: OutboxRow[]) => void;
  /** A task report's delivery kept to be tried after the run (see `Delivery.later`); absent, none is kept. */
  later?: (taskReportId: string, delivery: LaterDelivery) => string;
  /** Throws `SupersededAttempt` once another server has taken the run over (see `Delivery.stillHeld`). */
  stillHeld: Delivery['stillHeld'];
}

import type { LaterDelivery } from '../../../model/deliveries.entity.js';

export type { KeptFile } from '../../requests/request-output.js';

export interface RunOutcome {
  status: Exclude<RequestStatus, 'queued' | 'running' | 'aborted'>;
  message: string | null;
}

const problem = (e: unknown) => (isEngineError(e) || e instanceof Error ? e.message : String(e));

/** Keeps files under unique names in the request's folder, as they come. */
export function fileKeeper(ctx: Pick<OpContext, 'files'>, requestId: string, record: (f: RequestFile) => void) {
  const used = new Set<string>();
  return async (file: KeptFile, taskReportId: string | null): Promise<RequestFile> => {
    const name = uniqueName(used, file.name);
    await writeRequestFile(ctx.files, requestId, name, file.data);
    const kept: RequestFile = {
      name,
      size: file.data.length,
      format: file.format,
      taskReportId,
      iteration: file.iteration,
      ...(file.variables ? { variables: file.variables } : {}),
    };
    record(kept);
    return kept;
  };
}

/** An on-demand report: its format from the request, the caller's selections, optionally without the report's filters. */
async function runOnDemandReport(ctx: OpContext, row: RequestRow, control: RunControl): Promise<RunOutcome> {
  const config = row.config;
  const report = config ? await ctx.db.getRepository(Report).findOneBy({ id: config.reportId }) : null;
  if (!config || !report) return { status: 'failed', message: 'The report no longer exists' };
  control.log(`Report “${report.name}” as ${config.format}`);
  let empty: string | null = null;
  const files = await generateFiles(ctx, report, {
    warn: (m) => {
      empty = m;
      control.log(m);
    },
    format: config.format,
    selections: config.selections,
    appId: config.appId,
    ignoreReportFilters: config.ignoreExistingFilters,
    signal: control.signal,
    progress: control.progress,
    onFile: (f) => control.keep(f, null).then(() => undefined),
  });
  control.log(`${files.length} file${files.length === 1 ? '' : 's'} made`);
  return empty ? { status: 'warning', message: empty } : { status: 'completed', message: null };
}

/**
 * A task: each of its reports in turn, with the task report's filters after the report's own, its
 * conditions (once, or per iteration value when asked), its format and passwords. A condition that
 * fails leaves that report out, as designed: the run still ends `completed`, saying what was left
 * out and each rule's value in the log (a warning is kept for what went wrong, so that people heed
 * it). A report that cannot be made is logged and the others still run (the run ends `failed`).
 */
async function runTask(ctx: OpContext, row: RequestRow, control: RunControl): Promise<RunOutcome> {
  const task = row.taskId ? await ctx.db.getRepository(Task).findOneBy({ id: row.taskId }) : null;
  if (!task) return { status: 'failed', message: 'The task no longer exists' };
  const taskReports = await ctx.db
    .getRepository(TaskReport)
    .find({ where: { taskId: task.id }, order: { createdDate: 'ASC' } });
  // A subscription to a chart has no report: its one file is the chart, shown in the mail's body.
  const chart = task.subscriptionId ? await subscribedChart(ctx, task.subscriptionId) : null;
  if (chart) return runChart(ctx, task, chart, control);
  if (!taskReports.length) {
    control.log(`Task “${task.name}” has no reports; nothing to make`);
    return { status: 'warning', message: 'The task has no reports' };
  }
  const reports = await ctx.db.getRepository(Report).findBy({ id: In(taskReports.map((t) => t.reportId)) });
  control.log(
    `Task “${task.name}”: ${taskReports.length} report${taskReports.length === 1 ? '' : 's'}${row.catchUp ? ' (a catch-up of a missed run)' : ''}`,
  );
  const warnings: string[] = [];
  const notes: string[] = [];
  const failures: string[] = [];
  // Progress over all of the task's reports: each counts its own files once it knows them.
  const totals = new Map<string, { done: number; total: number }>();
  const report = () => {
    let done = 0;
    let total = 0;
    for (const t of totals.values()) {
      done += t.done;
      total += t.total;
    }
    control.progress(done, Math.max(total, done));
  };
  for (const tr of taskReports) {
    control.signal.throwIfAborted();
    const r = reports.find((x) => x.id === tr.reportId);
    if (!r) {
      failures.push('a report of the task no longer exists');
      continue;
    }
    try {
      const outcome = await runTaskReport(ctx, task, tr, r, control, (done, total) => {
        totals.set(tr.id, { done, total });
        report();
      });
      if (outcome?.warning) warnings.push(outcome.warning);
      if (outcome?.note) notes.push(outcome.note);
    } catch (e) {
      // A stop, a superseded attempt, or the storage or database failing for a while (the runner waits and starts again) ends the run.
      if (control.signal.aborted || isStorageTransient(e) || isDatabaseUnavailable(e) || e instanceof SupersededAttempt)
        throw e;
      control.log(`Report “${r.name}” failed: ${problem(e)}`);
      failures.push(`“${r.name}”: ${problem(e)}`);
    }
  }
  if (failures.length) return { status: 'failed', message: failures.join('; ') };
  // The files are whole on disk: the mail that carries them goes to the outbox (sent from there).
  control.signal.throwIfAborted();
  warnings.push(...(await deliverRun(ctx, task, control)));
  if (warnings.length) return { status: 'warning', message: [...warnings, ...notes].join('; ') };
  return { status: 'completed', message: notes.length ? notes.join('; ') : null };
}

/** A subscribed chart: drawn, kept, and mailed inline to the subscriber through the outbox. */
async function runChart(
  ctx: OpContext,
  task: TaskRow,
  chart: SubscribedChart,
  control: RunControl,
): Promise<RunOutcome> {
  control.log(`Task “${task.name}”: the chart ${chart.id} of app ${chart.appId} as PNG`);
  control.progress(0, 1);
  try {
    await control.keep(await chartFile(ctx, chart), null);
  } catch (e) {
    control.log(`The chart could not be made: ${problem(e)}`);
    return { status: 'failed', message: problem(e) };
  }
  control.progress(1, 1);
  control.signal.throwIfAborted();
  const warnings = await deliverRun(ctx, task, control, true);
  return warnings.length ? { status: 'warning', message: warnings.join('; ') } : { status: 'completed', message: null };
}

/**
 * One task report: a warning when it was not delivered everywhere; a note (not a warning) when its
 * conditions left it, or some of its iteration values, out as they were written to.
 */
async function runTaskReport(
  ctx: OpContext,
  task: TaskRow,
  tr: TaskReportRow,
  report: ReportRow,
  control: RunControl,
  progress: (done: number, total: number) => void,
): Promise<{ warning?: string; note?: string } | null> {
  const format = parseFormat(tr.format) as OutputFormat;
  const o = tr.options;
  let heldBack = 0;
  let leftOut = false;
  const check = async (selections: Selections, variables: Record<string, string>, iteration: string[] | null) => {
    const outcomes = await evaluateConditions(ctx, o.conditionIds, selections, variables);
    const failing = outcomes.filter((x) => !x.holds);
    if (!failing.length) return true;
    const where = iteration ? ` for ${iteration.join(', ')}` : '';
    for (const f of failing)
      for (const line of describeOutcome(f)) control.log(`Report “${report.name}”${where} left out. ${line}`);
    if (iteration) heldBack++;
    else leftOut = true;
    return false;
  };
  const perIteration = o.evaluateConditionForEachIteration && report.isIteration;
  control.log(
    `Report “${report.name}” as ${format}${o.filterIds.length ? `, ${o.filterIds.length} task filter${o.filterIds.length === 1 ? '' : 's'}` : ''}${o.conditionIds.length ? `, ${o.conditionIds.length} condition${o.conditionIds.length === 1 ? '' : 's'}${perIteration ? ' per iteration value' : ''}` : ''}`,
  );
  const kept: RequestFile[] = [];
  let empty: string | null = null;
  const files = await generateFiles(ctx, report, {
    format,
    warn: (m) => {
      empty = `“${report.name}”: ${m}`;
      control.log(`Report ${empty}`);
    },
    document: withSeparators(report, o.numberDecimalSeparator, o.numberGroupSeparator),
    extraFilterIds: o.filterIds,
    ...(o.selections ? { selections: o.selections, narrow: true } : {}),
    protection: {
      openPassword: o.isOpenFilePasswordProtected && tr.fileOpenPassword ? ctx.secrets.open(tr.fileOpenPassword) : null,
      writePassword:
        o.isWriteFilePasswordProtected && tr.fileWritePassword ? ctx.secrets.open(tr.fileWritePassword) : null,
    },
    admit: o.conditionIds.length && !perIteration ? (s, v) => check(s, v, null) : undefined,
    admitEach: o.conditionIds.length && perIteration ? (s, v, it) => check(s, v, it) : undefined,
    signal: control.signal,
    progress,
    evaluate: [
      ...new Set(
        [
          o.recipientsVariable,
          o.folderVariable,
          o.ftpVariable,
          o.onedriveVariable,
          o.googledriveVariable,
          o.dropboxVariable,
          o.hubAuthorizedUserVariable,
        ]
          .map((x) => x?.trim())
          .filter((x): x is string => !!x),
      ),
    ],
    onFile: async (f) => {
      kept.push(await control.keep(f, tr.id));
    },
  });
  const zip = o.zipFolderFiles && kept.length > 1 ? await zipTogether(ctx, control, report, tr, kept) : null;
  control.log(`Report “${report.name}”: ${files.length} file${files.length === 1 ? '' : 's'}`);
  const delivery: Delivery = {
    ctx,
    task,
    requestId: control.requestId,
    from: { taskReport: tr, report },
    files: kept,
    zip,
    log: control.log,
    signal: control.signal,
    keep: control.keep,
    post: control.post,
    later: control.later && ((x) => control.later!(tr.id, x)),
    stillHeld: control.stillHeld,
  };
  const problems: string[] = [];
  for (const deliver of REPORT_DELIVERIES) problems.push(...(await deliver(delivery)));
  if (problems.length) return { warning: `“${report.name}” not delivered everywhere: ${problems.join('; ')}` };
  if (empty) return { warning: empty };
  if (leftOut) return { note: `“${report.name}” left out by its conditions` };
  if (heldBack)
    return {
      note: `“${report.name}”: ${heldBack} iteration value${heldBack === 1 ? '' : 's'} left out by its conditions`,
    };
  return null;
}

const DECIMAL = ['.', ','] as const;
const GROUP = [',', '.', ' ', "'", ''] as const;

/** The report's document with the task report's number separators, where it sets ones a document takes. */
function withSeparators(report: ReportRow, decimal: string | null, group: string | null): ReportRow['document'] {
  const settings = { ...(report.document.settings ?? {}) };
  const d = DECIMAL.find((x) => x === decimal);
  const g = GROUP.find((x) => x === group);
  if (d) settings.decimalSeparator = d;
  if (g !== undefined && group !== null) settings.groupSeparator = g;
  return d || (g !== undefined && group !== null) ? { ...report.document, settings } : report.document;
}

/** A task report asking for one zip gets one: its files, read back, in a zip kept beside them. */
async function zipTogether(
  ctx: OpContext,
  control: RunControl,
  report: ReportRow,
  tr: TaskReportRow,
  kept: RequestFile[],
) {
  return control.keep(
    {
      name: `${report.name}.zip`,
      format: 'Zip',
      data: await zipRequestFiles(ctx.files, control.requestId, kept),
      iteration: [],
    },
    tr.id,
  );
}

export async function executeRequest(ctx: OpContext, row: RequestRow, control: RunControl): Promise<RunOutcome> {
  return row.kind === 'OnDemandReport' ? runOnDemandReport(ctx, row, control) : runTask(ctx, row, control);
}
