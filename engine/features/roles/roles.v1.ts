import { defineOp } from '../../ops/op.js';
import { idParam } from '../../core/validation.js';
import { pageOfEntity } from '../../core/list-query.js';
import { Role } from '../../model/roles.entity.js';
import { LIST_ROLES, roleDto, RoleResult, RoleV1, saveRole } from './roles.rules.js';
import { NamedResult } from '../common.results.js';

export const rolesV1 = [
  defineOp({
    id: 'v1.roles.list',
    summary: 'List roles',
    http: { method: 'GET', path: '/api/v1/roles' },
    permission: 'viewUser',
    list: LIST_ROLES,
    result: RoleResult,
    handler: (ctx, { list }) => pageOfEntity(ctx, Role, 'r', LIST_ROLES, list, roleDto),
  }),
  defineOp({
    id: 'v1.roles.create',
    summary: 'Add role',
    http: { method: 'POST', path: '/api/v1/roles' },
    permission: 'createSystem',
    objects: { 'body.projects[].id': 'project' },
    input: { body: RoleV1 },
    result: RoleResult,
    handler: (ctx, { body }) => saveRole(ctx, null, body),
  }),
  defineOp({
    id: 'v1.roles.listSimple',
    summary: 'List simplified roles (id and name)',
    http: { method: 'GET', path: '/api/v1/roles/simple' },
    permission: 'viewUser',
    list: LIST_ROLES,
    result: NamedResult,
    handler: (ctx, { list }) => pageOfEntity(ctx, Role, 'r', LIST_ROLES, list, (r) => ({ id: r.id, name: r.name })),
  }),
  defineOp({
    id: 'v1.roles.update',
    summary: 'Update role',
    http: { method: 'PUT', path: '/api/v1/roles/{id}' },
    permission: 'editSystem',
    objects: { 'body.projects[].id': 'project', 'params.id': 'role' },
    input: { params: idParam, body: RoleV1 },
    result: RoleResult,
    handler: (ctx, { params, body }) => saveRole(ctx, params.id, body),
  }),
] as const;
