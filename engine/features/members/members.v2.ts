import { defineOp } from '../../ops/op.js';
import type { RolePermission } from '../../core/permissions.js';
import { idParam, uuidParams, v } from '../../core/validation.js';
import type { MemberObjectKind } from '../../model/members.entity.js';
import {
  deleteMemberPermissions,
  getMemberPermission,
  listMemberPermissions,
  PermissionPatchInput,
  PermissionsModeQuery,
  PermissionsRequest,
  setMemberPermission,
  setPermissions,
  updatePermissionsMode,
} from './members.rules.js';
import { MemberPermissionResult, MemberPermissionsResult, PermissionsModeResult } from './members.results.js';
import { DeletedResult } from '../common.results.js';
import { PermissionsSaveInput, saveAllPermissions } from './permissions-save.js';

// Set B member permissions, the same four operations for each kind of object, under the object's
// own path (`/api/v2/reports/{id}/permissions`…). Changing them needs the role permission that
// edits the object; in permissions mode also the object's setPermissions flag (member-access.ts).

const oneMember = uuidParams('id', 'memberPermissionId');

/** The ids the permission operations take: the object, and the members or member permissions named. */
const permissionObjects = (kind: MemberObjectKind, named: 'members' | 'one' | 'list' | null = null) =>
  ({
    'params.id': kind,
    ...(named === 'members' && { 'body.members[].id': ['user', 'group'] as const }),
    ...(named === 'one' && { 'params.memberPermissionId': 'memberPermission' as const }),
    ...(named === 'list' && { 'body[]': 'memberPermission' as const }),
  }) as const;

/** Set, set one, delete, and list (the panel's read) for one kind; ids keep their literal types. */
function memberOps<const S extends string, const A extends string>(
  set: S,
  app: A,
  kind: MemberObjectKind,
  path: string,
  edit: RolePermission,
  view: RolePermission,
) {
  const what = kind === 'project' ? 'users or groups' : 'members';
  return [
    defineOp({
      id: `${set}.setPermissions` as `${S}.setPermissions`,
      summary: `Set permissions for ${what}`,
      http: { method: 'PUT', path: `${path}/{id}/permissions` },
      permission: edit,
      member: { [kind]: 'setPermissions' },
      objects: permissionObjects(kind, 'members'),
      input: { params: idParam, body: PermissionsRequest },
      result: MemberPermissionsResult,
      handler: (ctx, { params, body }) => setPermissions(ctx, kind, params.id, body),
    }),
    defineOp({
      id: `${set}.setMemberPermission` as `${S}.setMemberPermission`,
      summary: "Set one member's permissions",
      http: { method: 'PUT', path: `${path}/{id}/permissions/{memberPermissionId}` },
      permission: edit,
      member: { [kind]: 'setPermissions' },
      objects: permissionObjects(kind, 'one'),
      input: { params: oneMember, body: PermissionPatchInput },
      result: MemberPermissionResult,
      handler: (ctx, { params, body }) => setMemberPermission(ctx, kind, params.id, params.memberPermissionId, body),
    }),
    defineOp({
      id: `${set}.deleteMemberPermissions` as `${S}.deleteMemberPermissions`,
      summary: 'Delete member permissions',
      http: { method: 'DELETE', path: `${path}/{id}/permissions` },
      permission: edit,
      member: { [kind]: 'setPermissions' },
      objects: permissionObjects(kind, 'list'),
      input: { params: idParam, body: v.uuidList() },
      result: DeletedResult,
      handler: (ctx, { params, body }) => deleteMemberPermissions(ctx, kind, params.id, body),
    }),
    defineOp({
      id: `${app}.savePermissions` as `${A}.savePermissions`,
      summary: `Save all the members of a ${kind} and what each may do, in one transaction: all or nothing`,
      http: { method: 'PUT', path: `${path.replace('/api/v2/', '/api/app/')}/{id}/permissions` },
      permission: edit,
      member: { [kind]: 'setPermissions' },
      objects: permissionObjects(kind, 'members'),
      input: { params: idParam, body: PermissionsSaveInput },
      result: MemberPermissionsResult,
      handler: (ctx, { params, body }) => saveAllPermissions(ctx, kind, params.id, body),
    }),
    defineOp({
      id: `${app}.listPermissions` as `${A}.listPermissions`,
      summary: `The member permissions of a ${kind}`,
      http: { method: 'GET', path: `${path.replace('/api/v2/', '/api/app/')}/{id}/permissions` },
      permission: view,
      member: { [kind]: 'view' },
      objects: permissionObjects(kind),
      input: { params: idParam },
      result: MemberPermissionsResult,
      handler: (ctx, { params }) => listMemberPermissions(ctx, kind, params.id),
    }),
  ] as const;
}

/** The single-member read, where set B has one (reports and conditions). */
function getOne<const S extends string>(set: S, kind: MemberObjectKind, path: string, view: RolePermission) {
  return defineOp({
    id: `${set}.getMemberPermission` as `${S}.getMemberPermission`,
    summary: "Get one member's permissions",
    http: { method: 'GET', path: `${path}/{id}/permissions/{memberPermissionId}` },
    permission: view,
    member: { [kind]: 'view' },
    objects: permissionObjects(kind, 'one'),
    input: { params: oneMember },
    result: MemberPermissionResult,
    handler: (ctx, { params }) => getMemberPermission(ctx, kind, params.id, params.memberPermissionId),
  });
}

export const membersV2 = [
  defineOp({
    id: 'v2.projects.updatePermissionsMode',
    summary: 'Update permissions mode',
    http: { method: 'PUT', path: '/api/v2/projects/{id}/permissions-mode' },
    permission: 'updateProject',
    objects: { 'params.id': 'project' },
    member: { project: 'setPermissionsMode' },
    input: { params: idParam, query: PermissionsModeQuery },
    result: PermissionsModeResult,
    handler: (ctx, { params, query }) => updatePermissionsMode(ctx, params.id, query.value),
  }),
  ...memberOps('v2.projects', 'app.projects', 'project', '/api/v2/projects', 'updateProject', 'viewProject'),
  defineOp({
    id: 'v2.projects.deleteMemberPermission',
    summary: 'Delete one member permission',
    http: { method: 'DELETE', path: '/api/v2/projects/{id}/permissions/{memberPermissionId}' },
    permission: 'updateProject',
    objects: { 'params.id': 'project', 'params.memberPermissionId': 'memberPermission' },
    member: { project: 'setPermissions' },
    input: { params: oneMember },
    result: DeletedResult,
    handler: (ctx, { params }) => deleteMemberPermissions(ctx, 'project', params.id, [params.memberPermissionId]),
  }),
  ...memberOps('v2.reports', 'app.reports', 'report', '/api/v2/reports', 'updateProject', 'viewProject'),
  getOne('v2.reports', 'report', '/api/v2/reports', 'viewProject'),
  ...memberOps('v2.filters', 'app.filters', 'filter', '/api/v2/filters', 'updateProject', 'viewProject'),
  ...memberOps('v2.conditions', 'app.conditions', 'condition', '/api/v2/conditions', 'editCondition', 'viewCondition'),
  getOne('v2.conditions', 'condition', '/api/v2/conditions', 'viewCondition'),
  ...memberOps('v2.tasks', 'app.tasks', 'task', '/api/v2/tasks', 'editTask', 'viewTask'),
] as const;
