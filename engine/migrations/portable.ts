import type { MigrationInterface, QueryRunner } from 'typeorm';
import { DefaultNamingStrategy } from 'typeorm';

// A schema change written once, yielding each database's statements: SQLite's for the data folder's
// track (`index.ts`), PostgreSQL's for servers sharing a database (`postgres/index.ts`). The
// PostgreSQL statements are made to be run on any database of that track, whether its first step
// (regenerated from the entities at each change, `npm run schema:postgres`) already holds the change
// or not: a table is made only where it is missing, columns and indexes `IF NOT EXISTS`. Keys are
// named as TypeORM names them, so the entities see nothing to change.

type ColumnType = { varchar: number } | 'text' | 'integer' | 'boolean' | 'datetime';

export interface PortableColumn {
  name: string;
  type: ColumnType;
  nullable?: boolean;
  /** A number or a flag (text defaults are written as a step's own SQL). */
  default?: number | boolean;
  primary?: boolean;
}

export type PortableStep =
  | {
      createTable: string;
      columns: PortableColumn[];
      foreignKeys?: { column: string; references: string; onDelete: 'CASCADE' | 'SET NULL' }[];
      indexes?: { name: string; columns: string[] }[];
    }
  | { addColumn: string; column: PortableColumn }
  | { createIndex: string; on: string; columns: string[] };

const names = new DefaultNamingStrategy();
const quoted = (cols: string[]) => cols.map((c) => `"${c}"`).join(', ');

function sqliteType(t: ColumnType): string {
  return typeof t === 'object' ? `varchar(${t.varchar})` : t;
}
function postgresType(t: ColumnType): string {
  if (typeof t === 'object') return `character varying(${t.varchar})`;
  return t === 'datetime' ? 'TIMESTAMP WITH TIME ZONE' : t;
}
const literal = (v: number | boolean) => (typeof v === 'boolean' ? (v ? '1' : '0') : String(v));

function sqliteColumn(c: PortableColumn): string {
  const parts = [`"${c.name}" ${sqliteType(c.type)}`];
  if (c.primary) parts.push('PRIMARY KEY');
  if (!c.nullable) parts.push('NOT NULL');
  if (c.default !== undefined) parts.push(`DEFAULT (${literal(c.default)})`);
  return parts.join(' ');
}
function postgresColumn(c: PortableColumn): string {
  const parts = [`"${c.name}" ${postgresType(c.type)}`];
  if (!c.nullable) parts.push('NOT NULL');
  if (c.default !== undefined)
    parts.push(`DEFAULT ${typeof c.default === 'boolean' ? String(c.default) : `'${c.default}'`}`);
  return parts.join(' ');
}

/** A step's statements on SQLite. */
export function sqliteStatements(step: PortableStep): string[] {
  if ('createTable' in step) {
    const keys = (step.foreignKeys ?? []).map(
      (k) => `FOREIGN KEY ("${k.column}") REFERENCES "${k.references}" ("id") ON DELETE ${k.onDelete}`,
    );
    return [
      `CREATE TABLE "${step.createTable}" (${[...step.columns.map(sqliteColumn), ...keys].join(', ')})`,
      ...(step.indexes ?? []).map((i) => `CREATE INDEX "${i.name}" ON "${step.createTable}" (${quoted(i.columns)}) `),
    ];
  }
  if ('addColumn' in step) return [`ALTER TABLE "${step.addColumn}" ADD COLUMN ${sqliteColumn(step.column)}`];
  return [`CREATE INDEX IF NOT EXISTS "${step.createIndex}" ON "${step.on}" (${quoted(step.columns)})`];
}

/** A step's statements on PostgreSQL, each safe on a database that has the change already. */
export function postgresStatements(step: PortableStep): string[] {
  if ('createTable' in step) {
    const table = step.createTable;
    const primary = step.columns.filter((c) => c.primary).map((c) => c.name);
    const body = [
      ...step.columns.map(postgresColumn),
      ...(primary.length
        ? [`CONSTRAINT "${names.primaryKeyName(table, primary)}" PRIMARY KEY (${quoted(primary)})`]
        : []),
    ];
    return [
      `CREATE TABLE IF NOT EXISTS "${table}" (${body.join(', ')})`,
      ...(step.indexes ?? []).map(
        (i) => `CREATE INDEX IF NOT EXISTS "${i.name}" ON "${table}" (${quoted(i.columns)}) `,
      ),
      // A key is added where it is missing (a table the first step made has it already).
      ...(step.foreignKeys ?? []).map((k) => {
        const name = names.foreignKeyName(table, [k.column]);
        return `DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_constraint WHERE conname = '${name}') THEN ALTER TABLE "${table}" ADD CONSTRAINT "${name}" FOREIGN KEY ("${k.column}") REFERENCES "${k.references}"("id") ON DELETE ${k.onDelete} ON UPDATE NO ACTION; END IF; END $$`;
      }),
    ];
  }
  if ('addColumn' in step)
    return [`ALTER TABLE "${step.addColumn}" ADD COLUMN IF NOT EXISTS ${postgresColumn(step.column)}`];
  return [`CREATE INDEX IF NOT EXISTS "${step.createIndex}" ON "${step.on}" (${quoted(step.columns)})`];
}

/** What undoes a step (on either database). */
function undo(step: PortableStep): string[] {
  if ('createTable' in step) return [`DROP TABLE IF EXISTS "${step.createTable}"`];
  if ('addColumn' in step) return [`ALTER TABLE "${step.addColumn}" DROP COLUMN "${step.column.name}"`];
  return [`DROP INDEX IF EXISTS "${step.createIndex}"`];
}

type MigrationClass = new () => MigrationInterface;

function migration(name: string, up: string[], down: string[]): MigrationClass {
  return class implements MigrationInterface {
    name = name;
    async up(q: QueryRunner) {
      for (const sql of up) await q.query(sql);
    }
    async down(q: QueryRunner) {
      for (const sql of down) await q.query(sql);
    }
  };
}

/**
 * A migration written once: `Name1766361600000` on SQLite's track, `PostgresName1766361600000` on
 * PostgreSQL's (the names each track has always given its migrations).
 */
export function portableMigration(
  name: string,
  steps: PortableStep[],
): { sqlite: MigrationClass; postgres: MigrationClass } {
  const down = [...steps].reverse().flatMap(undo);
  return {
    sqlite: migration(name, steps.flatMap(sqliteStatements), down),
    postgres: migration(`Postgres${name}`, steps.flatMap(postgresStatements), down),
  };
}
