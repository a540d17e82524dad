import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import { newBase, iso } from '../../core/entity-base.js';
import { countWhere, findOr404, refuseIfReferenced, requireAll } from '../../core/rows.js';
import { Organization, type OrganizationRow } from '../../model/organizations.entity.js';
import { IdentityProvider, OrganizationIdentityProvider } from '../../model/identity-providers.entity.js';
import { rawPageOf, pageOf, ListQuery, ListSpec } from '../../core/list-query.js';
import { Resource } from '../../model/resources.entity.js';
import { resourceDto } from '../resources/resources.rules.js';
import { sql } from '../../core/sql.js';
import { lazySchema } from '../../core/lazy-schema.js';

export const SORT_ORGANIZATIONS = {
  Name: 'LOWER(o.name)',
  DisplayName: 'LOWER(o."displayName")',
  Description: 'LOWER(o.description)',
};

/** An organization as answered (set A 2.6). */
export const OrganizationResult = lazySchema(() =>
  z.object({
    id: z.guid(),
    name: z.string().nullable(),
    displayName: z.string(),
    description: z.string().nullable(),
    themeId: z.string(),
    allowNtlm: z.boolean(),
    allowJwt: z.boolean(),
    serviceAuth: z.boolean(),
    identityProviderId: z.guid().nullable(),
    createdDate: z.iso.datetime().nullable(),
    modifiedDate: z.iso.datetime().nullable(),
  }),
);

export function organizationDto(o: OrganizationRow): z.output<typeof OrganizationResult> {
  return {
    id: o.id,
    name: o.name,
    displayName: o.displayName,
    description: o.description,
    themeId: o.themeId,
    allowNtlm: o.allowNtlm,
    allowJwt: o.allowJwt,
    serviceAuth: o.serviceAuth,
    identityProviderId: o.identityProviderId,
    createdDate: iso(o.createdDate),
    modifiedDate: iso(o.modifiedDate),
  };
}

export interface OrganizationFields {
  name?: string | null;
  displayName: string;
  description?: string | null;
  themeId: string;
}

export async function createOrganization(ctx: OpContext, f: OrganizationFields) {
  const row: OrganizationRow = {
    ...newBase(ctx.now()),
    name: f.name ?? null,
    displayName: f.displayName,
    description: f.description ?? null,
    themeId: f.themeId,
    allowNtlm: false,
    allowJwt: false,
    serviceAuth: true,
    identityProviderId: null,
  };
  await ctx.db.getRepository(Organization).insert(row);
  return organizationDto(row);
}

export async function updateOrganization(ctx: OpContext, id: string, f: Partial<OrganizationFields>) {
  const row = await findOr404(ctx, Organization, id, 'Organization');
  if (f.name !== undefined) row.name = f.name;
  if (f.displayName !== undefined) row.displayName = f.displayName;
  if (f.description !== undefined) row.description = f.description ?? null;
  if (f.themeId !== undefined) row.themeId = f.themeId;
  row.modifiedDate = ctx.now();
  await ctx.db.getRepository(Organization).save(row);
  return organizationDto(row);
}

export interface AuthenticationFields {
  allowNtlm?: boolean;
  allowJwt?: boolean;
  serviceAuth?: boolean;
  identityProviderIds?: string[];
  identityProviderId?: string | null;
}

/** Sets an organization's sign-in methods; identity providers named must exist. */
export async function setOrganizationAuthentication(ctx: OpContext, id: string, f: AuthenticationFields) {
  const row = await findOr404(ctx, Organization, id, 'Organization');
  const providerIds =
    f.identityProviderIds ??
    (f.identityProviderId ? [f.identityProviderId] : f.identityProviderId === null ? [] : undefined);
  if (providerIds) await requireAll(ctx, IdentityProvider, providerIds, 'Identity provider');
  if (f.allowNtlm !== undefined) row.allowNtlm = f.allowNtlm;
  if (f.allowJwt !== undefined) row.allowJwt = f.allowJwt;
  if (f.serviceAuth !== undefined) row.serviceAuth = f.serviceAuth;
  if (f.identityProviderId !== undefined) row.identityProviderId = f.identityProviderId;
  // Set A's list is the whole truth when given: set B's one provider goes when the list leaves it out.
  if (f.identityProviderIds && row.identityProviderId && !f.identityProviderIds.includes(row.identityProviderId))
    row.identityProviderId = null;
  row.modifiedDate = ctx.now();
  await ctx.db.transaction(async (m) => {
    await m.getRepository(Organization).save(row);
    if (providerIds) {
      await m.getRepository(OrganizationIdentityProvider).delete({ organizationId: id });
      const unique = [...new Set(providerIds)];
      if (unique.length)
        await m
          .getRepository(OrganizationIdentityProvider)
          .insert(unique.map((p) => ({ organizationId: id, identityProviderId: p })));
    }
  });
  return organizationAuthenticationDto(ctx, row);
}

export async function organizationAuthenticationDto(ctx: OpContext, o: OrganizationRow) {
  const providers = await sql<{
    id: string;
    name: string;
    description: string | null;
    isActive: number | boolean;
    createdDate: string | Date;
  }>(
    ctx.db,
    `SELECT p.id, p.name, p.description, p."isActive", p."createdDate" FROM identity_providers p
     JOIN organization_identity_providers l ON l."identityProviderId" = p.id WHERE l."organizationId" = ? ORDER BY p.name`,
    [o.id],
  );
  return {
    id: o.id,
    allowNtlm: o.allowNtlm,
    allowJwt: o.allowJwt,
    serviceAuth: o.serviceAuth,
    identityProvider: o.identityProviderId,
    // `isAactive` is spelled as set A spells it.
    identityProviders: providers.map((p) => ({
      id: p.id,
      name: p.name,
      description: p.description,
      isAactive: !!p.isActive,
      createdDate: iso(p.createdDate),
    })),
  };
}

/** Deletes organizations that nothing refers to; otherwise 409 naming what refers to them. */
export async function deleteOrganizations(ctx: OpContext, ids: string[]) {
  const rows = await requireAll(ctx, Organization, ids, 'Organization');
  for (const o of rows) {
    refuseIfReferenced(`Organization "${o.displayName}"`, [
      {
        what: 'user(s)',
        count: await countWhere(ctx, 'SELECT COUNT(*) AS n FROM user_organizations WHERE "targetId" = ?', [o.id]),
      },
      {
        what: 'group(s)',
        count: await countWhere(ctx, 'SELECT COUNT(*) AS n FROM groups WHERE "organizationId" = ?', [o.id]),
      },
      {
        what: 'resource(s)',
        count: await countWhere(ctx, 'SELECT COUNT(*) AS n FROM resources WHERE "organizationId" = ?', [o.id]),
      },
      {
        what: 'user directory(ies)',
        count: await countWhere(ctx, 'SELECT COUNT(*) AS n FROM user_directories WHERE "organizationId" = ?', [o.id]),
      },
    ]);
  }
  if (rows.length) await ctx.db.getRepository(Organization).delete(rows.map((r) => r.id));
  return { deleted: rows.length };
}

/** The users and groups of an organization, one page. */
export async function listOrganizationMembers(ctx: OpContext, organizationId: string, spec: ListSpec, list: ListQuery) {
  await findOr404(ctx, Organization, organizationId, 'Organization');
  const members = `(SELECT u.id AS id, 'user' AS type, u."firstName" || ' ' || u."lastName" AS name, u.email AS email, u."createdDate" AS "createdDate"
      FROM users u JOIN user_organizations l ON l."userId" = u.id WHERE l."targetId" = :org
    UNION ALL
    SELECT g.id, 'group', g.name, NULL, g."createdDate" FROM groups g WHERE g."organizationId" = :org)`;
  const qb = ctx.db.createQueryBuilder().select('m.*').from(members, 'm').setParameter('org', organizationId);
  return rawPageOf(
    qb,
    spec,
    list,
    'm.id',
    (r: { id: string; type: string; name: string; email: string | null; createdDate: string }) => ({
      id: r.id,
      type: r.type,
      name: r.name,
      email: r.email,
      createdDate: iso(r.createdDate),
    }),
  );
}

/** The resources of an organization, one page. */
export async function listOrganizationResources(
  ctx: OpContext,
  organizationId: string,
  spec: ListSpec,
  list: ListQuery,
) {
  await findOr404(ctx, Organization, organizationId, 'Organization');
  const qb = ctx.db
    .getRepository(Resource)
    .createQueryBuilder('r')
    .where('r."organizationId" = :org', { org: organizationId });
  return pageOf(qb, spec, list, 'r.id', resourceDto);
}
