import { me, type OpContext } from '../../ops/context.js';
import { visibleRequests } from '../../access/project-reach.js';
import { iso } from '../../core/entity-base.js';
import { conflict, notFound } from '../../core/errors.js';
import type { ListQuery, ListSpec } from '../../core/list-query.js';
import { dateBound, pageOf } from '../../core/list-query.js';
import { Outbox, type OutboxRow } from '../../model/mail.entity.js';
import { explainMailError } from './mail-replies.js';
import { isTenantAdministrator } from '../../access/tenant-administrator.js';

export const LIST_OUTBOX: ListSpec = {
  sort: {
    createdDate: 'o."createdDate"',
    status: 'o.status',
    subject: 'LOWER(o.subject)',
    sentAt: 'o."sentAt"',
    attempts: 'o.attempts',
  },
  defaultSort: { by: 'createdDate', direction: 'desc' },
  text: { subject: 'o.subject' },
  // The monitoring screen's run filter narrows the outbox too: a task's mail, and mail of a period.
  exact: {
    status: 'o.status',
    created_from: dateBound('o."createdDate"', '>=', 'created_from'),
    created_to: dateBound('o."createdDate"', '<', 'created_to'),
  },
  uuid: {
    request_id: 'o."requestId"',
    task_id: '(SELECT rq."taskId" FROM requests rq WHERE rq.id = o."requestId")',
  },
};

export function outboxDto(m: OutboxRow) {
  return {
    id: m.id,
    requestId: m.requestId,
    messageId: m.messageId,
    to: m.to,
    cc: m.cc,
    subject: m.subject,
    attachments: m.attachments.map((a) => a.fileName),
    status: m.status,
    attempts: m.attempts,
    uncertain: m.uncertain,
    lastError: m.lastError,
    explanation: explainMailError(m.lastError),
    accepted: m.accepted,
    rejected: m.rejected,
    createdDate: iso(m.createdDate),
    nextAttemptAt: iso(m.nextAttemptAt),
    sentAt: iso(m.sentAt),
  };
}

/**
 * The outbox as the caller may see it: a run's mail with the run (what run history shows them);
 * mail of no run (invitations, welcomes, test mails) to tenant administrators only.
 */
function visibleOutbox(ctx: OpContext) {
  const qb = ctx.db.getRepository(Outbox).createQueryBuilder('o');
  const p = me(ctx);
  if (isTenantAdministrator(p)) return qb;
  const runs = visibleRequests(ctx).select('r.id');
  return qb.andWhere(`o."requestId" IN (${runs.getQuery()})`).setParameters(runs.getParameters());
}

export const listOutbox = (ctx: OpContext, list: ListQuery) =>
  pageOf(visibleOutbox(ctx), LIST_OUTBOX, list, 'o.id', outboxDto);

async function visibleMessage(ctx: OpContext, id: string) {
  const m = await visibleOutbox(ctx).andWhere('o.id = :outboxId', { outboxId: id }).getOne();
  if (!m) throw notFound(`Message ${id}`);
  return m;
}

/** A failed or cancelled message goes back to the queue, tried afresh (same Message-ID: it never arrived). */
export async function retryMessage(ctx: OpContext, id: string) {
  const m = await visibleMessage(ctx, id);
  if (m.status !== 'failed' && m.status !== 'cancelled')
    throw conflict(`Only a failed or cancelled message can be sent again; this one is ${m.status}`);
  await ctx.write(() =>
    ctx.db
      .getRepository(Outbox)
      .update(
        { id, status: m.status },
        { status: 'queued', attempts: 0, nextAttemptAt: ctx.now(), modifiedDate: ctx.now() },
      ),
  );
  ctx.outbox.changed(m, 'queued');
  ctx.outbox.wake();
  return outboxDto({ ...m, status: 'queued', attempts: 0 });
}

/** A message waiting to be sent (or retried) is not sent; one being sent right now cannot be called back. */
export async function cancelMessage(ctx: OpContext, id: string) {
  const m = await visibleMessage(ctx, id);
  if (!['queued', 'uncertain', 'failed'].includes(m.status))
    throw conflict(`Only a message waiting to be sent can be cancelled; this one is ${m.status}`);
  // Only if still waiting when the write runs: the outbox may have picked it up meanwhile.
  const res = await ctx.write(() =>
    ctx.db.getRepository(Outbox).update({ id, status: m.status }, { status: 'cancelled', modifiedDate: ctx.now() }),
  );
  if (!res.affected) throw conflict('The message is being sent right now and can no longer be cancelled');
  ctx.outbox.changed(m, 'cancelled');
  return outboxDto({ ...m, status: 'cancelled' });
}

/**
 * A message waiting for its next try is tried now instead of at its set time (a person fixed the
 * server, or will not wait); its attempts so far still count.
 */
export async function sendMessageNow(ctx: OpContext, id: string) {
  const m = await visibleMessage(ctx, id);
  if (m.status !== 'queued')
    throw conflict(`Only a message waiting to be sent can be sent now; this one is ${m.status}`);
  const now = ctx.now();
  const res = await ctx.write(() =>
    ctx.db.getRepository(Outbox).update({ id, status: 'queued' }, { nextAttemptAt: now, modifiedDate: now }),
  );
  if (!res.affected) throw conflict('The message is being sent right now');
  ctx.outbox.wake();
  return outboxDto({ ...m, nextAttemptAt: now });
}
