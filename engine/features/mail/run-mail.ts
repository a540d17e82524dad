import type { OpContext } from '../../ops/context.js';
import { OUTBOX_WAITING, type OutboxStatus } from '../../core/enumerations.js';
import { explainMailError } from './mail-replies.js';
import { marks } from '../../core/sql.js';
import { keptRead } from '../../core/kept-reads.js';

// What a run's mail came to, for the runs list: counts by state and the worst problem in words.
// Apart from the outbox's own rules so that the runs list can read it without a cycle.

export interface RunMail {
  /** Mail of each request by status, for the monitoring screen's delivery column. */
  counts: Map<string, Record<string, number>>;
  /**
   * Each run's worst delivery problem in words: mail that failed for good first, then mail waiting
   * to retry after a failure (a wrong port looks like this for a while), with what to check.
   */
  problems: Map<string, string>;
}

interface MailGroup {
  requestId: string;
  status: OutboxStatus;
  retried: number | boolean;
  n: number;
  lastError: string | null;
}

/** The mail of a page of runs, read in one query: counts by status, and a reply kept for each kind of problem. */
export async function runMail(ctx: Pick<OpContext, 'db'>, requestIds: string[]): Promise<RunMail> {
  const counts = new Map<string, Record<string, number>>();
  const problems = new Map<string, string>();
  if (!requestIds.length) return { counts, problems };
  const groups = await keptRead<MailGroup>(
    ctx.db,
    `SELECT "requestId", status, attempts > 0 AS retried, COUNT(*) AS n, MIN("lastError") AS "lastError" FROM outbox
     WHERE "requestId" IN (${marks(requestIds)}) GROUP BY "requestId", status, attempts > 0`,
    requestIds,
  );
  for (const g of groups) {
    const mine = counts.get(g.requestId) ?? {};
    mine[g.status] = (mine[g.status] ?? 0) + Number(g.n);
    counts.set(g.requestId, mine);
  }
  for (const id of requestIds) {
    const mine = groups.filter((g) => g.requestId === id);
    const failed = mine.filter((g) => g.status === 'failed');
    const retrying = mine.filter((g) => OUTBOX_WAITING.includes(g.status) && g.retried);
    const worst = failed.length ? failed : retrying;
    if (!worst.length) continue;
    const n = worst.reduce((sum, g) => sum + Number(g.n), 0);
    const what = failed.length
      ? `${n} mail${n === 1 ? '' : 's'} failed`
      : `${n} mail${n === 1 ? '' : 's'} waiting to retry`;
    const reply = worst.find((g) => g.lastError)?.lastError ?? null;
    problems.set(id, `${what}: ${explainMailError(reply) ?? 'no reply was kept'}`);
  }
  return { counts, problems };
}
