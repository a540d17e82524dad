import type { OpContext } from '../ops/context.js';
import { findOr404 } from '../core/rows.js';
import { Organization } from '../model/organizations.entity.js';

/**
 * The organization a new object goes to: the one named; else the caller's own (the first of theirs,
 * for an administrator of some organizations); else, for a tenant administrator, the Default
 * organization (the oldest, where it was renamed). One named outside the caller's answers 404.
 */
export async function homeOrganization(
  ctx: Pick<OpContext, 'db' | 'principal'>,
  named: string | null | undefined,
): Promise<string> {
  const own = ctx.principal?.organizationIds;
  const repo = ctx.db.getRepository(Organization);
  const id =
    named ??
    own?.[0] ??
    ((await repo.findOneBy({ name: 'Default' })) ?? (await repo.find({ order: { createdDate: 'ASC' }, take: 1 }))[0])
      ?.id;
  if (!id) throw new Error('The installation has no organization');
  await findOr404(ctx, Organization, id, 'Organization');
  return id;
}
