import { randomUUID } from 'node:crypto';
import { LessThan, MoreThan } from 'typeorm';
import { ACCOUNT_RULE, KNOWN_ADDRESS_MS, type SignInOutcome as Outcome } from '../../core/throttle.js';
import type { EngineServices } from '../../ops/context.js';
import { SignInOutcome } from '../../model/sign-in-outcomes.entity.js';

// The sign-in throttle counts in memory (it answers before the password is even checked) and keeps
// what it counts in the database: an engine restarted, or a server started beside others, reads it
// back, so guesses made before it are not forgotten (servers running together also tell each other
// at once; see peers.ts).

/** Failures older than the longest throttle remembers them count for nothing. */
const FAILURES_KEPT_MS = ACCOUNT_RULE.forgetMs;

/**
 * Keeps a sign-in's outcome: every failure (those past what any throttle remembers are removed as
 * it goes), and for a success only the latest of its account at its address. Runs in the sign-in's
 * own write turn.
 */
export async function keepSignIn(
  s: Pick<EngineServices, 'db' | 'now'>,
  outcome: Outcome,
  account: string,
  address: string,
): Promise<void> {
  const repo = s.db.getRepository(SignInOutcome);
  const at = s.now();
  const row = { id: randomUUID(), account: account.slice(0, 320), address: address.slice(0, 64), outcome, at };
  if (outcome === 'succeed') await repo.delete({ account: row.account, address: row.address, outcome });
  else await repo.delete({ outcome, at: LessThan(new Date(at.getTime() - FAILURES_KEPT_MS)) });
  await repo.insert(row);
}

/** At start: the outcomes the throttle still counts, heard again in the order they happened; answers how many. */
export async function replaySignIns(s: Pick<EngineServices, 'db' | 'now' | 'signInThrottle'>): Promise<number> {
  const now = s.now().getTime();
  const rows = await s.db.getRepository(SignInOutcome).find({
    where: [
      { outcome: 'fail', at: MoreThan(new Date(now - FAILURES_KEPT_MS)) },
      { outcome: 'succeed', at: MoreThan(new Date(now - KNOWN_ADDRESS_MS)) },
    ],
    order: { at: 'ASC' },
  });
  for (const r of rows) s.signInThrottle.heard(r.outcome, r.account, r.address, r.at.getTime());
  return rows.length;
}
