import type { DataSource } from 'typeorm';

/**
 * What the migrations build on an empty database, as one script: its tables and indexes as SQLite
 * records them, and the rows the migrations write (their own list among them). A first start runs
 * it in one statement batch and one transaction instead of 19 migrations of about 110 statements,
 * each a trip to the database's thread — about 60 ms of a first start. The migrations stay the
 * truth: a snapshot is used only when it was made from exactly as many migrations as this release
 * has, and a test holds it equal to what they build (`npm run schema:snapshot` writes it anew).
 */
export interface SchemaSnapshot {
  migrations: number;
  script: string;
}

/** Row timestamps are the moment the database is made, as the migrations would write them. */
const NOW_COLUMNS = new Set(['createdDate', 'modifiedDate']);
const NOW = "strftime('%Y-%m-%d %H:%M:%f', 'now')";

function literal(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Buffer.isBuffer(value)) return `X'${value.toString('hex')}'`;
  return `'${String(value).replace(/'/g, "''")}'`;
}

/** The snapshot of a database that the migrations alone have built. */
export async function snapshotOf(ds: DataSource, migrations: number): Promise<SchemaSnapshot> {
  const objects = (await ds.query(
    "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid",
  )) as { type: string; name: string; sql: string }[];
  const statements = objects.map((o) => `${o.sql};`);
  for (const table of objects.filter((o) => o.type === 'table')) {
    const rows = (await ds.query(`SELECT * FROM "${table.name}" ORDER BY rowid`)) as Record<string, unknown>[];
    for (const row of rows) {
      const columns = Object.keys(row);
      const values = columns.map((c) => (NOW_COLUMNS.has(c) ? NOW : literal(row[c])));
      statements.push(
        `INSERT INTO "${table.name}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${values.join(', ')});`,
      );
    }
  }
  return { migrations, script: statements.join('\n') };
}

/** Whether the database holds nothing yet (a first start). */
export async function isEmptyDatabase(ds: DataSource): Promise<boolean> {
  const [{ n }] = (await ds.query("SELECT COUNT(*) AS n FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")) as {
    n: number;
  }[];
  return n === 0;
}
