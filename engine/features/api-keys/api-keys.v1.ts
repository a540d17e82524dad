import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { type ListSpec, pageOfEntity } from '../../core/list-query.js';
import { ApiKey } from '../../model/api-keys.entity.js';
import {
  apiKeyDto,
  ApiKeyResult,
  NewApiKeyResult,
  createApiKey,
  deleteApiKeys,
  LIST_API_KEYS,
  updateApiKey,
  listOwnApiKeys,
} from './api-keys.rules.js';
import { DeletedResult } from '../common.results.js';

// Set A 2.1
const CreateV1 = lazySchema(() => z.object({ name: v.text(), description: v.nstr(), expiryDate: v.dateTime() }));
const UpdateV1 = lazySchema(() => z.object({ name: v.text(), description: v.nstr() }));
const LIST_ALL: ListSpec = { ...LIST_API_KEYS, uuid: { user_id: 'k."userId"' } };

export const apiKeysV1 = [
  defineOp({
    id: 'v1.apiKeys.create',
    summary: 'Create API key (the key is in the response once, as data.key)',
    http: { method: 'POST', path: '/api/v1/api-keys' },
    permission: 'useApiKeys',
    input: { body: CreateV1 },
    result: NewApiKeyResult,
    handler: (ctx, { body }) => createApiKey(ctx, body),
  }),
  defineOp({
    id: 'v1.apiKeys.listOwn',
    summary: 'List own API keys',
    http: { method: 'GET', path: '/api/v1/api-keys' },
    permission: 'useApiKeys',
    list: LIST_API_KEYS,
    result: ApiKeyResult,
    handler: (ctx, { list }) => listOwnApiKeys(ctx, list),
  }),
  defineOp({
    id: 'v1.apiKeys.update',
    summary: 'Update API key',
    http: { method: 'PUT', path: '/api/v1/api-keys/{id}' },
    permission: 'useApiKeys',
    objects: { 'params.id': 'apiKey' },
    input: { params: idParam, body: UpdateV1 },
    result: ApiKeyResult,
    handler: (ctx, { params, body }) => updateApiKey(ctx, params.id, body),
  }),
  defineOp({
    id: 'v1.apiKeys.delete',
    summary: 'Delete API keys (admin; others may delete their own)',
    http: { method: 'DELETE', path: '/api/v1/api-keys' },
    permission: 'useApiKeys',
    objects: { 'body[]': 'apiKey' },
    input: { body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { body }) => deleteApiKeys(ctx, body),
  }),
  defineOp({
    id: 'v1.apiKeys.listAll',
    summary: 'List all API keys (admin)',
    http: { method: 'GET', path: '/api/v1/api-keys/all' },
    permission: 'tenantAdmin',
    list: LIST_ALL,
    result: ApiKeyResult,
    handler: (ctx, { list }) => pageOfEntity(ctx, ApiKey, 'k', LIST_ALL, list, (k) => apiKeyDto(k, ctx.now())),
  }),
] as const;
