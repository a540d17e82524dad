import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { type ListSpec, pageOfEntity } from '../../core/list-query.js';
import { deleteByIds, findOr404 } from '../../core/rows.js';
import { iso, newBase } from '../../core/entity-base.js';
import type { OpContext } from '../../ops/context.js';
import { TrustedOrigin, type TrustedOriginRow } from './trusted-origins.entity.js';

/** An origin is scheme://host[:port]; anything else (paths, wildcards, script URLs) is refused. */
export function normalizeOrigin(address: string): string | null {
  try {
    const u = new URL(address.trim());
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    if (u.pathname !== '/' || u.search || u.hash || u.username) return null;
    return u.origin;
  } catch {
    return null;
  }
}

// Set A 2.21
const TrustedOriginV1 = z.object({
  name: v.text(),
  description: v.nstr(),
  address: v.text().refine((s) => normalizeOrigin(s) !== null, { message: 'must be an origin such as https://reports.example.com' }),
});

const LIST: ListSpec = {
  sort: { Name: 'LOWER(t.name)', Description: 'LOWER(t.description)', Address: 'LOWER(t.address)' },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 't.name', description: 't.description' },
};

const dto = (t: TrustedOriginRow) => ({
  id: t.id, name: t.name, description: t.description, address: t.address, createdDate: iso(t.createdDate), modifiedDate: iso(t.modifiedDate),
});

async function save(ctx: OpContext, id: string | null, f: z.output<typeof TrustedOriginV1>) {
  const base = id ? await findOr404(ctx, TrustedOrigin, id, 'Trusted origin') : newBase(ctx.now());
  const row: TrustedOriginRow = { ...base, name: f.name, description: f.description ?? null, address: normalizeOrigin(f.address)!, modifiedDate: ctx.now() };
  await ctx.db.getRepository(TrustedOrigin).save(row);
  return dto(row);
}

export const trustedOriginsV1 = [
  defineOp({
    id: 'v1.trustedOrigins.list',
    summary: 'List trusted origins',
    http: { method: 'GET', path: '/api/v1/trusted-origins' },
    permission: 'viewSettings',
    list: LIST,
    handler: (ctx, { list }) => pageOfEntity(ctx.db, TrustedOrigin, 't', LIST, list, dto),
  }),
  defineOp({
    id: 'v1.trustedOrigins.delete',
    summary: 'Delete trusted origins',
    http: { method: 'DELETE', path: '/api/v1/trusted-origins' },
    permission: 'editSettings',
    input: { body: v.uuidList() },
    handler: (ctx, { body }) => deleteByIds(ctx, TrustedOrigin, body, 'Trusted origin'),
  }),
  defineOp({
    id: 'v1.trustedOrigins.create',
    summary: 'Create trusted origin',
    http: { method: 'POST', path: '/api/v1/trusted-origins' },
    permission: 'editSettings',
    input: { body: TrustedOriginV1 },
    handler: (ctx, { body }) => save(ctx, null, body),
  }),
  defineOp({
    id: 'v1.trustedOrigins.update',
    summary: 'Update trusted origin',
    http: { method: 'PUT', path: '/api/v1/trusted-origins/{id}' },
    permission: 'editSettings',
    input: { params: idParam, body: TrustedOriginV1 },
    handler: (ctx, { params, body }) => save(ctx, params.id, body),
  }),
] as const;
