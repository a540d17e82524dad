import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import { me } from '../../ops/context.js';
import { iso, newBase, sqliteText } from '../../core/entity-base.js';
import { fieldError, forbidden, notFound } from '../../core/errors.js';
import { findOr404, requireAll } from '../../core/rows.js';
import type { ListSpec } from '../../core/list-query.js';
import { newToken, tokenHash } from '../../core/passwords.js';
import { Organization } from '../../model/organizations.entity.js';
import { API_KEY_PREFIX } from '../auth/credential-prefixes.js';
import { ApiKey, type ApiKeyRow } from '../../model/api-keys.entity.js';
import { pageOf, ListQuery } from '../../core/list-query.js';
import { lazySchema } from '../../core/lazy-schema.js';
import { isTenantAdministrator } from '../../access/tenant-administrator.js';

export const LIST_API_KEYS: ListSpec = {
  sort: {
    name: 'LOWER(k.name)',
    description: 'LOWER(k.description)',
    expiryDate: 'k."expiryDate"',
    createdDate: 'k."createdDate"',
    lastUsedDate: 'k."lastUsedDate"',
  },
  defaultSort: { by: 'createdDate', direction: 'desc' },
  text: { name: 'k.name', description: 'k.description' },
  bool: {
    // Compared in SQL with the clock's now, bound as a parameter in SQLite's datetime text form.
    expired: (value, p) => ({
      sql: value ? `k."expiryDate" <= :${p}` : `k."expiryDate" > :${p}`,
      params: { [p]: sqliteNow() },
    }),
  },
};

function sqliteNow(): string {
  return sqliteText(new Date());
}

/** The key's secret never leaves the create response; the list shows its first characters only. */
/** An API key as answered: never its secret, only its first characters (`key` comes once, at creation). */
export const ApiKeyResult = lazySchema(() =>
  z.object({
    id: z.guid(),
    name: z.string(),
    description: z.string().nullable(),
    expiryDate: z.iso.datetime().nullable(),
    expired: z.boolean(),
    keyPrefix: z.string(),
    userId: z.guid().nullable(),
    organizationId: z.guid().nullable(),
    lastUsedDate: z.iso.datetime().nullable(),
    createdDate: z.iso.datetime().nullable(),
    modifiedDate: z.iso.datetime().nullable(),
  }),
);
export const NewApiKeyResult = lazySchema(() => ApiKeyResult.extend({ key: z.string() }));

export function apiKeyDto(k: ApiKeyRow, now: Date): z.output<typeof ApiKeyResult> {
  return {
    id: k.id,
    name: k.name,
    description: k.description,
    expiryDate: iso(k.expiryDate),
    expired: new Date(k.expiryDate) <= now,
    keyPrefix: k.keyPrefix,
    userId: k.userId,
    organizationId: k.organizationId,
    lastUsedDate: iso(k.lastUsedDate),
    createdDate: iso(k.createdDate),
    modifiedDate: iso(k.modifiedDate),
  };
}

export async function createApiKey(
  ctx: OpContext,
  f: { name: string; description?: string | null; expiryDate: string; organizationId?: string },
) {
  const expiry = new Date(f.expiryDate);
  if (!(expiry > ctx.now())) throw fieldError('body.expiryDate', 'must be in the future');
  if (f.organizationId) await findOr404(ctx, Organization, f.organizationId, 'Organization');
  const key = newToken(API_KEY_PREFIX);
  const row: ApiKeyRow = {
    ...newBase(ctx.now()),
    userId: me(ctx).user.id,
    organizationId: f.organizationId ?? null,
    name: f.name,
    description: f.description ?? null,
    expiryDate: expiry,
    keyHash: tokenHash(key),
    keyPrefix: key.slice(0, 10),
    lastUsedDate: null,
  };
  await ctx.db.getRepository(ApiKey).insert(row);
  return { ...apiKeyDto(row, ctx.now()), key };
}

/** Own keys only: another user's key answers 404, so ids of others' keys are not confirmed. */
export async function updateApiKey(ctx: OpContext, id: string, f: { name: string; description?: string | null }) {
  const row = await ctx.db.getRepository(ApiKey).findOneBy({ id, userId: me(ctx).user.id });
  if (!row) throw notFound(`API key ${id}`);
  row.name = f.name;
  row.description = f.description ?? null;
  row.modifiedDate = ctx.now();
  await ctx.db.getRepository(ApiKey).save(row);
  return apiKeyDto(row, ctx.now());
}

/** Administrators delete any key; others only their own. */
export async function deleteApiKeys(ctx: OpContext, ids: string[]) {
  const rows = await requireAll(ctx, ApiKey, ids, 'API key');
  const p = me(ctx);
  if (!isTenantAdministrator(p) && rows.some((k) => k.userId !== p.user.id))
    throw forbidden('Only a tenant administrator may delete the API keys of others');
  if (rows.length) await ctx.db.getRepository(ApiKey).delete(rows.map((k) => k.id));
  return { deleted: rows.length };
}

/** The caller's own API keys, one page. */
export async function listOwnApiKeys(ctx: OpContext, list: ListQuery) {
  return pageOf(
    ctx.db
      .getRepository(ApiKey)
      .createQueryBuilder('k')
      .where('k."userId" = :me', { me: me(ctx).user.id }),
    LIST_API_KEYS,
    list,
    'k.id',
    (k) => apiKeyDto(k, ctx.now()),
  );
}
