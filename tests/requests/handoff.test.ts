// Issue 26: servers sharing PostgreSQL hand queued requests out through pg-boss. A job goes in the
// transaction that queues its row (so neither exists without the other), to one server at a time,
// best priority first; sent again (a run back after a dead server), it replaces the one before;
// and rows queued before the queue existed get theirs at start. Real pg-boss 10 on the test
// cluster (the `postgres` project); nothing to test on SQLite, where the runner reads its table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { openBossHandoff } from '../../engine/core/jobs/boss-handoff.js';
import type { Handoff } from '../../engine/core/jobs/handoff.js';
import { postgresSocket, testDatabase, type TestDatabase } from '../support/test-database.js';

const QUEUE = 'test-requests';
const faults: Error[] = [];

describe.skipIf(!postgresSocket())('requests handed out through pg-boss', () => {
  let dir: string;
  let database: TestDatabase;
  let db: DataSource;
  /** Two servers' handoffs on one database. */
  let one: Handoff;
  let two: Handoff;

  const open = () => openBossHandoff(database.url, { queue: QUEUE, supervise: false, log: (_m, e) => faults.push(e) });
  const send = (h: Handoff, jobs: { id: string; priority: number }[]) => db.transaction((m) => h.send(m, jobs));
  /** Everything waiting, taken by `h` until the queue answers nothing. */
  const drain = async (h: Handoff) => {
    const all: string[] = [];
    for (let got = await h.take(10); got.length; got = await h.take(10)) all.push(...got);
    return all;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bs-handoff-'));
    database = (await testDatabase(dir))!;
    db = new DataSource({ type: 'postgres', url: database.url });
    await db.initialize();
    // One after the other, as servers do under their write lock (pg-boss's queue creation deadlocks
    // when servers make it at once).
    one = await open();
    two = await open();
  });

  afterAll(async () => {
    await one?.close();
    await two?.close();
    await db?.destroy();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
    expect(faults).toEqual([]);
  });

  it('hands a job out only once its row is committed, and to one server only', async () => {
    const lost = randomUUID();
    await expect(
      db.transaction(async (m) => {
        await one.send(m, [{ id: lost, priority: 0 }]);
        throw new Error('the row could not be written');
      }),
    ).rejects.toThrow('the row could not be written');
    expect(await drain(two)).toEqual([]);

    const ids = Array.from({ length: 40 }, () => randomUUID());
    await send(
      one,
      ids.map((id) => ({ id, priority: 0 })),
    );
    const [a, b] = await Promise.all([drain(one), drain(two)]);
    expect([...a, ...b].sort()).toEqual([...ids].sort());
    expect(a.filter((id) => b.includes(id))).toEqual([]);
    await one.done(a);
    await two.done(b);
    expect(await drain(one)).toEqual([]);
  });

  it('hands out the most urgent first, and again when its row is queued again', async () => {
    const [low, high] = [randomUUID(), randomUUID()];
    await send(one, [
      { id: low, priority: 0 },
      { id: high, priority: 5 },
    ]);
    expect(await one.take(1)).toEqual([high]);
    expect(await one.take(1)).toEqual([low]);
    // Taken by a server that then died (or gave it back): queued again, with its job replaced.
    await send(two, [{ id: low, priority: 0 }]);
    expect(await drain(two)).toEqual([low]);
    await two.done([low, high]);
    expect(await drain(one)).toEqual([]);
  });

  it('gives queued rows without a job one at start, leaving the jobs that exist as they are', async () => {
    const [held, orphan] = [randomUUID(), randomUUID()];
    await send(one, [{ id: held, priority: 0 }]);
    expect(await one.take(1)).toEqual([held]);
    await db.transaction((m) =>
      two.ensure(m, [
        { id: held, priority: 0 },
        { id: orphan, priority: 0 },
      ]),
    );
    // The one already taken stays with its server: only the row that had no job is handed out.
    expect(await drain(two)).toEqual([orphan]);
    await one.done([held]);
    await two.done([orphan]);
  });
});
