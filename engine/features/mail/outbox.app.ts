import { defineOp } from '../../ops/op.js';
import { idParam } from '../../core/validation.js';
import { cancelMessage, LIST_OUTBOX, listOutbox, retryMessage, sendMessageNow } from './outbox.rules.js';
import { OutboxResult } from './mail.results.js';

// The outbox of runs: what was queued to be sent, sent, or failed, and a person's hand on it.
export const outboxApp = [
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
    objects: { 'params.id': 'mail' },
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
    objects: { 'params.id': 'mail' },
    member: { task: 'run', report: 'run' },
    writes: 'chunked',
    input: { params: idParam },
    result: OutboxResult,
    handler: (ctx, { params }) => retryMessage(ctx, params.id),
  }),
  defineOp({
    id: 'app.outbox.sendNow',
    summary: 'Try a message waiting for its next attempt now',
    http: { method: 'POST', path: '/api/v1/outbox/{id}/send-now' },
    permission: 'runTask',
    objects: { 'params.id': 'mail' },
    member: { task: 'run', report: 'run' },
    writes: 'chunked',
    input: { params: idParam },
    result: OutboxResult,
    handler: (ctx, { params }) => sendMessageNow(ctx, params.id),
  }),
] as const;
