// Issue 26's ground floor: the engine's entities on Debian's PostgreSQL, started by the test on a
// Unix socket of its own. The PostgreSQL track's first step builds what SQLite's migrations build
// (kept in step with them), and rows written through the same repositories the features use read
// back as they went in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataSource } from 'typeorm';
import { entitiesFor } from '../../engine/core/dialect.js';
import { ENTITIES } from '../../engine/entities.js';
import { newBase } from '../../engine/core/entity-base.js';
import { User } from '../../engine/model/users.entity.js';
import { Organization } from '../../engine/model/organizations.entity.js';
import { ReportTemplate } from '../../engine/model/report-template.entity.js';
import { startPostgres, type TestPostgres } from '../support/postgres.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, openPostgres } from '../../engine/core/db.js';
import { MIGRATIONS, POSTGRES_MIGRATIONS } from '../../engine/migrations/index.js';
import { PostgresDeliveryQueue1766361600000 } from '../../engine/migrations/1766361600000-delivery-queue.js';
import { PostgresHubOccurrencesByRun1766448000000 } from '../../engine/migrations/1766448000000-hub-occurrences-by-run.js';
import { POSTGRES_INITIAL } from '../../engine/migrations/postgres/initial.generated.js';

let pg: TestPostgres;
let ds: DataSource;

beforeAll(async () => {
  pg = await startPostgres();
  ds = new DataSource({
    type: 'postgres',
    host: pg.socketDir,
    username: pg.user,
    database: pg.database,
    entities: entitiesFor('postgres', ENTITIES),
    logging: false,
  });
  await ds.initialize();
  await ds.transaction(async (m) => {
    for (const sql of POSTGRES_INITIAL.statements) await m.query(sql);
  });
}, 60_000);

/** What SQLite's migrations build: tables with their columns, named indexes, rows per table. */
async function sqliteShape() {
  const dir = await mkdtemp(join(tmpdir(), 'bs-sqlite-shape-'));
  const lite = await openDatabase(dir, { entities: ENTITIES, migrations: MIGRATIONS });
  try {
    const tables: { name: string }[] = await lite.query(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'migrations'",
    );
    const shape: Record<string, { columns: string[]; rows: number }> = {};
    for (const { name } of tables) {
      const columns = (await lite.query(`PRAGMA table_info("${name}")`)).map((c: { name: string }) => c.name).sort();
      const [{ n }] = await lite.query(`SELECT COUNT(*) AS n FROM "${name}"`);
      shape[name] = { columns, rows: n };
    }
    const indexes: string[] = (
      await lite.query("SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL")
    )
      .map((r: { name: string }) => r.name)
      .sort();
    return { shape, indexes };
  } finally {
    await lite.destroy();
    await rm(dir, { recursive: true, force: true });
  }
}
afterAll(async () => {
  await ds?.destroy();
  await pg?.close();
});

describe('the entities on PostgreSQL', () => {
  it("builds what SQLite's migrations build: the same tables, columns, named indexes and rows", async () => {
    expect(POSTGRES_INITIAL.sqliteMigrations, 'a SQLite migration without its PostgreSQL twin').toBe(MIGRATIONS.length);
    const lite = await sqliteShape();
    const tables: { table_name: string }[] = await ds.query(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    const shape: Record<string, { columns: string[]; rows: number }> = {};
    for (const { table_name: name } of tables) {
      const columns = (
        await ds.query('SELECT column_name FROM information_schema.columns WHERE table_name = $1', [name])
      )
        .map((c: { column_name: string }) => c.column_name)
        .sort();
      const [{ n }] = await ds.query(`SELECT COUNT(*)::int AS n FROM "${name}"`);
      shape[name] = { columns, rows: n };
    }
    expect(shape).toEqual(lite.shape);
    // Indexes by name: every one SQLite's migrations make is there (PostgreSQL adds its keys' own).
    const indexes: string[] = (await ds.query("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")).map(
      (r: { indexname: string }) => r.indexname,
    );
    expect(lite.indexes.filter((name) => !indexes.includes(name))).toEqual([]);
    expect(indexes.filter((name) => name.startsWith('IDX_')).sort()).toEqual(
      lite.indexes.filter((name) => name.startsWith('IDX_')),
    );
    // And the entities see nothing to change there but the indexes only migrations declare.
    const pending = (await ds.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);
    expect(pending.filter((sql) => !/^DROP INDEX/.test(sql))).toEqual([]);
  });

  it('build a table for every entity, with their indexes and foreign keys', async () => {
    const tables = (
      await ds.query("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
    ).map((r: { table_name: string }) => r.table_name);
    const expected = ENTITIES.map((e) => e.options.tableName ?? e.options.name);
    expect(tables.sort()).toEqual([...new Set(expected)].sort());
    const [{ n: foreignKeys }] = await ds.query(
      "SELECT COUNT(*)::int AS n FROM information_schema.table_constraints WHERE constraint_type = 'FOREIGN KEY'",
    );
    expect(foreignKeys).toBeGreaterThan(30);
    const timestamps = await ds.query(
      "SELECT DISTINCT data_type FROM information_schema.columns WHERE column_name = 'createdDate'",
    );
    expect(timestamps).toEqual([{ data_type: 'timestamp with time zone' }]);
  });

  it('keeps what the features write: dates to the millisecond, flags and text in any script', async () => {
    const now = new Date('2026-03-29T01:30:15.123Z');
    const org = { ...newBase(now), name: 'acme', displayName: 'Acme', description: null, themeId: newBase(now).id };
    await ds.getRepository(Organization).insert(org);
    const user = {
      ...newBase(now),
      kind: 'user',
      firstName: 'Zoë',
      lastName: "O'Brien",
      email: 'zoe@example.com',
      passwordHash: null,
      isActive: true,
      isTenantOwner: false,
      isTenantAdmin: true,
    };
    await ds.getRepository(User).insert(user as never);
    const read = await ds.getRepository(User).findOneByOrFail({ id: user.id });
    expect(read).toMatchObject({ firstName: 'Zoë', lastName: "O'Brien", isActive: true, isTenantAdmin: true });
    expect(read.createdDate.toISOString()).toBe(now.toISOString());
    // Stored files (a report's template) are bytes there, not text.
    const column = await ds.query(
      "SELECT data_type FROM information_schema.columns WHERE table_name = $1 AND column_name = 'data'",
      [ReportTemplate.options.tableName ?? ReportTemplate.options.name],
    );
    expect(column).toEqual([{ data_type: 'bytea' }]);
  });
});

describe('a schema change written once for both databases (engine/migrations/portable.ts)', () => {
  /** A table's columns with their types, its indexes and its keys, as PostgreSQL describes them. */
  const shapeOf = async (table: string) => ({
    columns: await ds.query(
      'SELECT column_name, data_type, is_nullable, column_default FROM information_schema.columns WHERE table_name = $1 ORDER BY column_name',
      [table],
    ),
    indexes: await ds.query('SELECT indexname, indexdef FROM pg_indexes WHERE tablename = $1 ORDER BY indexname', [
      table,
    ]),
    keys: await ds.query(
      'SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = $1::regclass ORDER BY conname',
      [table],
    ),
  });

  it('upgrades a PostgreSQL database made before it to what the first step makes now, and is a no-op where it ran', async () => {
    const deliveries = await shapeOf('deliveries');
    const occurrences = await shapeOf('hub_file_occurrences');
    // A database from before the change: no delivery queue, no index of occurrences by run.
    await ds.query('DROP TABLE "deliveries"');
    await ds.query('DROP INDEX "IDX_hub_occurrences_request"');
    const runner = ds.createQueryRunner();
    try {
      for (const Step of [PostgresDeliveryQueue1766361600000, PostgresHubOccurrencesByRun1766448000000]) {
        await new Step().up(runner);
        // Run again (a database whose first step held it already): nothing changes, nothing fails.
        await new Step().up(runner);
      }
    } finally {
      await runner.release();
    }
    expect(await shapeOf('deliveries')).toEqual(deliveries);
    expect(await shapeOf('hub_file_occurrences')).toEqual(occurrences);
    const pending = (await ds.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);
    expect(pending.filter((sql) => !/^DROP INDEX/.test(sql))).toEqual([]);
  });
});

describe('a PostgreSQL database shared by nodes', () => {
  it('is migrated once when nodes start together, and not again when they start later', async () => {
    const shared = await startPostgres('shared');
    try {
      const url = `postgresql://${shared.user}@localhost/${shared.database}?host=${encodeURIComponent(shared.socketDir)}`;
      const open = () => openPostgres(url, { entities: ENTITIES, migrations: POSTGRES_MIGRATIONS });
      const nodes = await Promise.all([open(), open(), open()]);
      const [{ n: applied }] = await nodes[0].query('SELECT COUNT(*)::int AS n FROM migrations');
      expect(applied).toBe(POSTGRES_MIGRATIONS.length);
      const [{ n: folders }] = await nodes[1].query('SELECT COUNT(*)::int AS n FROM hub_folders');
      expect(folders).toBe(1);
      for (const node of nodes) await node.destroy();
      const later = await open();
      expect((await later.query('SELECT COUNT(*)::int AS n FROM migrations'))[0].n).toBe(POSTGRES_MIGRATIONS.length);
      await later.destroy();
    } finally {
      await shared.close();
    }
  });
});
