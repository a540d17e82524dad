import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { v } from '../../core/validation.js';
import { type ListSpec } from '../../core/list-query.js';
import { findOr404 } from '../../core/rows.js';
import { iso, newBase } from '../../core/entity-base.js';
import type { OpContext } from '../../ops/context.js';
import { TrustedOrigin, type TrustedOriginRow } from '../../model/trusted-origins.entity.js';

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
export const TrustedOriginV1 = lazySchema(() =>
  z.object({
    name: v.text(),
    description: v.nstr(),
    address: v
      .text()
      .refine((s) => normalizeOrigin(s) !== null, { message: 'must be an origin such as https://reports.example.com' }),
  }),
);

export const LIST_TRUSTED_ORIGINS: ListSpec = {
  sort: { Name: 'LOWER(t.name)', Description: 'LOWER(t.description)', Address: 'LOWER(t.address)' },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 't.name', description: 't.description' },
};

export const trustedOriginDto = (t: TrustedOriginRow) => ({
  id: t.id,
  name: t.name,
  description: t.description,
  address: t.address,
  createdDate: iso(t.createdDate),
  modifiedDate: iso(t.modifiedDate),
});

export async function saveTrustedOrigin(ctx: OpContext, id: string | null, f: z.output<typeof TrustedOriginV1>) {
  const base = id ? await findOr404(ctx, TrustedOrigin, id, 'Trusted origin') : newBase(ctx.now());
  const row: TrustedOriginRow = {
    ...base,
    name: f.name,
    description: f.description ?? null,
    address: normalizeOrigin(f.address)!,
    modifiedDate: ctx.now(),
  };
  await ctx.db.getRepository(TrustedOrigin).save(row);
  return trustedOriginDto(row);
}
