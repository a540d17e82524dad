import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { v } from '../../core/validation.js';
import { notFound } from '../../core/errors.js';
import { visibleProjects } from '../projects/projects.rules.js';
import { Report } from '../reports/reports.entity.js';
import { Filter } from './filters.entity.js';
import { filterDto } from './filters.rules.js';
import { In } from 'typeorm';

export const filtersApp = [
  defineOp({
    id: 'app.filters.list',
    summary: 'List filters (of one project with ?projectId=)',
    http: { method: 'GET', path: '/api/v1/filters' },
    permission: 'viewProject',
    input: { query: z.object({ projectId: v.uuid().optional() }) },
    handler: async (ctx, { query }) => {
      const qb = ctx.db.getRepository(Filter).createQueryBuilder('f').orderBy('LOWER(f.name)', 'ASC');
      if (query.projectId) qb.andWhere('f.projectId = :p', { p: query.projectId });
      visibleProjects(ctx, qb, 'f.projectId');
      return Promise.all((await qb.getMany()).map((f) => filterDto(ctx, f)));
    },
  }),
  defineOp({
    id: 'app.filters.listByReport',
    summary: 'The filters a report applies, in order',
    http: { method: 'GET', path: '/api/v1/filters/report/{reportId}' },
    permission: 'viewProject',
    input: { params: z.object({ reportId: v.uuid() }) },
    handler: async (ctx, { params }) => {
      const qb = ctx.db.getRepository(Report).createQueryBuilder('r').where('r.id = :id', { id: params.reportId });
      const report = await visibleProjects(ctx, qb, 'r.projectId').getOne();
      if (!report) throw notFound(`Report ${params.reportId}`);
      const filters = report.filterIds.length ? await ctx.db.getRepository(Filter).findBy({ id: In(report.filterIds) }) : [];
      const ordered = report.filterIds.map((id) => filters.find((f) => f.id === id)).filter((f): f is NonNullable<typeof f> => !!f);
      return Promise.all(ordered.map((f) => filterDto(ctx, f)));
    },
  }),
] as const;
