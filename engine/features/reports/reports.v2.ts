import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { badInput } from '../../core/errors.js';
import { newBase } from '../../core/entity-base.js';
import { me } from '../../ops/context.js';
import { parseFormat } from '../../render/formats.js';
import { Connection } from '../connections/connections.entity.js';
import { duplicateTarget } from '../projects/projects.rules.js';
import { Report } from './reports.entity.js';
import { asDownload, generateFiles } from './generate.js';
import { createReport, DynamicNamesInput, IterationFieldsInput, iterationFieldNames, reachableReport, reportApp, reportDto, reportType } from './reports.rules.js';

// Set B 2.10 (connectionID is Broadsheet's addition: which of the project's apps the report reads)
const CreateV2 = z.object({ name: v.text(), description: v.nstr(), projectID: v.uuid(), type: reportType().nullable().optional(), connectionID: v.nuuid() });
const Duplicate = z.object({ projectID: v.uuid(), organizationID: v.uuid() });
const UpdateV2 = z.object({
  name: v.text(),
  description: v.nstr(),
  isIteration: v.bool(),
  iterationFields: IterationFieldsInput.nullable().optional(),
  dynamicNameSeparator: z.string().max(5).nullable().optional(),
  dynamicNames: DynamicNamesInput.nullable().optional(),
});
const GenerateQuery = z.object({ outputFormat: v.text() });
const GenerateBody = z
  .object({
    selections: z.array(z.object({ fieldName: v.text(), values: z.array(z.union([z.string().max(1000), z.number()]).transform(String)).max(10_000) })).max(100).nullable().optional(),
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
    input: { body: CreateV2 },
    handler: async (ctx, { body }) => reportDto(await createReport(ctx, { ...body, projectId: body.projectID, type: body.type ?? 'Word', connectionId: body.connectionID })),
  }),
  defineOp({
    id: 'v2.reports.duplicate',
    summary: 'Duplicate a report into a project',
    http: { method: 'POST', path: '/api/v2/reports/{id}/duplicate' },
    permission: 'updateProject',
    input: { params: idParam, body: Duplicate },
    handler: async (ctx, { params, body }) => {
      const source = await reachableReport(ctx, params.id);
      const project = await duplicateTarget(ctx, body.projectID, body.organizationID);
      // Within the same project the connection carries over; elsewhere, the target's connection to the same app.
      let connectionId = source.connectionId;
      if (project.id !== source.projectId && source.connectionId) {
        const src = await ctx.db.getRepository(Connection).findOneBy({ id: source.connectionId });
        connectionId = src ? ((await ctx.db.getRepository(Connection).findOneBy({ projectId: project.id, analyticsAppId: src.analyticsAppId }))?.id ?? null) : null;
      }
      const copy = { ...source, ...newBase(ctx.now()), projectId: project.id, connectionId, name: `${source.name} (copy)`, filterIds: project.id === source.projectId ? source.filterIds : [], createdBy: me(ctx).user.id, modifiedBy: me(ctx).user.id };
      await ctx.db.getRepository(Report).insert(copy);
      return reportDto(copy);
    },
  }),
  defineOp({
    id: 'v2.reports.update',
    summary: 'Update report (iteration fields, dynamic names and separator)',
    http: { method: 'PUT', path: '/api/v2/reports/{id}' },
    permission: 'updateProject',
    input: { params: idParam, body: UpdateV2 },
    handler: async (ctx, { params, body }) => {
      const row = await reachableReport(ctx, params.id);
      const iterationFields = body.iterationFields ?? row.iterationFields;
      if (body.isIteration) {
        if (!iterationFields.length) throw badInput('An iterating report needs at least one iteration field', [{ field: 'body.iterationFields', message: 'is required when isIteration is true' }]);
        iterationFieldNames((await reportApp(ctx, row)).meta, iterationFields);
      }
      Object.assign(row, {
        name: body.name,
        description: body.description ?? null,
        isIteration: body.isIteration,
        iterationFields,
        dynamicNameSeparator: body.dynamicNameSeparator === undefined ? row.dynamicNameSeparator : body.dynamicNameSeparator,
        dynamicNames: body.dynamicNames ?? row.dynamicNames,
        modifiedDate: ctx.now(),
        modifiedBy: me(ctx).user.id,
      });
      await ctx.db.getRepository(Report).save(row);
      return reportDto(row);
    },
  }),
  defineOp({
    id: 'v2.reports.generate',
    summary: 'Generate a report in an output format from selections (one file, or a zip of the iteration\'s files)',
    http: { method: 'POST', path: '/api/v2/reports/{id}/generate' },
    permission: 'viewProject',
    readOnly: true,
    input: { params: idParam, query: GenerateQuery, body: GenerateBody },
    handler: async (ctx, { params, query, body }) => {
      const report = await reachableReport(ctx, params.id);
      const format = parseFormat(query.outputFormat);
      if (!format) throw badInput(`Unknown output format "${query.outputFormat}"`, [{ field: 'query.outputFormat', message: 'must be Pdf, Xlsx, Docx, Pptx, Html, Csv or Png' }]);
      const selections = Object.fromEntries((body?.selections ?? []).map((s) => [s.fieldName, s.values]));
      const files = await generateFiles(ctx, report, {
        format, selections, bookmarkId: body?.bookmarkId, appId: body?.appId,
        progress: (done, total) => ctx.emit({ type: 'report.progress', payload: { reportId: report.id, done, total } }),
      });
      return asDownload(report, files);
    },
  }),
] as const;
