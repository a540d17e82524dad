import { defineOp } from '../../ops/op.js';
import { pageOf } from '../../core/list-query.js';
import { visibleProjects } from '../projects/projects.rules.js';
import { Report } from './reports.entity.js';
import { LIST_REPORTS, reportDto } from './reports.rules.js';

export const reportsV1 = [
  defineOp({
    id: 'v1.reports.listOwn',
    summary: 'List the reports of the authenticated user (of the projects their roles reach)',
    http: { method: 'GET', path: '/api/v1/reports' },
    permission: 'viewProject',
    list: LIST_REPORTS,
    handler: (ctx, { list }) => pageOf(visibleProjects(ctx, ctx.db.getRepository(Report).createQueryBuilder('r'), 'r.projectId'), LIST_REPORTS, list, 'r.id', reportDto),
  }),
] as const;
