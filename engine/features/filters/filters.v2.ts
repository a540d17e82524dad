import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import {
  deleteFilterValues,
  duplicateFilter,
  reorderFilterValue,
  saveFilter,
  upsertFilterValue,
} from './filters.rules.js';
import { FilterBResult, FilterResult } from './filters.results.js';
import { withSetBIds } from '../../core/set-b-names.js';

// Set B 2.5
const FilterV2 = lazySchema(() => z.object({ name: v.text(), description: v.nstr(), projectID: v.uuid() }));
const Duplicate = lazySchema(() => z.object({ projectID: v.uuid(), organizationID: v.uuid() }));
const VariableValue = lazySchema(() =>
  z.object({ id: v.nuuid(), analyticsVariableID: v.uuid(), variableValue: z.string().max(2000) }),
);
const BookmarkValue = lazySchema(() => z.object({ id: v.nuuid(), analyticsBookmarkID: v.uuid() }));
const FieldValue = lazySchema(() =>
  z.object({
    id: v.nuuid(),
    analyticsFieldID: v.uuid(),
    filterItemFieldValues: z.array(z.string().max(1000)).max(10_000),
  }),
);
const Reorder = lazySchema(() =>
  z.object({
    id: v.uuid(),
    direction: z
      .string()
      .max(10)
      .refine((d) => /^(up|down)$/i.test(d), { message: 'must be Up or Down' }),
  }),
);

export const filtersV2 = [
  defineOp({
    id: 'v2.filters.create',
    summary: 'Create filter',
    http: { method: 'POST', path: '/api/v2/filters' },
    permission: 'updateProject',
    objects: { 'body.projectID': 'project' },
    member: { filter: 'create' },
    input: { body: FilterV2 },
    result: FilterBResult,
    handler: async (ctx, { body }) =>
      withSetBIds(await saveFilter(ctx, null, { ...body, projectId: body.projectID }), 'projectId'),
  }),
  defineOp({
    id: 'v2.filters.duplicate',
    summary: 'Duplicate a filter, with its values, into a project',
    http: { method: 'POST', path: '/api/v2/filters/{id}/duplicate' },
    permission: 'updateProject',
    objects: { 'body.organizationID': 'organization', 'body.projectID': 'project', 'params.id': 'filter' },
    member: { filter: 'duplicate' },
    input: { params: idParam, body: Duplicate },
    result: FilterBResult,
    handler: async (ctx, { params, body }) =>
      withSetBIds(
        await duplicateFilter(ctx, params.id, { projectId: body.projectID, organizationId: body.organizationID }),
        'projectId',
      ),
  }),
  defineOp({
    id: 'v2.filters.update',
    summary: 'Update filter',
    http: { method: 'PUT', path: '/api/v2/filters/{id}' },
    permission: 'updateProject',
    objects: { 'body.projectID': 'project', 'params.id': 'filter' },
    member: { filter: 'edit' },
    input: { params: idParam, body: FilterV2 },
    result: FilterBResult,
    handler: async (ctx, { params, body }) =>
      withSetBIds(await saveFilter(ctx, params.id, { ...body, projectId: body.projectID }), 'projectId'),
  }),
  defineOp({
    id: 'v2.filters.updateVariableValues',
    summary: 'Add or update a variable value of a filter',
    http: { method: 'PUT', path: '/api/v2/filters/{id}/variables' },
    permission: 'updateProject',
    objects: { 'body.analyticsVariableID': 'none', 'body.id': 'none', 'params.id': 'filter' },
    member: { filter: 'edit' },
    input: { params: idParam, body: VariableValue },
    result: FilterResult,
    handler: (ctx, { params, body }) =>
      upsertFilterValue(
        ctx,
        params.id,
        body.id,
        'variable',
        body.analyticsVariableID,
        { variableValue: body.variableValue },
        'body.analyticsVariableID',
      ),
  }),
  defineOp({
    id: 'v2.filters.updateBookmarkValues',
    summary: 'Add or update a bookmark of a filter',
    http: { method: 'PUT', path: '/api/v2/filters/{id}/bookmarks' },
    permission: 'updateProject',
    objects: { 'body.analyticsBookmarkID': 'none', 'body.id': 'none', 'params.id': 'filter' },
    member: { filter: 'edit' },
    input: { params: idParam, body: BookmarkValue },
    result: FilterResult,
    handler: (ctx, { params, body }) =>
      upsertFilterValue(ctx, params.id, body.id, 'bookmark', body.analyticsBookmarkID, {}, 'body.analyticsBookmarkID'),
  }),
  defineOp({
    id: 'v2.filters.updateFieldValues',
    summary: 'Add or update the values selected in a field by a filter',
    http: { method: 'PUT', path: '/api/v2/filters/{id}/fields' },
    permission: 'updateProject',
    objects: { 'body.analyticsFieldID': 'none', 'body.id': 'none', 'params.id': 'filter' },
    member: { filter: 'edit' },
    input: { params: idParam, body: FieldValue },
    result: FilterResult,
    handler: (ctx, { params, body }) =>
      upsertFilterValue(
        ctx,
        params.id,
        body.id,
        'field',
        body.analyticsFieldID,
        { fieldValues: body.filterItemFieldValues },
        'body.analyticsFieldID',
      ),
  }),
  defineOp({
    id: 'v2.filters.deleteValues',
    summary: 'Delete values of a filter',
    http: { method: 'DELETE', path: '/api/v2/filters/{id}/values' },
    permission: 'updateProject',
    objects: { 'body[]': 'none', 'params.id': 'filter' },
    member: { filter: 'edit' },
    input: { params: idParam, body: v.uuidList() },
    result: FilterResult,
    handler: (ctx, { params, body }) => deleteFilterValues(ctx, params.id, body),
  }),
  defineOp({
    id: 'v2.filters.reorderValues',
    summary: 'Move a filter value up or down',
    http: { method: 'PUT', path: '/api/v2/filters/{id}/order' },
    permission: 'updateProject',
    objects: { 'body.id': 'none', 'params.id': 'filter' },
    member: { filter: 'edit' },
    input: { params: idParam, body: Reorder },
    result: FilterResult,
    handler: (ctx, { params, body }) =>
      reorderFilterValue(ctx, params.id, body.id, body.direction.toLowerCase() as 'up' | 'down'),
  }),
] as const;
