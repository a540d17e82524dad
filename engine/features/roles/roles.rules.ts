import { z } from 'zod';
import { v } from '../../core/validation.js';
import type { ListSpec } from '../../core/list-query.js';
import { findOr404 } from '../../core/rows.js';
import { iso, newBase } from '../../core/entity-base.js';
import { noPermissions, ROLE_PERMISSIONS, type PermissionFlags, type RolePermission } from '../../core/permissions.js';
import { mayChangeTenantWide, tenantWideRefusal } from '../../ops/tenant-wide.js';
import { EngineError } from '../../core/errors.js';
import { UserRole } from '../../model/users.entity.js';
import { me, type OpContext } from '../../ops/context.js';
import { Role, type RoleRow } from '../../model/roles.entity.js';
import { refuseChangingStrongerRole, refuseGrantBeyondOwn } from '../../access/privilege.js';
import { lazySchema } from '../../core/lazy-schema.js';

// Set A 2.13: every permission is a boolean; one left out is false.
export const PermissionSetV1 = lazySchema(() =>
  z.object(
    Object.fromEntries(ROLE_PERMISSIONS.map((p) => [p, v.obool()])) as Record<
      (typeof ROLE_PERMISSIONS)[number],
      ReturnType<typeof v.obool>
    >,
  ),
);
export const RoleV1 = lazySchema(() =>
  z.object({
    name: v.text(),
    description: v.nstr(),
    allProjects: v.obool(),
    projects: z.array(v.idName()).nullable().optional(),
    permissions: PermissionSetV1,
    isActive: v.bool(),
  }),
);

export const LIST_ROLES: ListSpec = {
  sort: { Name: 'LOWER(r.name)', Type: 'r.type', CreatedDate: 'r."createdDate"', ModifiedDate: 'r."modifiedDate"' },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'r.name' },
  bool: { is_active: 'r."isActive"' },
};

/** Every permission flag of a role, each named. */
const PermissionFlagsResult = lazySchema(() =>
  z.object(Object.fromEntries(ROLE_PERMISSIONS.map((p) => [p, z.boolean()])) as Record<RolePermission, z.ZodBoolean>),
);

/** A role as answered (set A 2.8): its permission set with every flag named. */
export const RoleResult = lazySchema(() =>
  z.object({
    id: z.guid(),
    name: z.string(),
    description: z.string().nullable(),
    allProjects: z.boolean(),
    projects: z.array(z.object({ id: z.guid(), name: z.string().nullable() })),
    permissions: PermissionFlagsResult.extend({
      id: z.guid(),
      createdDate: z.iso.datetime().nullable(),
      modifiedDate: z.iso.datetime().nullable(),
    }),
    isActive: z.boolean(),
    type: z.string(),
    createdDate: z.iso.datetime().nullable(),
    modifiedDate: z.iso.datetime().nullable(),
  }),
);

export function roleDto(r: RoleRow) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    allProjects: r.allProjects,
    projects: r.projects,
    permissions: {
      id: r.id,
      createdDate: iso(r.createdDate),
      modifiedDate: iso(r.permissionsModifiedDate),
      ...noPermissions(),
      ...r.permissions,
    },
    isActive: r.isActive,
    type: r.type,
    createdDate: iso(r.createdDate),
    modifiedDate: iso(r.modifiedDate),
  };
}

/**
 * Roles are the tenant's, not an organization's: a change to one reaches everyone holding it. So a
 * role held by people outside the caller's organizations (or a built-in one, which anyone may hold)
 * is changed only by a tenant administrator, or by someone whose organizations are all there are.
 */
async function refuseRoleHeldElsewhere(ctx: OpContext, role: RoleRow): Promise<void> {
  const p = me(ctx);
  if (await mayChangeTenantWide(ctx.db, p)) return;
  const mine = p.organizationIds ?? [];
  const outside =
    role.type !== 'custom'
      ? 1
      : await ctx.db
          .getRepository(UserRole)
          .createQueryBuilder('ur')
          .where('ur."targetId" = :role', { role: role.id })
          .andWhere(
            `EXISTS (SELECT 1 FROM user_organizations uo WHERE uo."userId" = ur."userId"${mine.length ? ' AND uo."targetId" NOT IN (:...mine)' : ''})`,
            { mine },
          )
          .getCount();
  if (outside)
    throw new EngineError(
      403,
      role.type !== 'custom'
        ? tenantWideRefusal(`The built-in role “${role.name}”`)
        : `The role “${role.name}” is held by people of other organizations: only a tenant administrator may change it`,
      [{ field: 'params.id', message: 'is held outside your organizations' }],
    );
}

export async function saveRole(ctx: OpContext, id: string | null, f: z.output<typeof RoleV1>) {
  const now = ctx.now();
  const current = id ? await findOr404(ctx, Role, id, 'Role') : null;
  const permissions = Object.fromEntries(
    ROLE_PERMISSIONS.map((p) => [p, f.permissions[p] === true]),
  ) as PermissionFlags;
  if (current) {
    refuseChangingStrongerRole(ctx, current);
    await refuseRoleHeldElsewhere(ctx, current);
  }
  refuseGrantBeyondOwn(ctx, {
    permissions,
    allProjects: f.allProjects ?? false,
    projectIds: (f.projects ?? []).map((p) => p.id),
  });
  const changed = !current || ROLE_PERMISSIONS.some((p) => current.permissions[p] !== permissions[p]);
  const row: RoleRow = {
    ...(current ?? { ...newBase(now), type: 'custom', permissionsModifiedDate: now }),
    name: f.name,
    description: f.description ?? null,
    allProjects: f.allProjects ?? false,
    projects: (f.projects ?? []).map((p) => ({ id: p.id, name: p.name ?? null })),
    permissions,
    isActive: f.isActive,
    modifiedDate: now,
  };
  if (changed) row.permissionsModifiedDate = now;
  await ctx.db.getRepository(Role).save(row);
  return roleDto(row);
}
