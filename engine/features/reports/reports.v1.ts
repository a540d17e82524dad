import { defineOp } from '../../ops/op.js';
import { idParam } from '../../core/validation.js';
import type { OpContext } from '../../ops/context.js';
import { LIST_REPORTS, listReports, reachableReport, reportApp } from './reports.rules.js';

/**
 * What a report can use from its app, grouped as the reference product's template editors read it:
 * `{ nodes: [{ name, type, objects: [{ id, name, type }] }] }`.
 */
async function templateItems(ctx: OpContext, id: string) {
  const { meta } = await reportApp(ctx, await reachableReport(ctx, id));
  const node = (name: string, type: string, objects: { id: string; name: string; type: string }[]) => ({ name, type, objects });
  return {
    nodes: [
      node('Fields', 'fields', meta.fields.map((f) => ({ id: f.id, name: f.name, type: f.type }))),
      node('Variables', 'variables', meta.variables.map((v) => ({ id: v.id, name: v.name, type: 'variable' }))),
      node('Charts', 'charts', meta.charts.map((c) => ({ id: c.id, name: c.name, type: c.type }))),
      node('Bookmarks', 'bookmarks', meta.bookmarks.map((b) => ({ id: b.id, name: b.name, type: 'bookmark' }))),
      ...meta.sheets.map((sh) => node(sh.name, 'sheet', sh.chartIds.map((cid) => meta.charts.find((c) => c.id === cid)).filter((c) => !!c).map((c) => ({ id: c.id, name: c.name, type: c.type })))),
    ],
  };
}

export const reportsV1 = [
  defineOp({
    id: 'v1.reports.listOwn',
    summary: 'List the reports of the authenticated user (of the projects their roles reach)',
    http: { method: 'GET', path: '/api/v1/reports' },
    permission: 'viewProject', member: { report: 'view' },
    list: LIST_REPORTS,
    handler: (ctx, { list }) => listReports(ctx, list),
  }),
  defineOp({
    id: 'app.reports.templateItems',
    summary: 'The objects a report can use from its app (fields, variables, charts, bookmarks, sheets) as data.nodes[]',
    http: { method: 'GET', path: '/api/v1/reports/{id}/template-items' },
    permission: 'viewProject', member: { report: 'view' },
    input: { params: idParam },
    handler: (ctx, { params }) => templateItems(ctx, params.id),
  }),
] as const;
