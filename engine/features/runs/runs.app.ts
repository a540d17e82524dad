import { defineOp } from '../../ops/op.js';
import { idParam } from '../../core/validation.js';
import { dryRun } from './deliver/dry-run.js';
import { cancelMessage, LIST_OUTBOX, listOutbox, retryMessage } from './deliver/outbox.rules.js';
import { OutboxResult, TasksDryRunResult } from '../mail/mail.results.js';

// The distribution's own operations: the dry run a designer checks before a first send, and the outbox of runs.
export const runsApp = [
  defineOp({
    id: 'app.tasks.dryRun',
    summary: 'Who would receive what from a task, and why anyone is left out, before anything is sent',
    http: { method: 'GET', path: '/api/v1/tasks/{id}/dry-run' },
    permission: 'viewTask',
    member: { task: 'view' },
    input: { params: idParam },
    result: TasksDryRunResult,
    handler: (ctx, { params }) => dryRun(ctx, params.id),
  }),
  defineOp({
    id: 'app.outbox.list',
    summary: 'Messages of the outbox, newest first: queued, sent, failed',
    http: { method: 'GET', path: '/api/v1/outbox' },
    permission: 'viewTaskStatus',
    member: { task: 'view', report: 'view' },
    list: LIST_OUTBOX,
    result: OutboxResult,
    handler: (ctx, { list }) => listOutbox(ctx, list),
  }),
  defineOp({
    id: 'app.outbox.cancel',
    summary: 'Cancel a message waiting to be sent (or to be retried)',
    http: { method: 'POST', path: '/api/v1/outbox/{id}/cancel' },
    permission: 'runTask',
    member: { task: 'run', report: 'run' },
    writes: 'chunked',
    input: { params: idParam },
    result: OutboxResult,
    handler: (ctx, { params }) => cancelMessage(ctx, params.id),
  }),
  defineOp({
    id: 'app.outbox.retry',
    summary: 'Send a failed or cancelled message again',
    http: { method: 'POST', path: '/api/v1/outbox/{id}/retry' },
    permission: 'runTask',
    member: { task: 'run', report: 'run' },
    writes: 'chunked',
    input: { params: idParam },
    result: OutboxResult,
    handler: (ctx, { params }) => retryMessage(ctx, params.id),
  }),
] as const;
