import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { ReportDocumentSchema } from '../../render/document.js';
import { SelectionsInput } from '../analytics-apps/analytics-content.app.js';
import { generateFiles } from './generate.js';
import { saveReportDocument } from './report-edits.rules.js';
import { reachableReport, reportDto } from './reports.rules.js';

const SaveDocument = z.object({ document: ReportDocumentSchema, connectionId: v.nuuid(), filterIds: z.array(v.uuid()).max(50).optional() });
const Preview = z.object({ document: ReportDocumentSchema.optional(), selections: SelectionsInput, bookmarkId: v.nstr() });

export const reportsApp = [
  defineOp({
    id: 'app.reports.get',
    summary: 'One report with its output formats and document',
    http: { method: 'GET', path: '/api/v1/reports/{id}' },
    permission: 'viewProject',
    input: { params: idParam },
    handler: async (ctx, { params }) => {
      const r = await reachableReport(ctx, params.id);
      return { ...reportDto(r), document: r.document };
    },
  }),
  defineOp({
    id: 'app.reports.saveDocument',
    summary: 'Save a report\'s document (blocks), its connection and the filters it applies',
    http: { method: 'PUT', path: '/api/app/reports/{id}/document' },
    permission: 'updateProject',
    input: { params: idParam, body: SaveDocument },
    handler: (ctx, { params, body }) => saveReportDocument(ctx, params.id, body),
  }),
  defineOp({
    id: 'app.reports.preview',
    summary: 'Preview a report (the saved document, or one being edited) as self-contained HTML',
    http: { method: 'POST', path: '/api/app/reports/{id}/preview' },
    permission: 'viewProject',
    readOnly: true,
    input: { params: idParam, body: Preview },
    handler: async (ctx, { params, body }) => {
      const r = await reachableReport(ctx, params.id);
      // A preview renders the report once over the whole selection, without iterating.
      const report = { ...r, type: 'Html' as const, isIteration: false };
      const iterating = r.isIteration;
      const [file] = await generateFiles(ctx, report, { format: 'Html', document: body.document, selections: body.selections, bookmarkId: body.bookmarkId });
      return { html: file.data.toString('utf8'), iterating };
    },
  }),
] as const;
