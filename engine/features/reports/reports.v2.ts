import { lazySchema } from '../../core/lazy-schema.js';
import { REPORT_FILE_MIMES } from '../../render/formats.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { badInput } from '../../core/errors.js';
import { parseFormat } from '../../render/formats.js';
import { asDownload, generateFiles } from './generate.js';
import { duplicateReport, updateReportSettings } from './report-edits.rules.js';
import {
  createReport,
  DynamicNamesInput,
  IterationFieldsInput,
  reachableReport,
  reportDto,
  reportType,
} from './reports.rules.js';
import { ReportBResult } from './reports.results.js';
import { withSetBIds } from '../../core/set-b-names.js';

// Set B 2.10 (connectionID is Broadsheet's addition: which of the project's apps the report reads)
const CreateV2 = lazySchema(() =>
  z.object({
    name: v.text(),
    description: v.nstr(),
    projectID: v.uuid(),
    type: reportType().nullable().optional(),
    connectionID: v.nuuid(),
  }),
);
const Duplicate = lazySchema(() => z.object({ projectID: v.uuid(), organizationID: v.uuid() }));
const UpdateV2 = lazySchema(() =>
  z.object({
    name: v.text(),
    description: v.nstr(),
    isIteration: v.bool(),
    iterationFields: IterationFieldsInput.nullable().optional(),
    dynamicNameSeparator: z.string().max(5).nullable().optional(),
    dynamicNames: DynamicNamesInput.nullable().optional(),
  }),
);
const GenerateQuery = lazySchema(() => z.object({ outputFormat: v.text() }));
const GenerateBody = z
  .object({
    selections: z
      .array(
        z.object({
          fieldName: v.text(),
          values: z.array(z.union([z.string().max(1000), z.number()]).transform(String)).max(10_000),
        }),
      )
      .max(100)
      .nullable()
      .optional(),
    appId: v.nstr(),
    bookmarkId: v.nstr(),
  })
  .nullable()
  .optional();

export const reportsV2 = [
  defineOp({
    id: 'v2.reports.create',
    summary: 'Create report',
    http: { method: 'POST', path: '/api/v2/reports' },
    permission: 'updateProject',
    objects: { 'body.connectionID': 'connection', 'body.projectID': 'project' },
    member: { report: 'create' },
    input: { body: CreateV2 },
    result: ReportBResult,
    handler: async (ctx, { body }) =>
      withSetBIds(
        reportDto(
          await createReport(ctx, {
            ...body,
            projectId: body.projectID,
            type: body.type ?? 'Word',
            connectionId: body.connectionID,
          }),
        ),
        'projectId',
        'connectionId',
      ),
  }),
  defineOp({
    id: 'v2.reports.duplicate',
    summary: 'Duplicate a report into a project',
    http: { method: 'POST', path: '/api/v2/reports/{id}/duplicate' },
    permission: 'updateProject',
    objects: { 'body.organizationID': 'organization', 'body.projectID': 'project', 'params.id': 'report' },
    member: { report: 'duplicate' },
    input: { params: idParam, body: Duplicate },
    result: ReportBResult,
    handler: async (ctx, { params, body }) =>
      withSetBIds(
        await duplicateReport(ctx, params.id, { projectId: body.projectID, organizationId: body.organizationID }),
        'projectId',
        'connectionId',
      ),
  }),
  defineOp({
    id: 'v2.reports.update',
    summary: 'Update report (iteration fields, dynamic names and separator)',
    http: { method: 'PUT', path: '/api/v2/reports/{id}' },
    permission: 'updateProject',
    objects: {
      'body.dynamicNames[].variableAnalyticsAppID': 'none',
      'body.iterationFields[].fieldID': 'none',
      'params.id': 'report',
    },
    member: { report: 'edit' },
    input: { params: idParam, body: UpdateV2 },
    result: ReportBResult,
    handler: async (ctx, { params, body }) =>
      withSetBIds(await updateReportSettings(ctx, params.id, body), 'projectId', 'connectionId'),
  }),
  defineOp({
    id: 'v2.reports.generate',
    summary: "Generate a report in an output format from selections (one file, or a zip of the iteration's files)",
    http: { method: 'POST', path: '/api/v2/reports/{id}/generate' },
    permission: 'viewProject',
    objects: { 'body.appId': 'analyticsApp', 'body.bookmarkId': 'none', 'params.id': 'report' },
    member: { report: 'run' },
    readOnly: true,
    input: { params: idParam, query: GenerateQuery, body: GenerateBody },
    files: REPORT_FILE_MIMES,
    handler: async (ctx, { params, query, body }) => {
      const report = await reachableReport(ctx, params.id);
      const format = parseFormat(query.outputFormat);
      if (!format)
        throw badInput(`Unknown output format "${query.outputFormat}"`, [
          { field: 'query.outputFormat', message: 'must be Pdf, Xlsx, Docx, Pptx, Html, Csv or Png' },
        ]);
      const selections = Object.fromEntries((body?.selections ?? []).map((s) => [s.fieldName, s.values]));
      const files = await generateFiles(ctx, report, {
        format,
        selections,
        bookmarkId: body?.bookmarkId,
        appId: body?.appId,
        progress: (done, total) => ctx.emit({ type: 'report.progress', payload: { reportId: report.id, done, total } }),
      });
      return asDownload(report, files);
    },
  }),
] as const;
