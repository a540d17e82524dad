import { z } from 'zod';
import type { OpContext } from '../../../ops/context.js';
import { visibleRequests } from '../../../access/project-reach.js';
import { iso } from '../../../core/entity-base.js';
import { conflict, notFound } from '../../../core/errors.js';
import { lazySchema } from '../../../core/lazy-schema.js';
import type { ListQuery, ListSpec } from '../../../core/list-query.js';
import { dateBound, pageOf } from '../../../core/list-query.js';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../../core/enumerations.js';
import { Delivery, type DeliveryRow } from '../../../model/deliveries.entity.js';

// Deliveries kept after their run, as Monitoring shows them beside the outbox: waiting with their
// next try, delivered, failed; a person's hand on them (retry, cancel, try now).

export const LIST_DELIVERIES: ListSpec = {
  sort: {
    createdDate: 'd."createdDate"',
    status: 'd.status',
    destination: 'LOWER(d.destination)',
    nextAttemptAt: 'd."nextAttemptAt"',
    attempts: 'd.attempts',
  },
  defaultSort: { by: 'createdDate', direction: 'desc' },
  text: { destination: 'd.destination' },
  // Narrowed by the runs' filter as the outbox is: a task's deliveries, of a period.
  exact: {
    status: 'd.status',
    created_from: dateBound('d."createdDate"', '>=', 'created_from'),
    created_to: dateBound('d."createdDate"', '<', 'created_to'),
  },
  uuid: {
    request_id: 'd."requestId"',
    task_id: '(SELECT rq."taskId" FROM requests rq WHERE rq.id = d."requestId")',
  },
};

export const DeliveryResult = lazySchema(() =>
  z.object({
    id: z.string(),
    requestId: z.string(),
    destination: z.string(),
    path: z.string(),
    files: z.array(z.string()),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number(),
    lastError: z.string().nullable(),
    createdDate: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
    giveUpAt: z.string().nullable(),
    deliveredAt: z.string().nullable(),
  }),
);

export function deliveryDto(d: DeliveryRow) {
  return {
    id: d.id,
    requestId: d.requestId,
    destination: d.destination,
    path: d.path,
    files: d.files.map((f) => f.name),
    status: d.status,
    attempts: d.attempts,
    lastError: d.lastError,
    createdDate: iso(d.createdDate),
    // Only a waiting delivery has a next try.
    nextAttemptAt: d.status === 'waiting' ? iso(d.nextAttemptAt) : null,
    giveUpAt: iso(d.giveUpAt),
    deliveredAt: iso(d.deliveredAt),
  };
}

/** Deliveries with their runs: whoever run history shows a run to sees its deliveries. */
function visibleDeliveries(ctx: OpContext) {
  const runs = visibleRequests(ctx).select('r.id');
  return ctx.db
    .getRepository(Delivery)
    .createQueryBuilder('d')
    .andWhere(`d."requestId" IN (${runs.getQuery()})`)
    .setParameters(runs.getParameters());
}

export const listDeliveries = (ctx: OpContext, list: ListQuery) =>
  pageOf(visibleDeliveries(ctx), LIST_DELIVERIES, list, 'd.id', deliveryDto);

async function visibleDelivery(ctx: OpContext, id: string) {
  const d = await visibleDeliveries(ctx).andWhere('d.id = :deliveryId', { deliveryId: id }).getOne();
  if (!d) throw notFound(`Delivery ${id}`);
  return d;
}

/** Changes a delivery only while it is still as read (the queue may have taken it meanwhile). */
async function changeIf(ctx: OpContext, d: DeliveryRow, patch: Partial<DeliveryRow>, busy: string) {
  const res = await ctx.write(() =>
    ctx.db.getRepository(Delivery).update({ id: d.id, status: d.status }, { ...patch, modifiedDate: ctx.now() }),
  );
  if (!res.affected) throw conflict(busy);
  const status = (patch.status ?? d.status) as DeliveryStatus;
  ctx.deliveries.changed(d, status);
  return deliveryDto({ ...d, ...patch, status });
}

/**
 * A failed or cancelled delivery is tried again now, with a new span of tries by itself (a person
 * freed the disk or fixed the server); its count of tries starts again.
 */
export async function retryDelivery(ctx: OpContext, id: string) {
  const d = await visibleDelivery(ctx, id);
  if (d.status !== 'failed' && d.status !== 'cancelled')
    throw conflict(`Only a failed or cancelled delivery can be tried again; this one is ${d.status}`);
  const now = ctx.now();
  const span = Math.max(0, d.giveUpAt.getTime() - d.createdDate.getTime());
  const dto = await changeIf(
    ctx,
    d,
    { status: 'waiting', attempts: 0, nextAttemptAt: now, giveUpAt: new Date(now.getTime() + span) },
    'The delivery changed meanwhile; look again',
  );
  ctx.deliveries.wake();
  return dto;
}

/** A delivery waiting for its next try is not tried again; one being tried right now cannot be called back. */
export async function cancelDelivery(ctx: OpContext, id: string) {
  const d = await visibleDelivery(ctx, id);
  if (d.status !== 'waiting' && d.status !== 'failed')
    throw conflict(`Only a delivery waiting for its next try (or failed) can be cancelled; this one is ${d.status}`);
  return changeIf(
    ctx,
    d,
    { status: 'cancelled' },
    'The delivery is being tried right now and can no longer be cancelled',
  );
}

/** A delivery waiting for its next try is tried now instead of at its set time; its tries so far still count. */
export async function deliverNow(ctx: OpContext, id: string) {
  const d = await visibleDelivery(ctx, id);
  if (d.status !== 'waiting')
    throw conflict(`Only a delivery waiting for its next try can be tried now; this one is ${d.status}`);
  const dto = await changeIf(ctx, d, { nextAttemptAt: ctx.now() }, 'The delivery is being tried right now');
  ctx.deliveries.wake();
  return dto;
}
