// The job kernel: one claim, lease and backoff implementation under every queue, and claims that
// hold between two connections to one SQLite file as between two engines: a row is taken once, a
// holder whose lease lapsed and whose work another took changes nothing, rows given back are as
// they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, EntitySchema, In } from 'typeorm';
import { claimColumns, type ClaimColumns } from '../../engine/core/jobs/claims.js';
import { TableClaimStore } from '../../engine/core/jobs/table-claims.js';
import { retryDelay } from '../../engine/core/jobs/backoff.js';
import { WriteQueues } from '../../engine/core/write-queue.js';

const engineDir = join(__dirname, '..', '..', 'engine');
/** The engine's files (relative) holding a pattern (a regular expression for grep -E). */
const filesWith = (pattern: string) =>
  execFileSync('grep', ['-rlE', pattern, engineDir, '--include=*.ts'], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((f) => f.slice(engineDir.length + 1))
    .sort();

describe('one kernel', () => {
  it('has one claim store, one pump, one backoff, and the queues as its workers', () => {
    expect(filesWith('implements ClaimStore')).toEqual(['core/jobs/table-claims.ts']);
    // Attempts are counted where a claim is taken, nowhere else.
    expect(filesWith('"attempts" \\+ 1')).toEqual(['core/jobs/table-claims.ts']);
    // Owner and lease are set by the store alone (entities spread its columns and index them; the migration adds them).
    expect(filesWith('leaseUntil').filter((f) => !f.startsWith('migrations/') && !f.endsWith('.entity.ts'))).toEqual([
      'core/jobs/claims.ts',
      'core/jobs/table-claims.ts',
    ]);
    expect(filesWith('\\* 2 \\*\\*')).toEqual(['core/jobs/backoff.ts']);
    expect(filesWith('^export class Pump')).toEqual(['core/jobs/pump.ts']);
    // Timers live in the kernel's floor; the others are network time, not schedule time: the event
    // stream's keep-alive ping, the link between servers reconnecting, a stop asked of another
    // server waiting at most a lease for its answer, a SQLite source's statement timeout, and the
    // headless server starting its background work when nobody has called it in its first second,
    // the warm LibreOffice awaited as it starts and ended after a minute unused, and an import's
    // thread started while its file arrives, ended after a minute if the file never comes.
    expect(filesWith('setTimeout\\(|setInterval\\(').filter((f) => !f.startsWith('core/jobs/'))).toEqual([
      'analytics/embedded/import-runner.ts',
      'core/shared-events.ts',
      'features/data-connections/drivers/sqlite.ts',
      'http/plugins/event-stream.ts',
      'peers.ts',
      'render/templates/warm-office.ts',
      'serve.ts',
    ]);
    expect(filesWith('implements JobWorker')).toEqual([
      'features/app-data/app-reloads.ts',
      'features/mail/outbox.ts',
      'features/runs/deliver/delivery-queue.ts',
      'features/runs/run/runner.ts',
      'features/user-directories/directory-sync.ts',
    ]);
  });

  it('waits twice as long after each failure, never longer than its cap', () => {
    const b = { baseMs: 100, maxMs: 1_000 };
    expect([1, 2, 3, 4, 5, 9].map((n) => retryDelay(n, b))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });
});

interface JobRow extends ClaimColumns {
  payload: string;
}
const Job = new EntitySchema<JobRow>({
  name: 'Job',
  tableName: 'jobs',
  columns: {
    id: { type: 'varchar', length: 36, primary: true },
    status: { type: 'varchar', length: 12 },
    payload: { type: 'text' },
    attempts: { type: 'integer', default: 0 },
    ...claimColumns,
  },
});

describe('claims between two connections to one file', () => {
  let dir: string;
  const sources: DataSource[] = [];
  let now = new Date('2026-06-01T10:00:00Z');
  const store = (db: DataSource, owner: string) => {
    const queues = new WriteQueues();
    return new TableClaimStore<JobRow>(
      db,
      (fn) => queues.run('main', fn),
      Job,
      { waiting: ['queued'], active: 'running' },
      owner,
      30_000,
      () => now,
    );
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'broadsheet-kernel-'));
    for (let i = 0; i < 2; i++) {
      const db = new DataSource({
        type: 'sqlite',
        database: join(dir, 'jobs.db'),
        entities: [Job],
        synchronize: i === 0,
        busyErrorRetry: 50,
      });
      await db.initialize();
      await db.query('PRAGMA journal_mode = WAL');
      await db.query('PRAGMA busy_timeout = 5000');
      sources.push(db);
    }
    await sources[0].getRepository(Job).insert(
      Array.from({ length: 40 }, (_, i) => ({
        id: `job-${String(i).padStart(2, '0')}`,
        status: 'queued',
        payload: `${i}`,
        attempts: 0,
        claimedBy: null,
        leaseUntil: null,
      })),
    );
  });
  afterAll(async () => {
    for (const db of sources) await db.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('gives each row to one holder when both claim the same rows at once', async () => {
    const [a, b] = [store(sources[0], 'a'), store(sources[1], 'b')];
    const ids = Array.from({ length: 40 }, (_, i) => `job-${String(i).padStart(2, '0')}`);
    const rounds = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? b : a).claim(ids.slice((i % 4) * 10, (i % 4) * 10 + 20), {})),
    );
    const taken = rounds.flat().map((r) => r.id);
    expect(new Set(taken).size).toBe(taken.length);
    const rows = await sources[0].getRepository(Job).find();
    for (const r of rows.filter((x) => x.status === 'running')) {
      expect(r.attempts).toBe(1);
      expect(['a', 'b']).toContain(r.claimedBy);
    }
    expect(
      rows
        .filter((x) => x.status === 'running')
        .map((r) => r.id)
        .sort(),
    ).toEqual([...taken].sort());
  });

  it('lets a lapsed lease be taken over once, after which the old holder changes nothing', async () => {
    const [a, b] = [store(sources[0], 'a'), store(sources[1], 'b')];
    const held = (await sources[0].getRepository(Job).findBy({ claimedBy: 'a', status: 'running' }))[0];
    expect(await b.expired(false)).toEqual([]);
    now = new Date(now.getTime() + 31_000);
    const lapsed = (await b.expired(false)).find((r) => r.id === held.id)!;
    expect(lapsed).toBeDefined();
    // Two recoverers read it lapsed; one takes it.
    const both = await Promise.all([
      b.takeOver(lapsed, { status: 'queued' }),
      a.takeOver(lapsed, { status: 'queued' }),
    ]);
    expect(both.filter(Boolean)).toHaveLength(1);
    // The old holder's late outcome is refused.
    expect(await a.settle(held.id, { status: 'done', payload: 'late' })).toBe(false);
    const again = await b.claim([held.id], {});
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ claimedBy: 'b', attempts: 2 });
    expect(await b.settle(held.id, { status: 'done', payload: 'on time' })).toBe(true);
    expect(await sources[0].getRepository(Job).findOneByOrFail({ id: held.id })).toMatchObject({
      status: 'done',
      payload: 'on time',
      claimedBy: null,
      leaseUntil: null,
    });
  });

  it('makes the taker the holder when it takes a lapsed row over to clean up first', async () => {
    const [a, b] = [store(sources[0], 'a'), store(sources[1], 'b')];
    await sources[0].getRepository(Job).insert({
      id: 'job-cleanup',
      status: 'queued',
      payload: 'x',
      attempts: 0,
      claimedBy: null,
      leaseUntil: null,
    });
    const [held] = await a.claim(['job-cleanup'], {});
    now = new Date(now.getTime() + 31_000);
    const lapsed = (await b.expired(false)).find((r) => r.id === held.id)!;
    expect(await b.takeOver(lapsed, {})).toBe(true);
    // Held by the taker while it cleans up: not lapsed, not claimable, the old holder refused.
    expect((await a.expired(false)).map((r) => r.id)).not.toContain(held.id);
    expect(await a.claim([held.id], {})).toEqual([]);
    expect(await a.settle(held.id, { status: 'queued' })).toBe(false);
    expect(await b.settle(held.id, { status: 'queued' })).toBe(true);
    expect(await sources[0].getRepository(Job).findOneByOrFail({ id: held.id })).toMatchObject({
      status: 'queued',
      claimedBy: null,
      attempts: 1,
    });
  });

  it('renews a lease with the heartbeat, and gives rows back as they were', async () => {
    const b = store(sources[1], 'b');
    const mine = await sources[1].getRepository(Job).findBy({ claimedBy: 'b', status: 'running' });
    now = new Date(now.getTime() + 20_000);
    await b.heartbeat(mine.map((r) => r.id));
    now = new Date(now.getTime() + 20_000);
    expect((await b.expired(false)).filter((r) => r.claimedBy === 'b')).toEqual([]);
    await b.release(mine, () => 'queued');
    const back = await sources[0].getRepository(Job).findBy({ id: In(mine.map((r) => r.id)) });
    expect(back.every((r) => r.status === 'queued' && r.claimedBy === null && r.attempts === 0)).toBe(true);
  });
});
