import { defineOp } from '../../ops/op.js';
import { idParam } from '../../core/validation.js';
import { dryRun } from './deliver/dry-run.js';
import { TasksDryRunResult } from '../mail/mail.results.js';

// The distribution's own operation: the dry run a designer checks before a first send.
export const runsApp = [
  defineOp({
    id: 'app.tasks.dryRun',
    summary: 'Who would receive what from a task, and why anyone is left out, before anything is sent',
    http: { method: 'GET', path: '/api/v1/tasks/{id}/dry-run' },
    permission: 'viewTask',
    objects: { 'params.id': 'task' },
    member: { task: 'view' },
    input: { params: idParam },
    result: TasksDryRunResult,
    handler: (ctx, { params }) => dryRun(ctx, params.id),
  }),
] as const;
