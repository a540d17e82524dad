// Issue 60: what every claim on work must guarantee, stated once and passed by each mechanism that
// claims — the table claims on SQLite (one engine, the desktop), the same on PostgreSQL (servers
// sharing a database: `FOR UPDATE SKIP LOCKED`), and pg-boss's hand-off of waiting rows to servers
// (PostgreSQL only). As n8n's job-queue contract does: one suite, each store in turn, real databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, EntitySchema } from 'typeorm';
import { TableClaimStore } from '../../engine/core/jobs/table-claims.js';
import type { ClaimColumns } from '../../engine/core/jobs/claims.js';
import { openBossHandoff } from '../../engine/core/jobs/boss-handoff.js';
import type { Handoff } from '../../engine/core/jobs/handoff.js';
import { postgresSocket, testDatabase, type TestDatabase } from '../support/test-database.js';

interface Job extends ClaimColumns {
  lane: string | null;
  note: string | null;
}

const LEASE_MS = 60_000;
const STATUSES = {
  waiting: ['Queued'],
  active: 'Running',
  // Jobs of one lane run one at a time (a Serial schedule's runs of one task).
  oneAtATime: { column: 'lane', when: '"lane" IS NOT NULL' },
} as const;

let dir: string;
let pgDatabase: TestDatabase | undefined;
let db: DataSource;
let clock = new Date('2026-11-29T08:00:00Z');
const now = () => clock;
let n = 0;

/** This run of the file: on the `postgres` project's cluster, or on a SQLite file. */
const onPostgres = !!postgresSocket();
const Jobs = new EntitySchema<Job>({
  name: 'ContractJob',
  tableName: 'contract_jobs',
  columns: {
    id: { type: 'varchar', length: 64, primary: true },
    status: { type: 'varchar', length: 32 },
    claimedBy: { type: 'varchar', length: 64, nullable: true },
    leaseUntil: { type: onPostgres ? 'timestamptz' : 'datetime', nullable: true },
    attempts: { type: 'int', default: 0 },
    lane: { type: 'varchar', length: 64, nullable: true },
    note: { type: 'varchar', length: 64, nullable: true },
  },
});

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bs-claims-'));
  pgDatabase = await testDatabase(dir);
  db = new DataSource(
    pgDatabase
      ? { type: 'postgres', url: pgDatabase.url, entities: [Jobs], synchronize: true }
      : { type: 'sqlite', database: join(dir, 'claims.db'), entities: [Jobs], synchronize: true },
  );
  await db.initialize();
});
afterAll(async () => {
  await db?.destroy();
  await pgDatabase?.drop();
  rmSync(dir, { recursive: true, force: true });
});

const store = (owner: string) => new TableClaimStore<Job>(db, (fn) => fn(), Jobs, STATUSES, owner, LEASE_MS, now);
const repo = () => db.getRepository(Jobs);

async function queued(count: number, lane: string | null = null): Promise<string[]> {
  const ids = Array.from({ length: count }, () => `job-${++n}`);
  await repo().insert(
    ids.map((id) => ({ id, status: 'Queued', claimedBy: null, leaseUntil: null, attempts: 0, lane, note: null })),
  );
  return ids;
}

describe(`claims on work: the contract every mechanism keeps (${onPostgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  it('gives each waiting row to one claimant, however many claim at once, and counts the attempt at the claim', async () => {
    const ids = await queued(20);
    const owners = ['a', 'b', 'c', 'd'].map(store);
    const taken = await Promise.all(owners.map((s) => s.claim(ids, { note: `by ${s.owner}` })));
    const all = taken.flat().map((r) => r.id);
    expect(all.sort()).toEqual([...ids].sort());
    expect(new Set(all).size).toBe(ids.length);
    for (const [i, rows] of taken.entries())
      for (const r of rows) expect(r).toMatchObject({ status: 'Running', claimedBy: owners[i].owner, attempts: 1 });
    // A second claim of the same rows finds nothing waiting.
    expect(await store('e').claim(ids, {})).toEqual([]);
  });

  it('lets a lapsed lease be taken over, and then refuses every change of the holder it lapsed from (fencing)', async () => {
    const [id] = await queued(1);
    const a = store('a');
    const b = store('b');
    const [row] = await a.claim([id], {});
    expect(await a.holds(id)).toBe(true);
    expect(await b.expired(false)).not.toContainEqual(expect.objectContaining({ id }));
    clock = new Date(clock.getTime() + LEASE_MS + 1);
    const lapsed = (await b.expired(false)).find((r) => r.id === id)!;
    expect(lapsed).toMatchObject({ claimedBy: 'a' });
    expect(await b.takeOver(lapsed, {})).toBe(true);
    // The takeover is taken once: a second recoverer reading the same row finds it moved on.
    expect(await store('c').takeOver(lapsed, {})).toBe(false);
    expect(await a.holds(id)).toBe(false);
    expect(await a.settle(id, { status: 'Done' })).toBe(false);
    await a.heartbeat([id]);
    expect(await a.leaseOf(id)).toBeNull();
    expect(await b.settle(id, { status: 'Done', note: 'finished by b' })).toBe(true);
    expect(await repo().findOneByOrFail({ id })).toMatchObject({
      status: 'Done',
      claimedBy: null,
      leaseUntil: null,
      note: 'finished by b',
      attempts: row.attempts,
    });
  });

  it('renews a lease only for its holder, so a live holder is never taken over', async () => {
    const [id] = await queued(1);
    const a = store('a');
    await a.claim([id], {});
    clock = new Date(clock.getTime() + LEASE_MS / 2);
    await a.heartbeat([id]);
    clock = new Date(clock.getTime() + LEASE_MS / 2 + 1);
    expect((await store('b').expired(false)).map((r) => r.id)).not.toContain(id);
    expect(await a.holds(id)).toBe(true);
  });

  it('hands work back as it was, the attempt not counted, for the next claimant', async () => {
    const [id] = await queued(1);
    const a = store('a');
    const rows = await a.claim([id], { note: 'started' });
    await a.release(rows, () => 'Queued', undefined, { note: null });
    expect(await repo().findOneByOrFail({ id })).toMatchObject({
      status: 'Queued',
      claimedBy: null,
      leaseUntil: null,
      attempts: 0,
      note: null,
    });
    const [again] = await store('b').claim([id], {});
    expect(again).toMatchObject({ claimedBy: 'b', attempts: 1 });
  });

  it('counts each claim of work that came back after a dead holder, so it is not retried for ever', async () => {
    const [id] = await queued(1);
    await store('a').claim([id], {});
    clock = new Date(clock.getTime() + LEASE_MS + 1);
    const b = store('b');
    const lapsed = (await b.expired(false)).find((r) => r.id === id)!;
    expect(await b.takeOver(lapsed, { status: 'Queued' })).toBe(true);
    const [second] = await b.claim([id], {});
    expect(second.attempts).toBe(2);
  });

  it('runs the rows of one lane one at a time, whoever claims them', async () => {
    const ids = await queued(3, `lane-${n}`);
    // Each claimant asks for a row of the lane of its own (a kernel asks for the oldest one per lane).
    const taken = (await Promise.all(['a', 'b', 'c'].map((o, i) => store(o).claim([ids[i]], {})))).flat();
    expect(taken).toHaveLength(1);
    // Nor is one inserted already claimed beside it.
    const inserted = await store('d').insertClaimed({
      id: `job-${++n}`,
      status: 'Running',
      lane: taken[0].lane,
      note: null,
    });
    expect(inserted).toBeNull();
    await store(taken[0].claimedBy!).settle(taken[0].id, { status: 'Done' });
    const next = ids.find((id) => id !== taken[0].id)!;
    expect(await store('e').claim([next], {})).toHaveLength(1);
  });
});

describe.runIf(onPostgres)('the hand-off of waiting rows through pg-boss', () => {
  const handoffs: Handoff[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 2; i++)
      handoffs.push(
        await openBossHandoff(pgDatabase!.url, { queue: 'contract-queue', supervise: i === 0, log: () => undefined }),
      );
  });
  afterAll(async () => {
    for (const h of handoffs) await h.close();
  });

  it('gives each waiting job to one server at a time, best first, and forgets it once done', async () => {
    const jobs = Array.from({ length: 12 }, (_, i) => ({ id: crypto.randomUUID(), priority: i % 3 }));
    await db.transaction((m) => handoffs[0].send(m, jobs));
    const [first, second] = await Promise.all(handoffs.map((h) => h.take(12)));
    const taken = [...first, ...second];
    expect(taken.sort()).toEqual(jobs.map((j) => j.id).sort());
    expect(new Set(taken).size).toBe(jobs.length);
    await Promise.all([handoffs[0].done(first), handoffs[1].done(second)]);
    expect(await handoffs[0].take(12)).toEqual([]);
    // Sent again (the row waits again after a dead server): it is handed out once more, to one server.
    await db.transaction((m) => handoffs[1].send(m, jobs.slice(0, 2)));
    const again = (await Promise.all(handoffs.map((h) => h.take(12)))).flat();
    expect(again.sort()).toEqual(
      jobs
        .slice(0, 2)
        .map((j) => j.id)
        .sort(),
    );
  });
});
