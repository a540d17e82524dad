import type PgBoss from 'pg-boss';
import type { EntityManager } from 'typeorm';
import type { Handoff, WaitingJob } from './handoff.js';

/**
 * How long a taken job may stay undone before pg-boss gives it to another server: a server takes
 * a job and claims its row within moments, so this only covers one that died in between (the
 * row's own lease covers the run itself, renewed for as long as it runs).
 */
const TAKEN_FOR_SECONDS = 60;
/** A job waits as long as its row does (pg-boss would otherwise drop it after 14 days unfetched). */
const WAITS_FOR_MINUTES = 60 * 24 * 3650;
/** Retries of a job whose server died before it was done: as many as it takes. */
const RETRIES = 1_000_000;

export interface BossHandoffOptions {
  /** The queue's name in pg-boss. */
  queue: string;
  /** Whether this server takes part in pg-boss's upkeep (expiring jobs of dead servers, archiving). */
  supervise: boolean;
  log: (message: string, error: Error) => void;
}

/** pg-boss's statements run on the caller's transaction (the row and its job commit together). */
function onTransaction(m: EntityManager): PgBoss.Db {
  const runner = m.queryRunner;
  if (!runner?.isTransactionActive) throw new Error('a job is sent inside the transaction that writes its row');
  return {
    async executeSql(text, values) {
      const result = await runner.query(text, values, true);
      return { rows: (result.records ?? []) as unknown[] };
    },
  };
}

/**
 * The handoff through pg-boss 10 (the last release for Node 20). Each job's id is its row's id, so a
 * job sent again for a row (back after a dead server) replaces the one before. Loaded only when
 * servers share PostgreSQL: the desktop never loads pg-boss.
 */
export async function openBossHandoff(url: string, o: BossHandoffOptions): Promise<Handoff> {
  const { default: PgBossClass } = await import('pg-boss');
  const boss = new PgBossClass({
    connectionString: url,
    max: 2,
    application_name: 'broadsheet-queue',
    schedule: false,
    supervise: o.supervise,
    migrate: true,
  });
  boss.on('error', (e) => o.log('The work queue reported a fault', e));
  await boss.start();
  await boss.createQueue(o.queue, {
    name: o.queue,
    policy: 'standard',
    expireInSeconds: TAKEN_FOR_SECONDS,
    retentionMinutes: WAITS_FOR_MINUTES,
    retryLimit: RETRIES,
    retryDelay: 0,
  });
  const inserts = (jobs: WaitingJob[]): PgBoss.JobInsert[] =>
    jobs.map((j) => ({ id: j.id, name: o.queue, data: {}, priority: j.priority }));
  return {
    async send(m, jobs) {
      if (!jobs.length) return;
      const db = onTransaction(m);
      // A row back in the queue had a job before (done, or taken by a server that died): replaced.
      await boss.deleteJob(
        o.queue,
        jobs.map((j) => j.id),
        { db },
      );
      await boss.insert(inserts(jobs), { db });
    },
    async ensure(m, jobs) {
      // Inserted only where no job has the id (pg-boss inserts with ON CONFLICT DO NOTHING).
      if (jobs.length) await boss.insert(inserts(jobs), { db: onTransaction(m) });
    },
    async take(limit) {
      if (limit <= 0) return [];
      return (await boss.fetch(o.queue, { batchSize: limit, priority: true })).map((j) => j.id);
    },
    async done(ids) {
      if (ids.length) await boss.complete(o.queue, ids);
    },
    close: () => boss.stop({ graceful: false, close: true }),
  };
}
