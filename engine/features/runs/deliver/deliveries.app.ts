import { defineOp } from '../../../ops/op.js';
import type { OpContext } from '../../../ops/context.js';
import { idParam } from '../../../core/validation.js';
import {
  cancelDelivery,
  DeliveryResult,
  deliveryDto,
  deliverNow,
  LIST_DELIVERIES,
  listDeliveries,
  retryDelivery,
} from './deliveries.rules.js';

/** A person's hand on one kept delivery: those who may run tasks, on a delivery whose run they see. */
const onOneDelivery = <Id extends string>(
  id: Id,
  summary: string,
  action: string,
  act: (ctx: OpContext, deliveryId: string) => Promise<ReturnType<typeof deliveryDto>>,
) =>
  defineOp({
    id,
    summary,
    http: { method: 'POST', path: `/api/v1/deliveries/{id}/${action}` },
    permission: 'runTask',
    objects: { 'params.id': 'delivery' },
    member: { task: 'run', report: 'run' },
    writes: 'chunked',
    input: { params: idParam },
    result: DeliveryResult,
    handler: (ctx, { params }) => act(ctx, params.id),
  });

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
  onOneDelivery('app.deliveries.retry', 'Try a failed or cancelled delivery again', 'retry', retryDelivery),
  onOneDelivery('app.deliveries.cancel', 'Stop trying a delivery waiting for its next try', 'cancel', cancelDelivery),
  onOneDelivery('app.deliveries.deliverNow', 'Try a delivery waiting for its next try now', 'deliver-now', deliverNow),
] as const;
