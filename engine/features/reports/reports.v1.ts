import { defineOp } from '../../ops/op.js';
import { LIST_REPORTS, listReports } from './reports.rules.js';

export const reportsV1 = [
  defineOp({
    id: 'v1.reports.listOwn',
    summary: 'List the reports of the authenticated user (of the projects their roles reach)',
    http: { method: 'GET', path: '/api/v1/reports' },
    permission: 'viewProject',
    list: LIST_REPORTS,
    handler: (ctx, { list }) => listReports(ctx, list),
  }),
] as const;
