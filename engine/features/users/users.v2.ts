import { defineOp } from '../../ops/op.js';
import { idParam } from '../../core/validation.js';
import { deleteUser } from './users.rules.js';
import { DeletedResult } from '../common.results.js';

export const usersV2 = [
  defineOp({
    id: 'v2.users.delete',
    summary: 'Delete user (not self, not tenant owner, not with associated content)',
    http: { method: 'DELETE', path: '/api/v2/users/{id}' },
    permission: 'deleteUser',
    objects: { 'params.id': 'user' },
    input: { params: idParam },
    result: DeletedResult,
    handler: (ctx, { params }) => deleteUser(ctx, params.id),
  }),
] as const;
