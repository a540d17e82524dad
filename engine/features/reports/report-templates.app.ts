import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { IMPORT_BODY_LIMIT } from '../../core/limits.js';
import { badInput } from '../../core/errors.js';
import { FileResult, safeFileName } from '../../core/file-result.js';
import { TYPE_OF_FORMAT } from '../../render/templates/template-check.js';
import { templateFormatOf } from '../../render/templates/template-package.js';
import type { OpContext } from '../../ops/context.js';
import {
  checkTemplateFile,
  checkTemplateOnly,
  downloadTemplate,
  tagSummary,
  TEMPLATE_FILE_MIMES,
  TEMPLATE_MIME,
  uploadTemplate,
  type TemplateUpload,
} from './report-templates.rules.js';
import { createReport, reportApp, reportDto, reportType } from './reports.rules.js';
import type { ReportType } from '../../model/reports.entity.js';
import { connectionOfProject, firstConnectionOf } from '../connections/connections.rules.js';
import { reachableProject } from '../../access/project-reach.js';
import {
  ReportsCheckTemplateResult,
  ReportsCreateFromTemplateResult,
  ReportsUploadTemplateResult,
} from './reports.results.js';

const Upload = lazySchema(() =>
  z.object({
    fileName: z.string().trim().min(1).max(255),
    /** The file in base64 (HTML may be sent as text with `encoding: "text"`). */
    content: z.string().min(1).max(IMPORT_BODY_LIMIT),
    encoding: z.enum(['base64', 'text']).default('base64'),
  }),
);
const CreateFromTemplate = lazySchema(() =>
  z.object({
    name: v.text(),
    description: v.nstr(),
    projectId: v.uuid(),
    connectionId: v.nuuid(),
    /** The designer's own file; or `starter`, a report type, for a file the app writes from the app's content. */
    fileName: z.string().trim().min(1).max(255).optional(),
    content: z.string().min(1).max(IMPORT_BODY_LIMIT).optional(),
    encoding: z.enum(['base64', 'text']).default('base64'),
    starter: reportType().optional(),
  }),
);
const StarterQuery = lazySchema(() => z.object({ type: reportType(), connectionId: v.nuuid() }));

/** A starter template for a type, written from what the connection's app holds (its first variable, chart and field). */
async function starterFor(
  ctx: OpContext,
  projectId: string,
  type: ReportType,
  connectionId: string | null | undefined,
  name: string,
) {
  const connection = connectionId
    ? await connectionOfProject(ctx, projectId, connectionId, 'body.connectionId')
    : await firstConnectionOf(ctx, projectId);
  if (!connection)
    throw badInput('A starter template is written from an app: connect the project to one first', [
      { field: 'body.connectionId', message: 'the project has no connection' },
    ]);
  const { meta } = await reportApp(ctx, { connectionId: connection.id, name } as never);
  // The Office writers load with the first starter written, not at start.
  const { starterTemplate } = await import('../../render/templates/starter-templates.js');
  return { ...(await starterTemplate(type, meta, name)), connectionId: connection.id };
}

/** Creates a template report from an upload (checked first) or a starter; report and file in one write. */
async function createFromTemplate(ctx: OpContext, body: z.output<typeof CreateFromTemplate>) {
  await reachableProject(ctx, body.projectId);
  let upload: TemplateUpload;
  let type: ReportType;
  let connectionId = body.connectionId ?? null;
  if (body.starter) {
    const starter = await starterFor(ctx, body.projectId, body.starter, body.connectionId, body.name);
    upload = { fileName: starter.fileName, content: starter.bytes.toString('base64'), encoding: 'base64' };
    type = body.starter;
    connectionId = starter.connectionId;
  } else {
    if (!body.fileName || !body.content)
      throw badInput('Upload a template file or ask for a starter', [
        { field: 'body.content', message: 'is required without starter' },
      ]);
    upload = { fileName: body.fileName, content: body.content, encoding: body.encoding };
    const format = templateFormatOf(body.fileName);
    if (!format)
      throw badInput(
        `"${body.fileName}" is not a template Broadsheet takes: upload a .docx, .xlsx, .pptx or .html file`,
        [{ field: 'body.fileName', message: 'must be a .docx, .xlsx, .pptx or .html file' }],
      );
    type = TYPE_OF_FORMAT[format];
  }
  if (!connectionId) connectionId = (await firstConnectionOf(ctx, body.projectId))?.id ?? null;
  else connectionId = (await connectionOfProject(ctx, body.projectId, connectionId, 'body.connectionId')).id;
  const { bytes, scan } = await checkTemplateFile(ctx, { type, connectionId, filterIds: [], name: body.name }, upload);
  const fileName = safeFileName(upload.fileName);
  const report = await createReport(ctx, {
    name: body.name,
    description: body.description,
    projectId: body.projectId,
    type,
    connectionId,
    template: { fileName, bytes },
  });
  return { ...reportDto(report), template: { fileName, size: bytes.length, version: 1 }, tags: tagSummary(scan) };
}

export const reportTemplatesApp = [
  defineOp({
    id: 'app.reports.createFromTemplate',
    summary:
      "Create a report from the designer's own Word, Excel, PowerPoint or HTML file (checked first), or from a starter the app writes",
    http: { method: 'POST', path: '/api/app/reports/from-template', bodyLimit: IMPORT_BODY_LIMIT },
    permission: 'updateProject',
    objects: { 'body.connectionId': 'connection', 'body.projectId': 'project' },
    member: { report: 'create' },
    input: { body: CreateFromTemplate },
    result: ReportsCreateFromTemplateResult,
    handler: (ctx, { body }) => createFromTemplate(ctx, body),
  }),
  defineOp({
    id: 'app.reports.uploadTemplate',
    summary:
      "Upload a new version of a report's template file; every tag is checked against the app before it is saved",
    http: { method: 'PUT', path: '/api/app/reports/{id}/template', bodyLimit: IMPORT_BODY_LIMIT },
    permission: 'updateProject',
    objects: { 'params.id': 'report' },
    member: { report: 'edit' },
    input: { params: idParam, body: Upload },
    result: ReportsUploadTemplateResult,
    handler: (ctx, { params, body }) => uploadTemplate(ctx, params.id, body),
  }),
  defineOp({
    id: 'app.reports.checkTemplate',
    summary: "Check a file as a report's template without saving it: its tags with where they are, or every problem",
    http: { method: 'POST', path: '/api/app/reports/{id}/template/check', bodyLimit: IMPORT_BODY_LIMIT },
    permission: 'updateProject',
    objects: { 'params.id': 'report' },
    member: { report: 'edit' },
    readOnly: true,
    input: { params: idParam, body: Upload },
    result: ReportsCheckTemplateResult,
    handler: (ctx, { params, body }) => checkTemplateOnly(ctx, params.id, body),
  }),
  defineOp({
    id: 'app.reports.downloadTemplate',
    summary: "A template report's file as uploaded (to open it in Office)",
    http: { method: 'GET', path: '/api/app/reports/{id}/template' },
    permission: 'viewProject',
    objects: { 'params.id': 'report' },
    member: { report: 'view' },
    input: { params: idParam },
    files: TEMPLATE_FILE_MIMES,
    handler: (ctx, { params }) => downloadTemplate(ctx, params.id),
  }),
  defineOp({
    id: 'app.reports.starterTemplate',
    summary: "A starter template file for a report type, written from the app of a project's connection",
    http: { method: 'GET', path: '/api/app/projects/{id}/starter-template' },
    permission: 'viewProject',
    objects: { 'params.id': 'report', 'query.connectionId': 'connection' },
    member: { project: 'view' },
    input: { params: idParam, query: StarterQuery },
    files: TEMPLATE_FILE_MIMES,
    handler: async (ctx, { params, query }) => {
      await reachableProject(ctx, params.id);
      const starter = await starterFor(ctx, params.id, query.type, query.connectionId, 'Starter');
      const ext = starter.fileName.split('.').pop()!;
      return new FileResult(starter.fileName, TEMPLATE_MIME[ext], starter.bytes);
    },
  }),
] as const;
