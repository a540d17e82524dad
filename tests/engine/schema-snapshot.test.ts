// A first start makes the schema from one script (engine/migrations/schema-snapshot.generated.ts);
// the migrations stay the truth, and these tests hold the two equal.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../engine/core/db.js';
import { snapshotOf, type SchemaSnapshot } from '../../engine/core/schema-snapshot.js';
import { ENTITIES } from '../../engine/entities.js';
import { MIGRATIONS, POSTGRES_MIGRATIONS } from '../../engine/migrations/index.js';
import { SCHEMA_SNAPSHOT } from '../../engine/migrations/schema-snapshot.generated.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
const open = async (snapshot?: SchemaSnapshot, dir?: string) => {
  const dataDir = dir ?? (await mkdtemp(join(tmpdir(), 'bs-snapshot-')));
  if (!dir) dirs.push(dataDir);
  return { dataDir, ds: await openDatabase(dataDir, { entities: ENTITIES, migrations: MIGRATIONS, snapshot }) };
};

describe('the schema snapshot of a first start', () => {
  it('is exactly what the migrations build (run `npm run schema:snapshot` after adding one)', async () => {
    const { ds } = await open();
    const built = await snapshotOf(ds, MIGRATIONS.length);
    await ds.destroy();
    expect(SCHEMA_SNAPSHOT.migrations).toBe(MIGRATIONS.length);
    expect(SCHEMA_SNAPSHOT.script).toBe(built.script);
  });

  it('makes a database the migrations see as theirs, with rows stamped when it was made', async () => {
    const before = Date.now();
    const { ds, dataDir } = await open(SCHEMA_SNAPSHOT);
    expect((await snapshotOf(ds, MIGRATIONS.length)).script).toBe(SCHEMA_SNAPSHOT.script);
    const [hub] = await ds.query('SELECT createdDate FROM hub_configuration');
    const made = new Date(hub.createdDate.replace(' ', 'T') + 'Z').getTime();
    expect(made).toBeGreaterThanOrEqual(before - 1000);
    expect(made).toBeLessThanOrEqual(Date.now() + 1000);
    expect(await ds.query('PRAGMA foreign_key_check')).toEqual([]);
    await ds.destroy();
    // Opened again (a restart), nothing is migrated twice and the version is the release's.
    const again = await open(undefined, dataDir);
    expect((await again.ds.query('SELECT COUNT(*) AS n FROM migrations'))[0].n).toBe(MIGRATIONS.length);
    expect((await again.ds.query('PRAGMA user_version'))[0].user_version).toBe(MIGRATIONS.length);
    await again.ds.destroy();
  });

  it('is not used when made from another number of migrations: the migrations build the database', async () => {
    const stale = { migrations: MIGRATIONS.length - 1, script: 'CREATE TABLE "stale" ("x" integer);' };
    const { ds } = await open(stale);
    const names = (await ds.query("SELECT name FROM sqlite_master WHERE type = 'table'")).map(
      (r: { name: string }) => r.name,
    );
    expect(names).not.toContain('stale');
    expect(names).toContain('hub_files');
    await ds.destroy();
  });

  it('leaves the database empty when its script fails midway, so the next start builds it whole', async () => {
    const broken = {
      migrations: MIGRATIONS.length,
      script: `${SCHEMA_SNAPSHOT.script.split('\n').slice(0, 5).join('\n')}\nCREATE TABLE oops (;`,
    };
    const dataDir = await mkdtemp(join(tmpdir(), 'bs-snapshot-'));
    dirs.push(dataDir);
    await expect(
      openDatabase(dataDir, { entities: ENTITIES, migrations: MIGRATIONS, snapshot: broken }),
    ).rejects.toThrow(/syntax error/);
    const { ds } = await open(SCHEMA_SNAPSHOT, dataDir);
    expect((await snapshotOf(ds, MIGRATIONS.length)).script).toBe(SCHEMA_SNAPSHOT.script);
    await ds.destroy();
  });

  it('names each migration outright, as its track stores it, never by its class (minified in the built server)', async () => {
    for (const track of [MIGRATIONS, POSTGRES_MIGRATIONS]) {
      const names = track.map((M) => Object.getOwnPropertyDescriptor(new M(), 'name')?.value as unknown);
      for (const name of names) expect(name).toMatch(/^[A-Za-z]+\d{13}$/);
      expect(new Set(names).size).toBe(track.length);
    }
    // The snapshot's rows are those names: a first start then finds every migration already run.
    const { ds } = await open(SCHEMA_SNAPSHOT);
    const stored = (await ds.query('SELECT name FROM migrations ORDER BY id')) as { name: string }[];
    await ds.destroy();
    expect(stored.map((r) => r.name)).toEqual(MIGRATIONS.map((M) => new M().name));
  });
});
