import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { type ListSpec, pageOfEntity } from '../../core/list-query.js';
import { findOr404 } from '../../core/rows.js';
import { iso, newBase } from '../../core/entity-base.js';
import { noPermissions, ROLE_PERMISSIONS, type PermissionFlags } from '../../core/permissions.js';
import type { OpContext } from '../../ops/context.js';
import { Role, type RoleRow } from './roles.entity.js';
import { refuseChangingStrongerRole, refuseGrantBeyondOwn } from '../users/privilege.rules.js';

// Set A 2.13: every permission is a boolean; one left out is false.
const PermissionSetV1 = z.object(Object.fromEntries(ROLE_PERMISSIONS.map((p) => [p, v.obool()])) as Record<(typeof ROLE_PERMISSIONS)[number], ReturnType<typeof v.obool>>);
const RoleV1 = z.object({
  name: v.text(),
  description: v.nstr(),
  allProjects: v.obool(),
  projects: z.array(v.idName()).nullable().optional(),
  permissions: PermissionSetV1,
  isActive: v.bool(),
});

const LIST: ListSpec = {
  sort: { Name: 'LOWER(r.name)', Type: 'r.type', CreatedDate: 'r.createdDate', ModifiedDate: 'r.modifiedDate' },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'r.name' },
  bool: { is_active: 'r.isActive' },
};

export function roleDto(r: RoleRow) {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    allProjects: r.allProjects,
    projects: r.projects,
    permissions: { id: r.id, createdDate: iso(r.createdDate), modifiedDate: iso(r.permissionsModifiedDate), ...noPermissions(), ...r.permissions },
    isActive: r.isActive,
    type: r.type,
    createdDate: iso(r.createdDate),
    modifiedDate: iso(r.modifiedDate),
  };
}

async function save(ctx: OpContext, id: string | null, f: z.output<typeof RoleV1>) {
  const now = ctx.now();
  const current = id ? await findOr404(ctx, Role, id, 'Role') : null;
  const permissions = Object.fromEntries(ROLE_PERMISSIONS.map((p) => [p, f.permissions[p] === true])) as PermissionFlags;
  if (current) refuseChangingStrongerRole(ctx, current);
  refuseGrantBeyondOwn(ctx, { permissions, allProjects: f.allProjects ?? false, projectIds: (f.projects ?? []).map((p) => p.id) });
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

export const rolesV1 = [
  defineOp({
    id: 'v1.roles.list',
    summary: 'List roles',
    http: { method: 'GET', path: '/api/v1/roles' },
    permission: 'viewUser',
    list: LIST,
    handler: (ctx, { list }) => pageOfEntity(ctx.db, Role, 'r', LIST, list, roleDto),
  }),
  defineOp({
    id: 'v1.roles.create',
    summary: 'Add role',
    http: { method: 'POST', path: '/api/v1/roles' },
    permission: 'createSystem',
    input: { body: RoleV1 },
    handler: (ctx, { body }) => save(ctx, null, body),
  }),
  defineOp({
    id: 'v1.roles.listSimple',
    summary: 'List simplified roles (id and name)',
    http: { method: 'GET', path: '/api/v1/roles/simple' },
    permission: 'viewUser',
    list: LIST,
    handler: (ctx, { list }) => pageOfEntity(ctx.db, Role, 'r', LIST, list, (r) => ({ id: r.id, name: r.name })),
  }),
  defineOp({
    id: 'v1.roles.update',
    summary: 'Update role',
    http: { method: 'PUT', path: '/api/v1/roles/{id}' },
    permission: 'editSystem',
    input: { params: idParam, body: RoleV1 },
    handler: (ctx, { params, body }) => save(ctx, params.id, body),
  }),
] as const;
