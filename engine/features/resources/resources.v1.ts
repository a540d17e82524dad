import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, isGuid, v } from '../../core/validation.js';
import { pageOfEntity } from '../../core/list-query.js';
import { deleteByIds } from '../../core/rows.js';
import { fieldError } from '../../core/errors.js';
import { Resource } from '../../model/resources.entity.js';
import { LIST_RESOURCES, ResourceV1, resourceDto, saveResource, listOwnResources } from './resources.rules.js';
import { DeletedResult, ResourceResult } from '../common.results.js';

// The interface lists both a `resourceIds` parameter (a string, required) and a body of uuids without
// saying where each goes: the query may carry a comma-separated list, the body an array; the union is deleted.
const DeleteQuery = lazySchema(() => z.object({ resourceIds: z.string().max(400_000).optional() }));

export const resourcesV1 = [
  defineOp({
    id: 'v1.resources.list',
    summary: 'List all resources',
    http: { method: 'GET', path: '/api/v1/resources' },
    permission: 'viewSystem',
    list: LIST_RESOURCES,
    result: ResourceResult,
    handler: (ctx, { list }) => pageOfEntity(ctx, Resource, 'r', LIST_RESOURCES, list, resourceDto),
  }),
  defineOp({
    id: 'v1.resources.create',
    summary: 'Add resource',
    http: { method: 'POST', path: '/api/v1/resources' },
    permission: 'createSystem',
    objects: { 'body.organizationId': 'organization' },
    input: { body: ResourceV1 },
    result: ResourceResult,
    handler: (ctx, { body }) => saveResource(ctx, null, body),
  }),
  defineOp({
    id: 'v1.resources.listOwn',
    summary: 'List resources of the authenticated user (those of the organizations the user belongs to)',
    http: { method: 'GET', path: '/api/v1/resources/me' },
    permission: 'authenticated',
    list: LIST_RESOURCES,
    result: ResourceResult,
    handler: (ctx, { list }) => listOwnResources(ctx, list),
  }),
  defineOp({
    id: 'v1.resources.delete',
    summary: 'Delete resources',
    http: { method: 'DELETE', path: '/api/v1/resources' },
    permission: 'deleteSystem',
    objects: { 'body[]': 'resource', 'query.resourceIds': 'resource' },
    input: { query: DeleteQuery, body: v.uuidList().optional() },
    result: DeletedResult,
    handler: (ctx, { query, body }) => {
      const fromQuery = (query.resourceIds ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = fromQuery.find((s) => !isGuid(s));
      if (bad) throw fieldError('query.resourceIds', `"${bad.slice(0, 40)}" is not a UUID`);
      const ids = [...fromQuery, ...(body ?? [])];
      if (!ids.length) throw fieldError('query.resourceIds', 'is required (or a body array of resource ids)');
      return deleteByIds(ctx, Resource, ids, 'Resource');
    },
  }),
  defineOp({
    id: 'v1.resources.update',
    summary: 'Update resource',
    http: { method: 'PUT', path: '/api/v1/resources/{id}' },
    permission: 'editSystem',
    objects: { 'body.organizationId': 'organization', 'params.id': 'resource' },
    input: { params: idParam, body: ResourceV1 },
    result: ResourceResult,
    handler: (ctx, { params, body }) => saveResource(ctx, params.id, body),
  }),
] as const;
