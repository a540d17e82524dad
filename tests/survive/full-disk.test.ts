// Issue 40 on one workstation: the disk under the SQLite database fills up (SQLite's own limit on the
// database's pages stands in for the disk: it answers SQLITE_FULL as a full disk does). A write
// answers 503 saying the disk is full, with Retry-After; nothing half-written is left; reads go on;
// and once there is room again the same write succeeds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryKeyStore, startTestServer, type TestServer } from '../support/test-server.js';
import { fixtures } from '../support/samples.js';
import { join } from 'node:path';
import sqlite3 from 'sqlite3';
import { DB_FILE } from '../../engine/core/db.js';

let s: TestServer;
let orgId: string;
beforeAll(async () => {
  s = await startTestServer();
  ({ orgId } = await fixtures(s));
});
afterAll(async () => {
  await s.stop();
});

describe('a full disk under the database', () => {
  it('answers 503 with Retry-After and writes nothing; the same call succeeds once there is room', async () => {
    const db = s.engine.services.db;
    const [{ page_count: pages }] = await db.query('PRAGMA page_count');
    const before = await s.ok('GET', '/api/v1/groups', undefined, { get_all: 'true' });
    // Room for nothing more.
    await db.query(`PRAGMA max_page_count = ${pages}`);
    try {
      // Pages freed inside the file may take a few small rows: write until the disk says it is full.
      const group = (i: number) => ({ name: `Regional managers ${i} ${'x'.repeat(60)}`, organizationId: orgId });
      let tried = 0;
      let full = await s.call('POST', '/api/v1/groups', { body: group(tried) });
      while (full.status === 200 && tried < 200)
        full = await s.call('POST', '/api/v1/groups', { body: group(++tried) });
      expect(full.status).toBe(503);
      expect(full.body.error).toMatch(/The disk holding the database is full: nothing was written/);
      expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
      // Reads still answer, and the engine is still up.
      const during = await s.ok('GET', '/api/v1/groups', undefined, { get_all: 'true' });
      expect(during.length).toBe(before.length + tried);
      expect(during.map((g: { name: string }) => g.name)).not.toContain(group(tried).name);
      expect(db.isInitialized).toBe(true);
    } finally {
      await db.query('PRAGMA max_page_count = 1073741823');
    }
    const saved = await s.ok('POST', '/api/v1/groups', { name: 'Regional managers', organizationId: orgId });
    expect(saved.name).toBe('Regional managers');
  });
});

describe('writes refused on a full disk, then room again (issue 57, finding 1)', () => {
  it('leaves no transaction open: every write answered 200 is on disk (another connection, a restart), none refused is', async () => {
    const secretKeys = memoryKeyStore();
    const first = await startTestServer({ keepDataDir: true, secretKeys });
    let restarted: TestServer | null = null;
    try {
      const { orgId: org } = await fixtures(first);
      const db = first.engine.services.db;
      const answered = { groups: [] as string[], users: [] as string[] };
      const refused = { groups: [] as string[], users: [] as string[] };
      const group = (name: string) => ({ name: `${name} ${'x'.repeat(200)}`, organizationId: org });
      const user = (email: string) => ({
        firstName: 'Ada',
        lastName: 'x'.repeat(200),
        email,
        isActive: true,
        organizations: [{ id: org }],
      });
      const [{ page_count: pages }] = await db.query('PRAGMA page_count');
      await db.query(`PRAGMA max_page_count = ${pages}`);
      try {
        // A plain save refused until it is refused three times; then a write in a transaction of its own
        // (a user with their organizations) until it is refused too: what the pages left could hold is answered.
        for (let i = 0; refused.groups.length < 3 && i < 300; i++) {
          const r = await first.call('POST', '/api/v1/groups', { body: group(`Group ${i}`) });
          (r.status === 200 ? answered : refused).groups.push(group(`Group ${i}`).name);
          if (r.status !== 200) expect(r.status).toBe(503);
        }
        // A transaction that fails for a reason of its own (a constraint: SQLite undoes the statement and
        // keeps the transaction) must still end: it was the one left open for good.
        await expect(
          db.transaction((m) => m.query('INSERT INTO groups (id, name) VALUES (NULL, NULL)')),
        ).rejects.toThrow(/NOT NULL/);
        for (let i = 0; refused.users.length < 2 && i < 300; i++) {
          const r = await first.call('POST', '/api/v1/users', { body: user(`u${i}@example.com`) });
          (r.status === 200 ? answered : refused).users.push(`u${i}@example.com`);
          if (r.status !== 200) expect(r.status, JSON.stringify(r.body)).toBe(503);
        }
        expect(refused.groups).toHaveLength(3);
        expect(refused.users).toHaveLength(2);
      } finally {
        await db.query('PRAGMA max_page_count = 1073741823');
      }
      // Room again: the same writes are answered.
      for (const name of ['After 1', 'After 2'])
        answered.groups.push((await first.ok('POST', '/api/v1/groups', group(name))).name);
      answered.users.push((await first.ok('POST', '/api/v1/users', user('after@example.com'))).email);

      // Another connection to the same file sees every write answered 200, and none refused.
      const other = new sqlite3.Database(join(first.dataDir, DB_FILE), sqlite3.OPEN_READONLY);
      const column = (sql: string) =>
        new Promise<string[]>((resolve, reject) =>
          other.all(sql, (e, rows: { v: string }[]) => (e ? reject(e) : resolve(rows.map((r) => r.v)))),
        );
      const seen = {
        groups: await column('SELECT name AS v FROM groups'),
        users: await column('SELECT email AS v FROM users'),
      };
      await new Promise((r) => other.close(r));
      const onDisk = (where: string, got: { groups: string[]; users: string[] }) => {
        for (const kind of ['groups', 'users'] as const) {
          for (const v of answered[kind]) expect(got[kind], `${where}: ${kind} answered 200`).toContain(v);
          for (const v of refused[kind]) expect(got[kind], `${where}: ${kind} refused`).not.toContain(v);
        }
      };
      onDisk('another connection', seen);

      // And so does the engine after a clean restart.
      await first.stop();
      restarted = await startTestServer({ dataDir: first.dataDir, secretKeys });
      const groups: { name: string }[] = await restarted.ok('GET', '/api/v1/groups', undefined, { get_all: 'true' });
      const users: { email: string }[] = await restarted.ok('GET', '/api/v1/users', undefined, { get_all: 'true' });
      onDisk('after a restart', { groups: groups.map((g) => g.name), users: users.map((u) => u.email) });
    } finally {
      if (restarted) await restarted.stop();
      else await first.stop().catch(() => undefined);
    }
  });
});
