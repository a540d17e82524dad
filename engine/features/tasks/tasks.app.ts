import { defineOp } from '../../ops/op.js';
import { v } from '../../core/validation.js';
import { DeletedResult } from '../common.results.js';
import { deleteTasks } from './tasks.rules.js';

// Operations on tasks the interface does not name and a product needs.
export const tasksApp = [
  defineOp({
    id: 'app.tasks.delete',
    summary: 'Delete tasks (their running requests are stopped first)',
    http: { method: 'DELETE', path: '/api/v1/tasks' },
    permission: 'deleteTask',
    member: { task: 'delete' },
    writes: 'chunked',
    input: { body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { body }) => deleteTasks(ctx, body),
  }),
] as const;
