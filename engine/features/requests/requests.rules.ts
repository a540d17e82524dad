import { In, type DataSource } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput, conflict, EngineError, isEngineError, notFound } from '../../core/errors.js';
import { Page } from '../../core/envelope.js';
import { FileResult, safeFileName } from '../../core/file-result.js';
import type { ListQuery, ListSpec } from '../../core/list-query.js';
import { dateBound, pageOf } from '../../core/list-query.js';
import { FILE_TYPES, formatsOf, parseFormat } from '../../render/formats.js';
import type { Selections } from '../../analytics/model.js';
import { Project } from '../../model/projects.entity.js';
import { visibleRequests } from '../../access/project-reach.js';
import { Report } from '../../model/reports.entity.js';
import { reachableReport } from '../reports/reports.rules.js';
import { checkFormat } from '../reports/generate.js';
import { Connection } from '../../model/connections.entity.js';
import { providerAppId } from '../analytics-apps/analytics-apps.rules.js';
import { Task, TaskReport, TaskTrigger } from '../../model/tasks.entity.js';
import { reachableTask, visibleTasks } from '../tasks/tasks.rules.js';
import { scheduleOf } from '../schedules/schedule-spec.js';
import { describeSchedule } from '../schedules/fire-times.js';
import { FINISHED, Request, type RequestRow } from '../../model/requests.entity.js';
import { LIVE } from '../../core/enumerations.js';
import { sqlList } from '../../core/rows.js';
import { runMail } from '../mail/run-mail.js';
import {
  readRequestFile,
  readRequestLog,
  removeRequestFiles,
  removeRequestLog,
  zipRequestFiles,
} from './request-output.js';
import { UNCLAIMED } from '../../core/jobs/claims.js';
import { joinedText, marks } from '../../core/sql.js';
import { keptRead } from '../../core/kept-reads.js';

// Requests: queuing them (a task now, an on-demand report), their statuses, stop, delete, and what
// they made (files, log). The runner does the work; these rules only touch rows and files.

/** Sort names of set A's request status lists; the document lists two sets of names, both accepted. */
const STATUS_SORTS_OF_TASKS = {
  name: 'LOWER(t.name)',
  title: 'LOWER(t.name)',
  isactive: 't."isActive"',
  schedule: '(SELECT LOWER(MIN(tt.name)) FROM task_triggers tt WHERE tt."taskId" = t.id)',
  status: '(SELECT r.status FROM requests r WHERE r."taskId" = t.id ORDER BY r."createdDate" DESC LIMIT 1)',
  lastexecution: '(SELECT MAX(r."startedDate") FROM requests r WHERE r."taskId" = t.id)',
  nextexecution:
    '(SELECT MIN(tt."nextFireTime") FROM task_triggers tt WHERE tt."taskId" = t.id AND tt."isActive" = TRUE)',
  // A constant, as an expression: PostgreSQL refuses a bare literal in ORDER BY.
  source: "LOWER('Task')",
  outputformats: (db: DataSource) =>
    `(SELECT ${joinedText(db, 'tr.format')} FROM task_reports tr WHERE tr."taskId" = t.id)`,
  projectname: '(SELECT LOWER(p.name) FROM projects p WHERE p.id = t."projectId")',
  modifieddate: 't."modifiedDate"',
  executionend: '(SELECT MAX(r."endedDate") FROM requests r WHERE r."taskId" = t.id)',
};

export const LIST_SCHEDULED_STATUSES: ListSpec = {
  sort: STATUS_SORTS_OF_TASKS,
  defaultSort: { by: 'name', direction: 'asc' },
  text: { name: 't.name' },
  uuid: { project_id: 't."projectId"' },
};

const REQUEST_SORTS = {
  title: 'LOWER(r.title)',
  name: 'LOWER(r.title)',
  source: 'r.kind',
  outputformats: 'r."outputFormats"',
  projectname: '(SELECT LOWER(p.name) FROM projects p WHERE p.id = r."projectId")',
  status: 'r.status',
  modifieddate: 'r."modifiedDate"',
  executionend: 'r."endedDate"',
  createddate: 'r."createdDate"',
  schedule: 'r."scheduledFor"',
  isactive: `(r.status IN ${sqlList(LIVE)})`,
  lastexecution: 'r."startedDate"',
  nextexecution: 'r."scheduledFor"',
};

export const LIST_ON_DEMAND_STATUSES: ListSpec = {
  sort: REQUEST_SORTS,
  defaultSort: { by: 'modifieddate', direction: 'desc' },
  text: { title: 'r.title' },
  // `projectId` is how the reference product's public clients ask for one project's requests.
  uuid: { project_id: 'r."projectId"', projectId: 'r."projectId"' },
  exact: { status: 'r.status' },
};

/** Every request (the monitoring screen's history of a task, or of everything). */
export const LIST_REQUESTS: ListSpec = {
  sort: REQUEST_SORTS,
  defaultSort: { by: 'createddate', direction: 'desc' },
  text: { title: 'r.title' },
  uuid: { project_id: 'r."projectId"', task_id: 'r."taskId"' },
  // created_from / created_to: runs queued in a period (the monitoring screen's dates), as ISO instants.
  exact: {
    status: 'r.status',
    kind: 'r.kind',
    created_from: dateBound('r."createdDate"', '>=', 'created_from'),
    created_to: dateBound('r."createdDate"', '<', 'created_to'),
  },
};

export function requestDto(r: RequestRow, projectName: string | null = null) {
  const end = r.endedDate?.getTime() ?? null;
  const start = r.startedDate?.getTime() ?? null;
  return {
    id: r.id,
    kind: r.kind,
    source: r.kind === 'OnDemandReport' ? 'Report' : 'Task',
    title: r.title,
    projectId: r.projectId,
    projectName,
    taskId: r.taskId,
    reportId: r.reportId,
    triggerId: r.triggerId,
    scheduledFor: iso(r.scheduledFor),
    catchUp: r.catchUp,
    status: r.status,
    priority: r.priority,
    execution: r.execution,
    outputFormats: r.outputFormats ? r.outputFormats.split(',') : [],
    progress: { done: r.progressDone, total: r.progressTotal },
    files: r.files.map((f) => ({ name: f.name, size: f.size, format: f.format, iteration: f.iteration })),
    message: r.message,
    createdDate: iso(r.createdDate),
    modifiedDate: iso(r.modifiedDate),
    executionStart: iso(r.startedDate),
    executionEnd: iso(r.endedDate),
    durationMs: start !== null && end !== null ? end - start : null,
    ...onDemandFields(r.config),
  };
}

/** An on-demand request as set A 2.16 names it: what was asked for (a task run answers these empty). */
function onDemandFields(c: RequestRow['config']) {
  return {
    type: c ? ('Report' as const) : null,
    config: c ? { reportId: c.reportId, outputFormat: c.format } : null,
    selections: Object.entries(c?.selections ?? {}).map(([fieldName, values]) => ({
      fieldName,
      selectedCount: values.length,
      selectedValues: values,
      isNumeric: false,
    })),
    appId: c?.appId ?? null,
    ignoreExistingFilters: c?.ignoreExistingFilters ?? false,
    // The app is kept only when the request overrode the report's own.
    overrideReportApp: !!c?.appId,
  };
}

/** Rows with their project's name, their mail by status and their worst delivery problem (two queries for the page, asked together). */
async function withProjectNames(ctx: OpContext, page: Page<RequestRow>) {
  const ids = [...new Set(page.items.map((r) => r.projectId).filter((x): x is string => !!x))];
  const requestIds = page.items.map((r) => r.id);
  // Asked together: each is a trip to the database's thread, and queued at once they overlap.
  const [projects, { counts: mail, problems }] = await Promise.all([
    ids.length
      ? keptRead<{ id: string; name: string }>(ctx.db, `SELECT id, name FROM projects WHERE id IN (${marks(ids)})`, ids)
      : [],
    runMail(ctx, requestIds),
  ]);
  return new Page(
    page.items.map((r) => ({
      ...requestDto(r, projects.find((p) => p.id === r.projectId)?.name ?? null),
      mail: mail.get(r.id) ?? {},
      deliveryProblem: problems.get(r.id) ?? null,
    })),
    page.page,
    page.pageSize,
    page.totalItems,
  );
}

export async function listRequests(ctx: OpContext, list: ListQuery, onDemandOnly = false) {
  const qb = visibleRequests(ctx);
  if (onDemandOnly) qb.andWhere("r.kind IN ('OnDemandReport', 'OnDemandTask')");
  return withProjectNames(
    ctx,
    await pageOf(qb, onDemandOnly ? LIST_ON_DEMAND_STATUSES : LIST_REQUESTS, list, 'r.id', (r) => r),
  );
}

/** Tasks with a trigger, each with its schedule, its last run's status and times, and its next run. */
export async function listScheduledStatuses(ctx: OpContext, list: ListQuery) {
  const qb = visibleTasks(ctx).andWhere('EXISTS (SELECT 1 FROM task_triggers tx WHERE tx."taskId" = t.id)');
  const page = await pageOf(qb, LIST_SCHEDULED_STATUSES, list, 't.id', (t) => t);
  const ids = page.items.map((t) => t.id);
  // Four reads for the whole page, whatever its size: triggers, reports, projects and each task's latest run.
  const [triggers, reports, projects, latest] = ids.length
    ? await Promise.all([
        ctx.db.getRepository(TaskTrigger).findBy({ taskId: In(ids) }),
        ctx.db.getRepository(TaskReport).findBy({ taskId: In(ids) }),
        ctx.db.getRepository(Project).findBy({ id: In([...new Set(page.items.map((t) => t.projectId))]) }),
        ctx.db
          .getRepository(Request)
          .createQueryBuilder('r')
          .where('r."taskId" IN (:...ids)', { ids })
          .andWhere('r."createdDate" = (SELECT MAX(r2."createdDate") FROM requests r2 WHERE r2."taskId" = r."taskId")')
          .orderBy('r.id', 'DESC')
          .getMany(),
      ])
    : [[], [], [], []];
  const items = await Promise.all(
    page.items.map(async (t) => {
      const last = latest.find((r) => r.taskId === t.id) ?? null;
      const mine = triggers.filter((x) => x.taskId === t.id);
      const next = mine
        .filter((x) => x.isActive && x.nextFireTime)
        .map((x) => x.nextFireTime!.getTime())
        .sort((a, b) => a - b)[0];
      return {
        id: t.id,
        taskId: t.id,
        name: t.name,
        title: t.name,
        projectId: t.projectId,
        projectName: projects.find((p) => p.id === t.projectId)?.name ?? null,
        isActive: t.isActive,
        schedule: mine
          .map((x) => {
            const spec = x.kind === 'Schedule' ? scheduleOf(x) : null;
            return spec ? describeSchedule(spec) : `When ${x.appId ?? 'an app'} reloads`;
          })
          .join('; '),
        outputFormats: [...new Set(reports.filter((r) => r.taskId === t.id).map((r) => r.format))],
        status: last?.status ?? null,
        lastRequestId: last?.id ?? null,
        progress: last ? { done: last.progressDone, total: last.progressTotal } : null,
        lastExecution: iso(last?.startedDate),
        executionEnd: iso(last?.endedDate),
        nextExecution: next ? new Date(next).toISOString() : null,
      };
    }),
  );
  return new Page(items, page.page, page.pageSize, page.totalItems);
}

/** A request of a project the caller reaches, or 404. */
export async function reachableRequest(ctx: OpContext, id: string): Promise<RequestRow> {
  const row = await visibleRequests(ctx).andWhere('r.id = :id', { id }).getOne();
  if (!row) throw notFound(`Request ${id}`);
  return row;
}

export async function getRequest(ctx: OpContext, id: string) {
  const r = await reachableRequest(ctx, id);
  const project = r.projectId ? await ctx.db.getRepository(Project).findOneBy({ id: r.projectId }) : null;
  return requestDto(r, project?.name ?? null);
}

async function queue(ctx: OpContext, row: RequestRow) {
  await ctx.write(() =>
    ctx.db.transaction(async (m) => {
      await m.getRepository(Request).insert(row);
      await ctx.requests.queued(m, [row]);
    }),
  );
  ctx.emit({
    type: 'request.changed',
    payload: { id: row.id, kind: row.kind, taskId: row.taskId, status: row.status, progressDone: 0, progressTotal: 0 },
  });
  ctx.requests.wake();
  return requestDto(row);
}

function newRequest(
  ctx: OpContext,
  f: Pick<RequestRow, 'kind' | 'title' | 'projectId' | 'taskId' | 'reportId' | 'config' | 'outputFormats'>,
): RequestRow {
  return {
    ...newBase(ctx.now()),
    ...f,
    triggerId: null,
    scheduledFor: null,
    catchUp: false,
    status: 'queued',
    priority: 0,
    execution: 'Parallel',
    progressDone: 0,
    progressTotal: 0,
    files: [],
    message: null,
    createdBy: ctx.principal?.user.id ?? null,
    startedDate: null,
    endedDate: null,
    ...UNCLAIMED,
  };
}

/** Runs a task now (an on-demand task), whatever its schedules. */
export async function queueTask(ctx: OpContext, taskId: string) {
  const task = await reachableTask(ctx, taskId);
  const formats = (await ctx.db.getRepository(TaskReport).findBy({ taskId: task.id })).map((r) => r.format);
  return queue(
    ctx,
    newRequest(ctx, {
      kind: 'OnDemandTask',
      title: task.name,
      projectId: task.projectId,
      taskId: task.id,
      reportId: null,
      config: null,
      outputFormats: [...new Set(formats)].join(','),
    }),
  );
}

export interface OnDemandInput {
  reportId: string;
  outputFormat: string;
  selections: Selections;
  appId?: string | null;
  connectionId?: string | null;
  overrideReportApp?: boolean;
  ignoreExistingFilters?: boolean;
}

/** An on-demand report: checked now (report, format, app), made by the runner. */
export async function queueReport(
  ctx: OpContext,
  f: OnDemandInput,
  fields = { reportId: 'body.config.reportId', format: 'body.config.outputFormat' },
) {
  // A refusal stays what it is (404: not there for the caller, 403: a flag they lack), naming the field.
  const report = await reachableReport(ctx, f.reportId).catch((e: unknown) => {
    if (isEngineError(e) && (e.status === 404 || e.status === 403))
      throw new EngineError(e.status, e.message, [
        { field: fields.reportId, message: e.status === 404 ? 'is not a report you reach' : e.message },
      ]);
    throw e;
  });
  const format = parseFormat(f.outputFormat);
  if (!format)
    throw badInput(`Unknown output format "${f.outputFormat}"`, [
      { field: fields.format, message: `must be one of: ${Object.keys(FILE_TYPES).join(', ')}` },
    ]);
  try {
    checkFormat(report, format, report.document);
  } catch (e) {
    throw badInput((e as Error).message, [{ field: fields.format, message: (e as Error).message }]);
  }
  let appId: string | null = null;
  if (f.connectionId) {
    const conn = await ctx.db.getRepository(Connection).findOneBy({ id: f.connectionId, projectId: report.projectId });
    if (!conn)
      throw badInput("The connection is not one of the report's project", [
        { field: 'body.connectionId', message: "is not a connection of the report's project" },
      ]);
    appId = await providerAppId(ctx, conn.analyticsAppId);
  } else if (f.overrideReportApp && f.appId) {
    if (!(await ctx.embedded.exists(f.appId)))
      throw badInput(`No analytics app "${f.appId}"`, [{ field: 'body.appId', message: 'is not an analytics app' }]);
    appId = f.appId;
  }
  return queue(
    ctx,
    newRequest(ctx, {
      kind: 'OnDemandReport',
      title: report.name,
      projectId: report.projectId,
      taskId: null,
      reportId: report.id,
      outputFormats: format,
      config: {
        reportId: report.id,
        format,
        selections: f.selections,
        appId,
        ignoreExistingFilters: f.ignoreExistingFilters ?? false,
      },
    }),
  );
}

/**
 * set B's run: the id names a task (run it now), a request (run it again, as it was asked), or a
 * report (make it on demand in its first format).
 */
export async function runById(ctx: OpContext, id: string) {
  if (await ctx.db.getRepository(Task).existsBy({ id })) return queueTask(ctx, id);
  const request = (await ctx.db.getRepository(Request).existsBy({ id })) ? await reachableRequest(ctx, id) : null;
  if (request) {
    if (request.taskId) return queueTask(ctx, request.taskId);
    if (request.config)
      return queueReport(ctx, {
        ...request.config,
        outputFormat: request.config.format,
        overrideReportApp: !!request.config.appId,
      });
  }
  const report = await ctx.db.getRepository(Report).findOneBy({ id });
  if (report) return queueReport(ctx, { reportId: report.id, outputFormat: formatsOf(report)[0], selections: {} });
  throw notFound(`Task, request or report ${id}`);
}

/**
 * Stops a request, or every queued and running request of a task. Stopping is idempotent: a
 * request that has already ended is answered as it ended (its status says how), unchanged.
 */
export async function stopById(ctx: OpContext, id: string) {
  const task = (await ctx.db.getRepository(Task).existsBy({ id })) ? await reachableTask(ctx, id) : null;
  if (task) return { stopped: await ctx.requests.stopTasks([task.id]) };
  const r = await reachableRequest(ctx, id);
  if (!FINISHED.includes(r.status)) await ctx.requests.stop(r.id);
  return getRequest(ctx, r.id);
}

/** Deletes a request: stopped first when queued or running, then its log and files removed. */
export async function deleteRequest(ctx: OpContext, id: string) {
  const r = await reachableRequest(ctx, id);
  if (!FINISHED.includes(r.status)) await ctx.requests.stop(r.id);
  await removeRequestFiles(ctx.files, r.id);
  await removeRequestLog(ctx.dataDir, r.id);
  await ctx.write(() => ctx.db.getRepository(Request).delete({ id: r.id }));
  return { deleted: 1 };
}

export async function requestLog(ctx: OpContext, id: string) {
  const r = await reachableRequest(ctx, id);
  const text = await readRequestLog(ctx.dataDir, r.id);
  if (text === null) throw notFound(`The log of request ${id}`);
  return { r, text };
}

export async function downloadLog(ctx: OpContext, id: string) {
  const { r, text } = await requestLog(ctx, id);
  return new FileResult(`${safeFileName(r.title)}.log`, 'text/plain; charset=utf-8', Buffer.from(text, 'utf8'));
}

/** Which files `version` names: none given, all of them; a number, the nth (from 1); else a file name. */
function chosenFiles(r: RequestRow, version: string | undefined) {
  if (!r.files.length) throw notFound(`Files of request ${r.id} (it made none)`);
  if (!version) return r.files;
  const n = /^\d+$/.test(version) ? Number(version) : NaN;
  const hit = Number.isInteger(n)
    ? r.files[n - 1]
    : r.files.find((f) => f.name.toLowerCase() === version.toLowerCase());
  if (!hit)
    throw badInput(`The request has no file "${version}"`, [
      { field: 'query.version', message: `must be 1 to ${r.files.length} or a file name of the request` },
    ]);
  return [hit];
}

function readyRequest(r: RequestRow) {
  if (!FINISHED.includes(r.status)) throw conflict(`The request is still ${r.status}; its files come when it ends`);
}

/** The file a request made (one, or a zip of several), read back from the data folder. */
export async function requestResult(ctx: OpContext, id: string, version?: string) {
  const r = await reachableRequest(ctx, id);
  readyRequest(r);
  const files = chosenFiles(r, version);
  if (files.length === 1) {
    const f = files[0];
    const type = Object.values(FILE_TYPES).find((t) => f.name.toLowerCase().endsWith(`.${t.extension}`));
    return new FileResult(
      f.name,
      type?.mime ?? (f.name.endsWith('.zip') ? 'application/zip' : 'application/octet-stream'),
      await readRequestFile(ctx.files, r.id, f.name),
    );
  }
  return new FileResult(
    `${safeFileName(r.title)}.zip`,
    'application/zip',
    await zipRequestFiles(ctx.files, r.id, files),
  );
}

/** set B's download answers where the file is: the address of the result, with what it holds. */
export async function requestFileUri(ctx: OpContext, id: string, version?: string) {
  const r = await reachableRequest(ctx, id);
  readyRequest(r);
  const files = chosenFiles(r, version);
  return {
    uri: `/api/v1/ondemand/requests/${r.id}/result${version ? `?version=${encodeURIComponent(version)}` : ''}`,
    fileName: files.length === 1 ? files[0].name : `${safeFileName(r.title)}.zip`,
    size: files.reduce((s, f) => s + f.size, 0),
    files: files.map((f) => f.name),
  };
}
