import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { deleteFilter, filtersOfReport, listFilters } from './filters.rules.js';
import { FiltersListResult } from './filters.results.js';
import { DeletedResult } from '../common.results.js';

export const filtersApp = [
  defineOp({
    id: 'app.filters.list',
    summary: 'List filters (of one project with ?projectId=)',
    http: { method: 'GET', path: '/api/v1/filters' },
    permission: 'viewProject',
    objects: { 'query.projectId': 'project' },
    member: { filter: 'view' },
    input: { query: z.object({ projectId: v.uuid().optional() }) },
    result: FiltersListResult,
    handler: (ctx, { query }) => listFilters(ctx, query.projectId),
  }),
  defineOp({
    id: 'app.filters.listByReport',
    summary: 'The filters a report applies, in order',
    http: { method: 'GET', path: '/api/v1/filters/report/{reportId}' },
    permission: 'viewProject',
    objects: { 'params.reportId': 'report' },
    member: { filter: 'view' },
    input: { params: z.object({ reportId: v.uuid() }) },
    result: FiltersListResult,
    handler: (ctx, { params }) => filtersOfReport(ctx, params.reportId),
  }),
  defineOp({
    id: 'app.filters.delete',
    summary: 'Delete a filter with its steps (refused while a report applies it)',
    http: { method: 'DELETE', path: '/api/app/filters/{id}' },
    permission: 'updateProject',
    objects: { 'params.id': 'filter' },
    member: { filter: 'delete' },
    input: { params: idParam },
    result: DeletedResult,
    handler: (ctx, { params }) => deleteFilter(ctx, params.id),
  }),
] as const;
