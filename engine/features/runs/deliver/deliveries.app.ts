import { defineOp } from '../../../ops/op.js';
import { idParam } from '../../../core/validation.js';
import {
  cancelDelivery,
  DeliveryResult,
  deliverNow,
  LIST_DELIVERIES,
  listDeliveries,
  retryDelivery,
} from './deliveries.rules.js';

// Deliveries kept after their run (a folder on a full disk, a server down), and a person's hand on them.
export const deliveriesApp = [
  defineOp({
    id: 'app.deliveries.list',
    summary: 'Deliveries kept after their run to be tried again, newest first: waiting, delivered, failed',
    http: { method: 'GET', path: '/api/v1/deliveries' },
    permission: 'viewTaskStatus',
    member: { task: 'view', report: 'view' },
    list: LIST_DELIVERIES,
    result: DeliveryResult,
    handler: (ctx, { list }) => listDeliveries(ctx, list),
  }),
  defineOp({
    id: 'app.deliveries.retry',
    summary: 'Try a failed or cancelled delivery again',
    http: { method: 'POST', path: '/api/v1/deliveries/{id}/retry' },
    permission: 'runTask',
    objects: { 'params.id': 'delivery' },
    member: { task: 'run', report: 'run' },
    writes: 'chunked',
    input: { params: idParam },
    result: DeliveryResult,
    handler: (ctx, { params }) => retryDelivery(ctx, params.id),
  }),
  defineOp({
    id: 'app.deliveries.cancel',
    summary: 'Stop trying a delivery waiting for its next try',
    http: { method: 'POST', path: '/api/v1/deliveries/{id}/cancel' },
    permission: 'runTask',
    objects: { 'params.id': 'delivery' },
    member: { task: 'run', report: 'run' },
    writes: 'chunked',
    input: { params: idParam },
    result: DeliveryResult,
    handler: (ctx, { params }) => cancelDelivery(ctx, params.id),
  }),
  defineOp({
    id: 'app.deliveries.deliverNow',
    summary: 'Try a delivery waiting for its next try now',
    http: { method: 'POST', path: '/api/v1/deliveries/{id}/deliver-now' },
    permission: 'runTask',
    objects: { 'params.id': 'delivery' },
    member: { task: 'run', report: 'run' },
    writes: 'chunked',
    input: { params: idParam },
    result: DeliveryResult,
    handler: (ctx, { params }) => deliverNow(ctx, params.id),
  }),
] as const;
