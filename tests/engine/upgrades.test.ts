// Findings 11 and 12: an older release refuses a folder a newer one migrated, naming both versions
// and changing nothing; an upgrade starts no work nobody asked for (directory schedules that
// earlier releases never acted on become Manual, and say so).
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { createEngine } from '../../engine/engine.js';
import { MIGRATIONS } from '../../engine/migrations/index.js';
import { memoryKeyStore } from '../support/test-server.js';

const folders: string[] = [];
afterAll(async () => {
  for (const f of folders) await rm(f, { recursive: true, force: true });
});
const folder = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'bs-upgrade-'));
  folders.push(dir);
  return dir;
};

describe('schema versions', () => {
  it('records the schema version, and refuses a folder a newer release migrated, naming both and changing nothing', async () => {
    const dataDir = await folder();
    const keys = memoryKeyStore();
    const engine = await createEngine({ dataDir, secretKeys: keys, demo: false });
    const [{ user_version }] = await engine.services.db.query('PRAGMA user_version');
    expect(user_version).toBe(MIGRATIONS.length);
    // As a newer release leaves it: one more migration applied, the version one higher.
    await engine.services.db.query(`PRAGMA user_version = ${MIGRATIONS.length + 1}`);
    await engine.services.db.query(
      "INSERT INTO migrations (timestamp, name) VALUES (9999999999999, 'FromTheFuture9999999999999')",
    );
    const before = await engine.services.db.query('SELECT COUNT(*) AS n FROM migrations');
    await engine.close();

    const opening = createEngine({ dataDir, secretKeys: keys, demo: false, release: '0.1.0' });
    await expect(opening).rejects.toThrow(`schema version ${MIGRATIONS.length + 1}`);
    await expect(opening).rejects.toThrow(`this release (0.1.0) knows schema version ${MIGRATIONS.length}`);

    // Nothing was touched: put back as this release left it, it opens again with what it had.
    const sqlite3 = (await import('sqlite3')).default;
    const raw = new sqlite3.Database(join(dataDir, 'broadsheet.db'));
    const all = (sql: string) => new Promise<any[]>((res, rej) => raw.all(sql, (e, rows) => (e ? rej(e) : res(rows))));
    expect(await all('SELECT COUNT(*) AS n FROM migrations')).toEqual(before);
    await all(`PRAGMA user_version = ${MIGRATIONS.length}`);
    await all("DELETE FROM migrations WHERE name = 'FromTheFuture9999999999999'");
    await new Promise((r) => raw.close(r));
    const again = await createEngine({ dataDir, secretKeys: keys, demo: false });
    expect((await again.services.db.query('SELECT COUNT(*) AS n FROM users'))[0].n).toBeGreaterThan(0);
    await again.close();
  });
});

describe('an upgrade starts no work nobody asked for', () => {
  it('sets to Manual the directory schedules earlier releases never acted on, says so, and syncs nothing', async () => {
    const dataDir = await folder();
    const keys = memoryKeyStore();
    const engine = await createEngine({ dataDir, secretKeys: keys, demo: false });
    const db = engine.services.db;
    const [{ id: orgId }] = await db.query("SELECT id FROM organizations WHERE name = 'Default'");
    const directory = (name: string, synchronization: string) => {
      const id = randomUUID();
      return db
        .query(
          `INSERT INTO user_directories (id, createdDate, modifiedDate, type, name, hostName, port, userName, password, synchronization, isActive, organizationId)
         VALUES (?, datetime('now', '-300 days'), datetime('now', '-300 days'), 'LDAP', ?, 'ldap.example.com', 389, 'cn=reader', NULL, ?, 1, ?)`,
          [id, name, synchronization, orgId],
        )
        .then(() => id);
    };
    // Saved by an earlier release: free text it never acted on.
    const old = await directory('Head office', 'Hourly');
    // Synchronized on its schedule by this release: a person turned it on.
    const live = await directory('Branch', 'Daily');
    await db.query(
      "INSERT INTO directory_syncs (id, createdDate, modifiedDate, directoryId, trigger, status) VALUES (?, datetime('now'), datetime('now'), ?, 'schedule', 'completed')",
      [randomUUID(), live],
    );
    // As the release before this migration left the folder.
    await db.query("DELETE FROM migrations WHERE name = 'DirectorySchedulesAsked1765152000000'");
    await db.query(`PRAGMA user_version = ${MIGRATIONS.length - 1}`);
    await engine.close();

    const upgraded = await createEngine({ dataDir, secretKeys: keys, demo: false, schedulerTimers: false });
    const rows = await upgraded.services.db.query(
      'SELECT id, synchronization, syncStatus FROM user_directories ORDER BY name',
    );
    const byId = Object.fromEntries(rows.map((r: { id: string }) => [r.id, r]));
    expect(byId[old].synchronization).toBe('Manual');
    expect(byId[old].syncStatus).toMatch(/Set to Manual by the upgrade \(it said Hourly/);
    expect(byId[live].synchronization).toBe('Daily');
    // Nothing connects to the old directory: its schedule is off until someone chooses one.
    await upgraded.services.db.query('UPDATE user_directories SET isActive = 0 WHERE id = ?', [live]);
    await upgraded.scheduler.tick();
    expect(
      (await upgraded.services.db.query('SELECT COUNT(*) AS n FROM directory_syncs WHERE directoryId = ?', [old]))[0].n,
    ).toBe(0);
    await upgraded.close();
  });
});
