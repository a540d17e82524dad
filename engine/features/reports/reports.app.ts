import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { badInput } from '../../core/errors.js';
import { me } from '../../ops/context.js';
import { In } from 'typeorm';
import { ReportDocumentSchema } from '../../render/document.js';
import { Filter } from '../filters/filters.entity.js';
import { SelectionsInput } from '../analytics-apps/analytics-content.app.js';
import { Report } from './reports.entity.js';
import { generateFiles } from './generate.js';
import { connectionOfProject } from '../connections/connections.rules.js';
import { reachableReport, reportApp, reportDto } from './reports.rules.js';
import { validateDocument } from '../../render/validate-document.js';

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
    handler: async (ctx, { params, body }) => {
      const r = await reachableReport(ctx, params.id);
      if (body.connectionId !== undefined && body.connectionId !== null) r.connectionId = (await connectionOfProject(ctx, r.projectId, body.connectionId, 'body.connectionId')).id;
      if (body.filterIds) {
        const found = body.filterIds.length ? await ctx.db.getRepository(Filter).findBy({ id: In(body.filterIds), projectId: r.projectId }) : [];
        const missing = body.filterIds.find((id) => !found.some((f) => f.id === id));
        if (missing) throw badInput(`Filter ${missing} is not one of the project's`, [{ field: 'body.filterIds', message: `unknown filter ${missing}` }]);
        r.filterIds = body.filterIds;
      }
      if (r.connectionId) validateDocument(ctx.analytics, (await reportApp(ctx, r)).meta, body.document);
      r.document = body.document;
      r.modifiedDate = ctx.now();
      r.modifiedBy = me(ctx).user.id;
      await ctx.db.getRepository(Report).save(r);
      return { ...reportDto(r), document: r.document };
    },
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
