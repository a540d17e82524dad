import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { saveGroup, setGroupMembers } from './groups.rules.js';
import { GroupBResult } from './groups.results.js';
import { withSetBIds } from '../../core/set-b-names.js';

// Set B 2.6
const CreateV2 = lazySchema(() => z.object({ name: v.text(), description: v.nstr(), organizationID: v.uuid() }));
const UpdateV2 = lazySchema(() => z.object({ name: v.text(), description: v.nstr() }));

export const groupsV2 = [
  defineOp({
    id: 'v2.groups.create',
    summary: 'Create group',
    http: { method: 'POST', path: '/api/v2/groups' },
    permission: 'createGroup',
    objects: { 'body.organizationID': 'organization' },
    input: { body: CreateV2 },
    result: GroupBResult,
    handler: async (ctx, { body }) =>
      withSetBIds(
        await saveGroup(ctx, null, {
          name: body.name,
          description: body.description,
          organizationId: body.organizationID,
        }),
        'organizationId',
      ),
  }),
  defineOp({
    id: 'v2.groups.update',
    summary: 'Update group',
    http: { method: 'PUT', path: '/api/v2/groups/{id}' },
    permission: 'editGroup',
    objects: { 'params.id': 'group' },
    input: { params: idParam, body: UpdateV2 },
    result: GroupBResult,
    handler: async (ctx, { params, body }) => withSetBIds(await saveGroup(ctx, params.id, body), 'organizationId'),
  }),
  defineOp({
    id: 'v2.groups.setMembers',
    summary: 'Set group members from a list of user ids',
    http: { method: 'PUT', path: '/api/v2/groups/{id}/members' },
    permission: 'editGroup',
    objects: { 'body[]': 'user', 'params.id': 'group' },
    input: { params: idParam, body: v.uuidList() },
    result: GroupBResult,
    handler: async (ctx, { params, body }) =>
      withSetBIds(await setGroupMembers(ctx, params.id, body), 'organizationId'),
  }),
] as const;
