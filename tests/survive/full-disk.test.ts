// Issue 40 on one workstation: the disk under the SQLite database fills up (SQLite's own limit on the
// database's pages stands in for the disk: it answers SQLITE_FULL as a full disk does). A write
// answers 503 saying the disk is full, with Retry-After; nothing half-written is left; reads go on;
// and once there is room again the same write succeeds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { fixtures } from '../support/samples.js';

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
