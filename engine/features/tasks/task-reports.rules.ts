import { createHash } from 'node:crypto';
import { HubFolder } from '../../model/hub.entity.js';
import { In } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput, conflict, foundOrFieldError, notFound } from '../../core/errors.js';
import type { ListQuery, ListSpec } from '../../core/list-query.js';
import { pageOf } from '../../core/list-query.js';
import { formatsOf, type OutputFormat } from '../../render/formats.js';
import { Filter } from '../../model/filters.entity.js';
import { Condition } from '../../model/conditions.entity.js';
import { StorageService } from '../../model/storage.entity.js';
import { Project } from '../../model/projects.entity.js';
import { confinedRelative } from '../storage/storage-paths.js';
import { Report, type ReportRow } from '../../model/reports.entity.js';
import { TaskReport, type TaskReportOptions, type TaskReportRow, type TaskRow } from '../../model/tasks.entity.js';
import { reachableTask, reportOfTask } from './tasks.rules.js';

export const LIST_TASK_REPORTS: ListSpec = {
  sort: {
    Format: 'tr.format',
    CreatedDate: 'tr."createdDate"',
    ModifiedDate: 'tr."modifiedDate"',
    'Report.Name': '(SELECT LOWER(r.name) FROM reports r WHERE r.id = tr."reportId")',
  },
  defaultSort: { by: 'CreatedDate', direction: 'asc' },
  exact: { selected_format_id: 'tr.format' },
};

export const DEFAULT_TASK_REPORT_OPTIONS: TaskReportOptions = {
  zipFolderFiles: false,
  zipEmailFiles: false,
  evaluateConditionForEachIteration: false,
  folderVariable: null,
  recipientsVariable: null,
  ftpVariable: null,
  hubAuthorizedUserVariable: null,
  emailAttachment: true,
  emailEmbedment: false,
  publishToServiceHub: false,
  maxFileOccurrences: 0,
  secureOutputFiles: false,
  isOpenFilePasswordProtected: false,
  isWriteFilePasswordProtected: false,
  conditionIds: [],
  filterIds: [],
  storageServices: [],
  folders: [],
  hubFolderId: null,
  numberDecimalSeparator: null,
  numberGroupSeparator: null,
  overwriteReportApps: [],
};

/** The format a task report may make of the report, as the report names it, or a 400 naming `field`. */
export function offeredFormat(report: ReportRow, asked: string, field: string): OutputFormat {
  // Png draws the report's first chart: an image for a mail body, offered where the report has one.
  const offered: OutputFormat[] = [
    ...formatsOf(report),
    ...(!report.templateFile && report.document.blocks.some((b) => b.type === 'chart') ? ['Png' as const] : []),
  ];
  const format = offered.find((x) => x.toLowerCase() === asked.toLowerCase());
  if (!format)
    throw badInput(`A ${report.type} report cannot be made as ${asked}`, [
      { field, message: `must be one of: ${offered.join(', ')}` },
    ]);
  return format;
}

/** A stable id for a link the interface numbers (a task report's condition, filter, folder): derived, as links are not rows here. */
const linkId = (...parts: string[]) => {
  const h = createHash('sha1').update(parts.join('|')).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

/**
 * The fields set A 2.19 names, beside the shorter ones the product answers: reportConditions,
 * reportFilters, reportStorageServices, reportFolders, the cloud-drive variables, and the passwords'
 * fields (always null: a password is never answered, `isOpenFilePasswordProtected` says if one is set).
 */
function setAShape(tr: TaskReportRow) {
  const o = tr.options;
  return {
    reportConditions: o.conditionIds.map((conditionId) => ({
      id: linkId(tr.id, 'condition', conditionId),
      taskReportId: tr.id,
      conditionId,
    })),
    reportFilters: o.filterIds.map((filterId, order) => ({
      id: linkId(tr.id, 'filter', filterId),
      taskReportId: tr.id,
      filterId,
      order,
    })),
    reportStorageServices: o.storageServices.map((x) => ({
      id: linkId(tr.id, 'storage', x.fileStorageServiceId, x.path),
      fileStorageServiceId: x.fileStorageServiceId,
      path: x.path,
      sharePointSiteUrl: x.siteUrl,
      order: x.order,
    })),
    reportFolders: o.folders.map((path) => ({ id: linkId(tr.id, 'folder', path), taskReportId: tr.id, path })),
    dropboxVariable: o.dropboxVariable ?? null,
    onedriveVariable: o.onedriveVariable ?? null,
    googledriveVariable: o.googledriveVariable ?? null,
    fileOpenPassword: null,
    fileWritePassword: null,
  };
}

/** A task report as answered: the report's name and formats with it, passwords only as "set or not". */
export async function taskReportDto(ctx: OpContext, tr: TaskReportRow) {
  const report = await ctx.db.getRepository(Report).findOneBy({ id: tr.reportId });
  const { fileOpenPassword, fileWritePassword, options, ...rest } = tr;
  const named = async <T extends { id: string; name: string }>(rows: Promise<T[]>, ids: string[]) => {
    const found = await rows;
    return ids.map((id) => ({ id, name: found.find((x) => x.id === id)?.name ?? null }));
  };
  return {
    ...rest,
    ...options,
    createdDate: iso(tr.createdDate),
    modifiedDate: iso(tr.modifiedDate),
    filters: await named(
      options.filterIds.length
        ? ctx.db.getRepository(Filter).findBy({ id: In(options.filterIds) })
        : Promise.resolve([]),
      options.filterIds,
    ),
    conditions: await named(
      options.conditionIds.length
        ? ctx.db.getRepository(Condition).findBy({ id: In(options.conditionIds) })
        : Promise.resolve([]),
      options.conditionIds,
    ),
    reportName: report?.name ?? null,
    reportType: report?.type ?? null,
    outputFormats: report ? formatsOf(report) : [],
    hasFileOpenPassword: fileOpenPassword !== null,
    hasFileWritePassword: fileWritePassword !== null,
    ...setAShape(tr),
  };
}

/**
 * A task report as set B 2.12 names it, beside the fields every answer has: `reportID`, the iteration,
 * hub, file-storage and separator options as objects, filters with their order, and storage services
 * with their type and name (and set B's own spelling, `fileStorageServiceID`, `zipeFiles`).
 */
export async function taskReportDtoB(ctx: OpContext, dto: Awaited<ReturnType<typeof taskReportDto>>) {
  const ids = dto.storageServices.map((x) => x.fileStorageServiceId);
  const services = ids.length ? await ctx.db.getRepository(StorageService).findBy({ id: In(ids) }) : [];
  return {
    ...dto,
    reportID: dto.reportId,
    iterationOptions: {
      zipEmailFiles: dto.zipEmailFiles,
      evaluateConditionForEachIteration: dto.evaluateConditionForEachIteration,
      recipientsVariable: dto.recipientsVariable,
      folderVariable: dto.folderVariable,
      hubAuthorizedUserVariable: dto.hubAuthorizedUserVariable,
    },
    filters: dto.filters.map((f, order) => ({ ...f, order })),
    storageServices: dto.storageServices.map((x) => {
      const service = services.find((s) => s.id === x.fileStorageServiceId);
      return {
        ...x,
        id: linkId(dto.id, 'storage', x.fileStorageServiceId, x.path),
        fileStorageServiceID: x.fileStorageServiceId,
        type: service?.type ?? null,
        name: service?.name ?? null,
        zipeFiles: x.zipFiles,
      };
    }),
    hub: { folderID: dto.hubFolderId, hubMaxFileOccurrences: dto.maxFileOccurrences },
    // Set B's single file-storage target: a folder path here (a storage service goes under storageServices).
    fileStorage: { fileStorageServiceID: null, path: dto.folders[0] ?? null },
    separatorOptions: {
      numberDecimalSeparator: dto.numberDecimalSeparator,
      numberGroupSeparator: dto.numberGroupSeparator,
    },
  };
}

export async function listTaskReports(ctx: OpContext, taskId: string, list: ListQuery) {
  const task = await reachableTask(ctx, taskId);
  const qb = ctx.db.getRepository(TaskReport).createQueryBuilder('tr').where('tr."taskId" = :task', { task: task.id });
  return pageOf(qb, LIST_TASK_REPORTS, list, 'tr.id', (r) => taskReportDto(ctx, r));
}

export async function getTaskReport(ctx: OpContext, taskId: string, taskReportId: string) {
  return taskReportDto(ctx, await reachableTaskReport(ctx, await reachableTask(ctx, taskId), taskReportId));
}

async function reachableTaskReport(ctx: OpContext, task: TaskRow, id: string): Promise<TaskReportRow> {
  const row = await ctx.db.getRepository(TaskReport).findOneBy({ id, taskId: task.id });
  if (!row) throw notFound(`Task report ${id}`);
  return row;
}

/** What a task report says, as one model, whichever set it came from (fields named for set A). */
export interface TaskReportInput {
  reportId: string;
  format: string;
  options: Partial<TaskReportOptions>;
  fileOpenPassword?: string | null;
  fileWritePassword?: string | null;
  /** Where the input names these, for messages: "body.reportId" or "body.reportID". */
  fields: { reportId: string; filters: string; conditions: string };
}

/**
 * Adds (no id) or changes a task report: the report must be of the task's project, the format one
 * it offers, the filters the project's. Passwords are sealed; an omitted one is kept.
 */
export async function saveTaskReport(ctx: OpContext, taskId: string, id: string | null, f: TaskReportInput) {
  const task = await reachableTask(ctx, taskId);
  const current = id ? await reachableTaskReport(ctx, task, id) : null;
  const report = await reportOfTask(ctx, task, f.reportId, f.fields.reportId);
  const format = offeredFormat(report, f.format, 'body.format');
  // One entry per report and format: a second would make the same files twice and be removed by the same name.
  const twin = await ctx.db.getRepository(TaskReport).findOneBy({ taskId: task.id, reportId: report.id, format });
  if (twin && twin.id !== current?.id) {
    throw conflict(`“${report.name}” is already in the task as ${format}: change that entry instead`, [
      { field: f.fields.reportId, message: `is already in the task as ${format}` },
    ]);
  }
  const options: TaskReportOptions = {
    ...DEFAULT_TASK_REPORT_OPTIONS,
    ...(current?.options ?? {}),
    ...stripUndefined(f.options),
  };
  if (options.filterIds.length) {
    const found = await ctx.db.getRepository(Filter).findBy({ id: In(options.filterIds), projectId: task.projectId });
    if (found.length !== new Set(options.filterIds).size)
      throw badInput("A filter is not one of the task's project", [
        { field: f.fields.filters, message: "must be filters of the task's project" },
      ]);
  }
  if (options.storageServices.length) {
    // A task delivers only to its own organization's storages (their passwords are that organization's).
    const project = await ctx.db.getRepository(Project).findOneByOrFail({ id: task.projectId });
    const found = await ctx.db.getRepository(StorageService).findBy({
      id: In(options.storageServices.map((x) => x.fileStorageServiceId)),
      organizationId: project.organizationId,
    });
    const field = f.fields.filters === 'body.filters' ? 'body.storageServices' : 'body.reportStorageServices';
    const errors = options.storageServices.flatMap((x, i) => [
      ...(found.some((y) => y.id === x.fileStorageServiceId)
        ? []
        : [
            {
              field: `${field}.${i}.${f.fields.filters === 'body.filters' ? 'fileStorageServiceID' : 'fileStorageServiceId'}`,
              message: "is not a storage service of the task's organization",
            },
          ]),
      ...(confinedRelative(x.path) === null
        ? [{ field: `${field}.${i}.path`, message: 'must stay inside the storage service (no "..", no drive)' }]
        : []),
    ]);
    if (errors.length) throw badInput('A storage destination is not valid', errors);
  }
  if (options.hubFolderId && !(await ctx.db.getRepository(HubFolder).existsBy({ id: options.hubFolderId }))) {
    throw badInput('The hub folder does not exist', [
      { field: 'body.hub.folderID', message: 'is not a folder of the hub' },
    ]);
  }
  if (options.conditionIds.length) {
    const found = await ctx.db
      .getRepository(Condition)
      .findBy({ id: In(options.conditionIds), projectId: task.projectId });
    if (found.length !== new Set(options.conditionIds).size)
      throw badInput("A condition is not one of the task's project", [
        { field: f.fields.conditions, message: "must be conditions of the task's project" },
      ]);
  }
  const row: TaskReportRow = {
    ...(current ?? newBase(ctx.now())),
    taskId: task.id,
    reportId: report.id,
    format,
    options,
    fileOpenPassword: ctx.secrets.sealOrKeep(f.fileOpenPassword, current?.fileOpenPassword ?? null),
    fileWritePassword: ctx.secrets.sealOrKeep(f.fileWritePassword, current?.fileWritePassword ?? null),
    modifiedDate: ctx.now(),
  };
  if (!options.isOpenFilePasswordProtected) row.fileOpenPassword = null;
  if (!options.isWriteFilePasswordProtected) row.fileWritePassword = null;
  if (options.isOpenFilePasswordProtected && !row.fileOpenPassword)
    throw badInput('A protected file needs its password', [
      { field: 'body.fileOpenPassword', message: 'is required when isOpenFilePasswordProtected is true' },
    ]);
  await ctx.db.getRepository(TaskReport).save(row);
  return taskReportDto(ctx, row);
}

export async function deleteTaskReports(ctx: OpContext, taskId: string, ids: string[]) {
  const task = await reachableTask(ctx, taskId);
  for (const [i, id] of ids.entries()) {
    await foundOrFieldError(
      reachableTaskReport(ctx, task, id),
      `Task report ${id} is not one of the task's`,
      `body.${i}`,
      'must be a report of the task',
    );
  }
  if (ids.length) await ctx.db.getRepository(TaskReport).delete({ taskId: task.id, id: In(ids) });
  return { deleted: ids.length };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, val]) => val !== undefined)) as Partial<T>;
}
