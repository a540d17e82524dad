import { defineOp } from '../../ops/op.js';
import { idParam } from '../../core/validation.js';
import { dryRun } from './dry-run.js';

// Delivery as a designer checks it before a first send.
export const deliveryApp = [
  defineOp({ id: 'app.tasks.dryRun', summary: 'Who would receive what from a task, and why anyone is left out, before anything is sent', http: { method: 'GET', path: '/api/v1/tasks/{id}/dry-run' }, permission: 'viewTask', input: { params: idParam }, handler: (ctx, { params }) => dryRun(ctx, params.id) }),
] as const;
