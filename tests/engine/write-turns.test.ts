// SQLite's one connection is shared by every transaction TypeORM opens: two opened at once were one,
// and the first's rollback took the second's writes (a clean stop's hand-back lost to the first
// start's demo content). Every transaction now takes the main store's turn; one within a turn is part of it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource, EntitySchema } from 'typeorm';
import { MAIN_STORE, WriteQueues, transactionsTakeTurns } from '../../engine/core/write-queue.js';

const Note = new EntitySchema<{ id: string }>({
  name: 'Note',
  tableName: 'notes',
  columns: { id: { type: 'varchar', primary: true } },
});

describe('transactions on SQLite take turns', () => {
  let dir: string;
  let db: DataSource;
  const queues = new WriteQueues();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'broadsheet-turns-'));
    db = new DataSource({ type: 'sqlite', database: join(dir, 'turns.db'), entities: [Note], synchronize: true });
    await db.initialize();
    transactionsTakeTurns(db, queues);
  });
  afterAll(async () => {
    await db?.destroy();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps a transaction’s writes when another, open at the same time, rolls back', async () => {
    let inside!: () => void;
    const firstInside = new Promise<void>((r) => (inside = r));
    let letGo!: () => void;
    const firstMayEnd = new Promise<void>((r) => (letGo = r));
    const first = db.transaction(async (m) => {
      await m.getRepository(Note).insert({ id: 'rolled-back' });
      inside();
      await firstMayEnd;
      throw new Error('this one fails');
    });
    await firstInside;
    // Opened while the first is open (no write turn held, as the demo content's was).
    const second = db.transaction((m) => m.getRepository(Note).insert({ id: 'kept' }));
    letGo();
    await expect(first).rejects.toThrow('this one fails');
    await second;
    const ids = (await db.getRepository(Note).find()).map((n) => n.id);
    expect(ids).toEqual(['kept']);
  });

  it('runs a transaction opened within a write turn, and a write asked for within a transaction, at once', async () => {
    const done = await queues.run(MAIN_STORE, () =>
      db.transaction(async (m) => {
        await m.getRepository(Note).insert({ id: 'nested' });
        return queues.run(MAIN_STORE, async () => 'inner turn ran');
      }),
    );
    expect(done).toBe('inner turn ran');
    expect(await db.getRepository(Note).existsBy({ id: 'nested' })).toBe(true);
  });

  it('makes work a turn left floating wait for a turn of its own', async () => {
    let floating!: Promise<string>;
    const order: string[] = [];
    await queues.run(MAIN_STORE, async () => {
      floating = Promise.resolve().then(async () => {
        // Runs after its turn ended: it queues behind the turn below.
        await new Promise((r) => setImmediate(r));
        return queues.run(MAIN_STORE, async () => (order.push('floating'), 'floating'));
      });
    });
    let release!: () => void;
    const held = queues.run(MAIN_STORE, async () => {
      order.push('holder');
      await new Promise<void>((r) => (release = r));
    });
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['holder']);
    release();
    await held;
    expect(await floating).toBe('floating');
    expect(order).toEqual(['holder', 'floating']);
  });
});
