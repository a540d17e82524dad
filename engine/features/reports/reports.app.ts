import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { checkMemberAccess } from '../../access/member-access.js';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { ReportDocumentSchema } from '../../render/document.js';
import { SelectionsInput } from '../analytics-apps/analytics-content.app.js';
import { generateFiles } from './generate.js';
import { formatsOf } from '../../render/formats.js';
import { saveReportDocument, withDraftSettings } from './report-edits.rules.js';
import { templateInfo, templateOf } from './report-templates.rules.js';
import { deleteReport, DynamicNamesInput, IterationFieldsInput, reachableReport, reportDto } from './reports.rules.js';
import { DeletedResult } from '../common.results.js';
import { ReportsGetResult, ReportsPreviewResult, ReportsSaveDocumentResult } from './reports.results.js';

/** One Save writes everything the designer's draft holds: blocks, data, filters and iteration. */
const SaveDocument = lazySchema(() =>
  z.object({
    document: ReportDocumentSchema,
    connectionId: v.nuuid(),
    filterIds: z.array(v.uuid()).max(50).optional(),
    isIteration: v.obool(),
    iterationFields: IterationFieldsInput.optional(),
    dynamicNameSeparator: z.string().max(10).nullable().optional(),
    dynamicNames: DynamicNamesInput.optional(),
  }),
);
/** What a preview of a draft carries beyond the saved report. */
const DRAFT_FIELDS = ['document', 'connectionId', 'filterIds', 'isIteration', 'iterationFields'] as const;

const Preview = lazySchema(() =>
  z.object({
    document: ReportDocumentSchema.optional(),
    selections: SelectionsInput,
    bookmarkId: v.nstr(),
    /** The draft's connection and filters, when they differ from the saved ones. */
    connectionId: v.nuuid(),
    filterIds: z.array(v.uuid()).max(50).optional(),
    isIteration: v.obool(),
    iterationFields: IterationFieldsInput.optional(),
    /** The iteration value to preview (one per iteration field); the first when not given. */
    iterationValue: z.array(z.string().max(1000)).max(5).optional(),
  }),
);
/** A preview offers at most this many iteration values to pick from (searchable in the designer). */
const PREVIEW_ITERATION_VALUES = 5000;

export const reportsApp = [
  defineOp({
    id: 'app.reports.delete',
    summary: 'Delete a report with its document',
    http: { method: 'DELETE', path: '/api/app/reports/{id}' },
    permission: 'updateProject',
    objects: { 'params.id': 'report' },
    member: { report: 'delete' },
    input: { params: idParam },
    result: DeletedResult,
    handler: (ctx, { params }) => deleteReport(ctx, params.id),
  }),
  defineOp({
    id: 'app.reports.get',
    summary: 'One report with its output formats and document',
    http: { method: 'GET', path: '/api/v1/reports/{id}' },
    permission: 'viewProject',
    objects: { 'params.id': 'report' },
    member: { report: 'view' },
    input: { params: idParam },
    result: ReportsGetResult,
    handler: async (ctx, { params }) => {
      const r = await reachableReport(ctx, params.id);
      const template = await templateOf(ctx, r);
      return { ...reportDto(r), document: r.document, template: template ? templateInfo(template) : null };
    },
  }),
  defineOp({
    id: 'app.reports.saveDocument',
    summary: "Save a report's document (blocks), its connection, the filters it applies and its iteration",
    http: { method: 'PUT', path: '/api/app/reports/{id}/document' },
    permission: 'updateProject',
    objects: {
      'body.connectionId': 'connection',
      'body.document.blocks[].chartId': 'none',
      'body.document.blocks[].id': 'none',
      'body.dynamicNames[].variableAnalyticsAppID': 'none',
      'body.filterIds[]': 'filter',
      'body.iterationFields[].fieldID': 'none',
      'params.id': 'report',
    },
    member: { report: 'edit' },
    input: { params: idParam, body: SaveDocument },
    result: ReportsSaveDocumentResult,
    handler: (ctx, { params, body }) => saveReportDocument(ctx, params.id, body),
  }),
  defineOp({
    id: 'app.reports.preview',
    summary: 'Preview a report (the saved document, or one being edited) as self-contained HTML',
    http: { method: 'POST', path: '/api/app/reports/{id}/preview' },
    permission: 'viewProject',
    objects: {
      'body.bookmarkId': 'none',
      'body.connectionId': 'connection',
      'body.document.blocks[].chartId': 'none',
      'body.document.blocks[].id': 'none',
      'body.filterIds[]': 'filter',
      'body.iterationFields[].fieldID': 'none',
      'params.id': 'report',
    },
    // Whoever may see a report sees its preview; previewing a draft of it is editing it.
    member: { report: 'view' },
    readOnly: true,
    input: { params: idParam, body: Preview },
    result: ReportsPreviewResult,
    handler: async (ctx, { params, body }) => {
      const saved = await reachableReport(ctx, params.id);
      if (DRAFT_FIELDS.some((f) => body[f] !== undefined))
        await checkMemberAccess(
          { ...ctx, operation: { ...ctx.operation!, member: { report: 'edit' } } },
          'report',
          saved,
          'Report',
        );
      const r = await withDraftSettings(ctx, saved, body);
      // A preview is one file, as the output looks: an iterating report shows one value's file
      // (the first, or the one picked) and says which values there are to pick from.
      let iterationValues: string[][] = [];
      const choose = (combos: string[][]) => {
        iterationValues = combos.slice(0, PREVIEW_ITERATION_VALUES);
        const wanted = body.iterationValue;
        const picked = wanted && combos.find((c) => c.length === wanted.length && c.every((x, i) => x === wanted[i]));
        return combos.length ? [picked ?? combos[0]] : [];
      };
      let warning: string | null = null;
      const warn = (m: string) => (warning = m);
      // A block document previews as its HTML; a template report as a look at its filled file.
      const [file] = r.templateFile
        ? await generateFiles(ctx, r, {
            format: formatsOf(r)[0],
            selections: body.selections,
            bookmarkId: body.bookmarkId,
            choose,
            templatePreview: true,
            warn,
          })
        : await generateFiles(
            ctx,
            { ...r, type: 'Html' as const },
            {
              format: 'Html',
              document: body.document,
              selections: body.selections,
              bookmarkId: body.bookmarkId,
              choose,
              warn,
            },
          );
      if (!file) return { html: '', iterating: r.isIteration, iterationValues, iterationValue: null, warning };
      return {
        html: file.data.toString('utf8'),
        iterating: r.isIteration,
        iterationValues,
        iterationValue: r.isIteration ? file.iteration : null,
        warning,
      };
    },
  }),
] as const;
