import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { findOr404 } from '../../core/rows.js';
import type { ListSpec } from '../../core/list-query.js';
import { v } from '../../core/validation.js';
import { RESOURCE_TYPES } from '../../core/enumerations.js';
import { Organization } from '../../model/organizations.entity.js';
import { Resource, type ResourceRow } from '../../model/resources.entity.js';
import { pageOf, ListQuery } from '../../core/list-query.js';
import { me } from '../../ops/context.js';

// Set A 2.12. Link resources open in a browser: only http(s) (v.url), so a stored link can never run script.
export const ResourceV1 = lazySchema(() =>
  z.object({
    name: v.text(),
    description: v.nstr(),
    type: v.oneOf(RESOURCE_TYPES),
    organizationId: v.uuid(),
    url: v.url(),
  }),
);
export type ResourceFields = z.output<typeof ResourceV1>;

export const LIST_RESOURCES: ListSpec = {
  sort: {
    name: 'LOWER(r.name)',
    description: 'LOWER(r.description)',
    type: 'LOWER(r.type)',
    url: 'LOWER(r.url)',
    createdDate: 'r."createdDate"',
    modifiedDate: 'r."modifiedDate"',
  },
  defaultSort: { by: 'name', direction: 'asc' },
  text: { name: 'r.name', description: 'r.description' },
};

export function resourceDto(r: ResourceRow) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    type: r.type,
    organizationId: r.organizationId,
    url: r.url,
    createdDate: iso(r.createdDate),
    modifiedDate: iso(r.modifiedDate),
  };
}

export async function saveResource(ctx: OpContext, id: string | null, f: ResourceFields) {
  await findOr404(ctx, Organization, f.organizationId, 'Organization');
  const repo = ctx.db.getRepository(Resource);
  const row: ResourceRow = id
    ? { ...(await findOr404(ctx, Resource, id, 'Resource')), ...f, modifiedDate: ctx.now() }
    : { ...newBase(ctx.now()), ...f, description: f.description ?? null, createdBy: ctx.principal?.user.id ?? null };
  row.description = f.description ?? null;
  await repo.save(row);
  return resourceDto(row);
}

/** The resources of the organizations the caller belongs to, one page. */
export async function listOwnResources(ctx: OpContext, list: ListQuery) {
  const qb = ctx.db
    .getRepository(Resource)
    .createQueryBuilder('r')
    .where('r."organizationId" IN (SELECT "targetId" FROM user_organizations WHERE "userId" = :me)', {
      me: me(ctx).user.id,
    });
  return pageOf(qb, LIST_RESOURCES, list, 'r.id', resourceDto);
}
