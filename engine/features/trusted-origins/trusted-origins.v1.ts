import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { pageOfEntity } from '../../core/list-query.js';
import { deleteByIds } from '../../core/rows.js';
import { TrustedOrigin } from '../../model/trusted-origins.entity.js';
import { trustedOriginDto, LIST_TRUSTED_ORIGINS, saveTrustedOrigin, TrustedOriginV1 } from './trusted-origins.rules.js';
import { TrustedOriginResult } from './trusted-origins.results.js';
import { DeletedResult } from '../common.results.js';

export const trustedOriginsV1 = [
  defineOp({
    id: 'v1.trustedOrigins.list',
    summary: 'List trusted origins',
    http: { method: 'GET', path: '/api/v1/trusted-origins' },
    permission: 'viewSettings',
    list: LIST_TRUSTED_ORIGINS,
    result: TrustedOriginResult,
    handler: (ctx, { list }) => pageOfEntity(ctx, TrustedOrigin, 't', LIST_TRUSTED_ORIGINS, list, trustedOriginDto),
  }),
  defineOp({
    id: 'v1.trustedOrigins.delete',
    summary: 'Delete trusted origins',
    http: { method: 'DELETE', path: '/api/v1/trusted-origins' },
    permission: 'editSettings',
    objects: { 'body[]': 'trustedOrigin' },
    tenantWide: 'A trusted origin',
    input: { body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { body }) => deleteByIds(ctx, TrustedOrigin, body, 'Trusted origin'),
  }),
  defineOp({
    id: 'v1.trustedOrigins.create',
    summary: 'Create trusted origin',
    http: { method: 'POST', path: '/api/v1/trusted-origins' },
    permission: 'editSettings',
    tenantWide: 'A trusted origin',
    input: { body: TrustedOriginV1 },
    result: TrustedOriginResult,
    handler: (ctx, { body }) => saveTrustedOrigin(ctx, null, body),
  }),
  defineOp({
    id: 'v1.trustedOrigins.update',
    summary: 'Update trusted origin',
    http: { method: 'PUT', path: '/api/v1/trusted-origins/{id}' },
    permission: 'editSettings',
    objects: { 'params.id': 'trustedOrigin' },
    tenantWide: 'A trusted origin',
    input: { params: idParam, body: TrustedOriginV1 },
    result: TrustedOriginResult,
    handler: (ctx, { params, body }) => saveTrustedOrigin(ctx, params.id, body),
  }),
] as const;
