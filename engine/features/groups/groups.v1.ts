import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { runList } from '../../core/list-query.js';
import { Page } from '../../core/envelope.js';
import { listGroupMembers } from './groups.rules.js';
import {
  addGroupMembers,
  deleteGroups,
  groupDtos,
  GroupResult,
  groupsQuery,
  LIST_GROUP_MEMBERS,
  LIST_GROUPS,
  removeGroupMembers,
  saveGroup,
} from './groups.rules.js';
import { DeletedResult } from '../common.results.js';
import { GroupsListMembersResult } from './groups.results.js';

// Set A 2.4
const GroupV1 = lazySchema(() =>
  z.object({ name: v.text(), description: v.nstr(), organizationId: v.nuuid(), isActive: v.obool() }),
);

export const groupsV1 = [
  defineOp({
    id: 'v1.groups.create',
    summary: 'Add group',
    http: { method: 'POST', path: '/api/v1/groups' },
    permission: 'createGroup',
    objects: { 'body.organizationId': 'organization' },
    input: { body: GroupV1 },
    result: GroupResult,
    handler: (ctx, { body }) => saveGroup(ctx, null, body),
  }),
  defineOp({
    id: 'v1.groups.list',
    summary: 'List groups',
    http: { method: 'GET', path: '/api/v1/groups' },
    permission: 'viewGroup',
    list: LIST_GROUPS,
    result: GroupResult,
    handler: async (ctx, { list }) => {
      const { rows, total, page, pageSize } = await runList(groupsQuery(ctx), LIST_GROUPS, list, 'g.id');
      return new Page(await groupDtos(ctx, rows), page, pageSize, total);
    },
  }),
  defineOp({
    id: 'v1.groups.delete',
    summary: 'Delete groups',
    http: { method: 'DELETE', path: '/api/v1/groups' },
    permission: 'deleteGroup',
    objects: { 'body[]': 'group' },
    input: { body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { body }) => deleteGroups(ctx, body),
  }),
  defineOp({
    id: 'v1.groups.update',
    summary: 'Update group',
    http: { method: 'PUT', path: '/api/v1/groups/{id}' },
    permission: 'editGroup',
    objects: { 'body.organizationId': 'organization', 'params.id': 'group' },
    input: { params: idParam, body: GroupV1 },
    result: GroupResult,
    handler: (ctx, { params, body }) => saveGroup(ctx, params.id, body),
  }),
  defineOp({
    id: 'v1.groups.listMembers',
    summary: 'List group members',
    http: { method: 'GET', path: '/api/v1/groups/{id}/users' },
    permission: 'viewGroup',
    objects: { 'params.id': 'group' },
    input: { params: idParam },
    list: LIST_GROUP_MEMBERS,
    result: GroupsListMembersResult,
    handler: (ctx, { params, list }) => listGroupMembers(ctx, params.id, list),
  }),
  defineOp({
    id: 'v1.groups.addUsers',
    summary: 'Add users to group (users already in it stay once)',
    http: { method: 'POST', path: '/api/v1/groups/{id}/users' },
    permission: 'editGroup',
    objects: { 'body[]': 'user', 'params.id': 'group' },
    input: { params: idParam, body: v.uuidList() },
    result: GroupResult,
    handler: (ctx, { params, body }) => addGroupMembers(ctx, params.id, body),
  }),
  defineOp({
    id: 'v1.groups.removeUsers',
    summary: 'Remove users from group',
    http: { method: 'DELETE', path: '/api/v1/groups/{id}/users' },
    permission: 'editGroup',
    objects: { 'body[]': 'user', 'params.id': 'group' },
    input: { params: idParam, body: v.uuidList() },
    result: GroupResult,
    handler: (ctx, { params, body }) => removeGroupMembers(ctx, params.id, body),
  }),
] as const;
