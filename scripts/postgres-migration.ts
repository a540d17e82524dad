// `npm run schema:postgres`: writes the PostgreSQL track's first step
// (engine/migrations/postgres/initial.generated.ts): the statements that build, on an empty
// PostgreSQL database, what SQLite's migrations build — the tables, keys and indexes the entities
// declare, the indexes only a migration declares, and the rows the migrations write. A test holds
// the two tracks in step (tests/store/postgres-schema.test.ts): a migration added to SQLite's track
// needs its PostgreSQL twin, and this file written anew.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { entitiesFor } from '../engine/core/dialect.js';
import { openDatabase } from '../engine/core/db.js';
import { ENTITIES } from '../engine/entities.js';
import { MIGRATIONS } from '../engine/migrations/index.js';
import { startPostgres } from '../tests/support/postgres.js';
import { writeGenerated } from './write-generated.js';

const FILE = join(__dirname, '..', 'engine', 'migrations', 'postgres', 'initial.generated.ts');
const NOW_COLUMNS = new Set(['createdDate', 'modifiedDate']);

/** A value as a PostgreSQL literal of its column's type. */
function literal(value: unknown, type: string): string {
  if (value === null || value === undefined) return 'NULL';
  if (type === 'boolean') return Number(value) ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return String(value);
  return `'${String(value).replace(/'/g, "''")}'`;
}

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'bs-schema-'));
  const pg = await startPostgres();
  try {
    const lite = await openDatabase(dir, { entities: ENTITIES, migrations: MIGRATIONS });
    const ds = new DataSource({
      type: 'postgres',
      host: pg.socketDir,
      username: pg.user,
      database: pg.database,
      entities: entitiesFor('postgres', ENTITIES),
    });
    await ds.initialize();
    const statements = (await ds.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);
    for (const sql of statements) await ds.query(sql);
    // Indexes only a migration declares (list orders, expression indexes): SQLite's own DDL is
    // PostgreSQL's too for these (quoted names, plain expressions).
    const built = new Set(
      (await ds.query("SELECT indexname FROM pg_indexes WHERE schemaname = 'public'")).map(
        (r: { indexname: string }) => r.indexname,
      ),
    );
    const indexes: { name: string; sql: string }[] = await lite.query(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY rowid",
    );
    for (const index of indexes.filter((i) => !built.has(i.name))) statements.push(index.sql.trim());
    // The rows the migrations write (the hub's configuration and root folder), stamped when made.
    const tables: { name: string }[] = await lite.query(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'migrations'",
    );
    for (const { name } of tables) {
      const rows: Record<string, unknown>[] = await lite.query(`SELECT * FROM "${name}" ORDER BY rowid`);
      if (!rows.length) continue;
      const types = new Map<string, string>(
        (
          await ds.query('SELECT column_name, data_type FROM information_schema.columns WHERE table_name = $1', [name])
        ).map((c: { column_name: string; data_type: string }) => [c.column_name, c.data_type]),
      );
      for (const row of rows) {
        const columns = Object.keys(row);
        const values = columns.map((c) => (NOW_COLUMNS.has(c) ? 'now()' : literal(row[c], types.get(c) ?? 'text')));
        statements.push(
          `INSERT INTO "${name}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${values.join(', ')})`,
        );
      }
    }
    await ds.destroy();
    await lite.destroy();
    await writeGenerated(
      FILE,
      [
        'Written by `npm run schema:postgres`: never edit by hand. What SQLite has after its first',
        `${MIGRATIONS.length} migrations, built at once on PostgreSQL (the migrations import nothing else of the engine).`,
      ],
      'POSTGRES_INITIAL',
      { sqliteMigrations: MIGRATIONS.length, statements },
    );
    console.log(`Wrote ${FILE} (${statements.length} statements)`);
  } finally {
    await pg.close();
    await rm(dir, { recursive: true, force: true });
  }
}
void main();
