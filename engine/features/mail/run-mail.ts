import { In } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { Outbox } from './mail.entity.js';
import { OUTBOX_WAITING, type OutboxStatus } from '../../core/enumerations.js';
import { explainMailError } from './mail-replies.js';

// What a run's mail came to, for the runs list: counts by state and the worst problem in words.
// Apart from the outbox's own rules so that the runs list can read it without a cycle.

/** Mail of each request by status, for the monitoring screen's delivery column. */
export async function mailCounts(
  ctx: Pick<OpContext, 'db'>,
  requestIds: string[],
): Promise<Map<string, Record<string, number>>> {
  const out = new Map<string, Record<string, number>>();
  if (!requestIds.length) return out;
  const rows = (await ctx.db
    .getRepository(Outbox)
    .createQueryBuilder('o')
    .select('o.requestId', 'requestId')
    .addSelect('o.status', 'status')
    .addSelect('COUNT(*)', 'n')
    .where({ requestId: In(requestIds) })
    .groupBy('o.requestId')
    .addGroupBy('o.status')
    .getRawMany()) as { requestId: string; status: string; n: number }[];
  for (const r of rows) out.set(r.requestId, { ...(out.get(r.requestId) ?? {}), [r.status]: Number(r.n) });
  return out;
}

/**
 * Each run's worst delivery problem in words: mail that failed for good first, then mail waiting to
 * retry after a failure (a wrong port looks like this for a while), with what to check.
 */
export async function deliveryProblems(ctx: Pick<OpContext, 'db'>, requestIds: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!requestIds.length) return out;
  const rows = await ctx.db
    .getRepository(Outbox)
    .createQueryBuilder('o')
    .select(['o.requestId', 'o.status', 'o.lastError'])
    .where({ requestId: In(requestIds) })
    .andWhere('(o.status = :failed OR (o.status IN (:...waiting) AND o.attempts > 0))', {
      failed: 'failed' satisfies OutboxStatus,
      waiting: OUTBOX_WAITING,
    })
    .getMany();
  for (const id of requestIds) {
    const mine = rows.filter((r) => r.requestId === id);
    const failed = mine.filter((r) => r.status === 'failed');
    const worst = failed.length ? failed : mine;
    if (!worst.length) continue;
    const n = worst.length;
    const what = failed.length
      ? `${n} mail${n === 1 ? '' : 's'} failed`
      : `${n} mail${n === 1 ? '' : 's'} waiting to retry`;
    out.set(id, `${what}: ${explainMailError(worst[0].lastError) ?? 'no reply was kept'}`);
  }
  return out;
}
