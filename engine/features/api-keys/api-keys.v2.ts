import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { createApiKey, updateApiKey } from './api-keys.rules.js';
import { ApiKeyBResult, NewApiKeyBResult } from './api-keys.results.js';
import { withSetBIds } from '../../core/set-b-names.js';

// Set B 2.3
const CreateV2 = lazySchema(() =>
  z.object({
    name: v.text(),
    description: v.nstr(),
    expiryDate: v.dateTime(),
    organizationID: v.uuid(),
  }),
);
const UpdateV2 = lazySchema(() => z.object({ name: v.text(), description: v.nstr() }));

export const apiKeysV2 = [
  defineOp({
    id: 'v2.apiKeys.create',
    summary: 'Create API key (the key is in the response once, as data.key)',
    http: { method: 'POST', path: '/api/v2/api-keys' },
    permission: 'useApiKeys',
    objects: { 'body.organizationID': 'organization' },
    input: { body: CreateV2 },
    result: NewApiKeyBResult,
    handler: async (ctx, { body }) =>
      withSetBIds(await createApiKey(ctx, { ...body, organizationId: body.organizationID }), 'organizationId'),
  }),
  defineOp({
    id: 'v2.apiKeys.update',
    summary: 'Update API key',
    http: { method: 'PUT', path: '/api/v2/api-keys/{id}' },
    permission: 'useApiKeys',
    objects: { 'params.id': 'apiKey' },
    input: { params: idParam, body: UpdateV2 },
    result: ApiKeyBResult,
    handler: async (ctx, { params, body }) => withSetBIds(await updateApiKey(ctx, params.id, body), 'organizationId'),
  }),
] as const;
