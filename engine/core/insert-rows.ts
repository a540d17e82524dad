import type { EntityManager } from 'typeorm';
import { sqliteText } from './entity-base.js';
import { onPostgres, sql } from './sql.js';

/** SQLite's default cap on one statement's parameters is 32,766; chunks stay far below it. */
const PARAMETERS_PER_STATEMENT = 3_000;

/**
 * Rows inserted as multi-row INSERT statements, the given columns only (dates as stored text):
 * for writes of hundreds of rows at once, where TypeORM's per-row insert planning costs several
 * times the statement. `onConflict` is appended as written (an upsert's `ON CONFLICT … DO UPDATE`).
 */
export async function insertRows<T extends object>(
  m: EntityManager,
  table: string,
  columns: readonly (keyof T & string)[],
  rows: T[],
  onConflict = '',
): Promise<void> {
  const perStatement = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / columns.length));
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  // Bulk rows share their timestamps (one "now" a write): each Date is written as text once.
  const texts = new Map<Date, string>();
  const dateText = (d: Date) => texts.get(d) ?? texts.set(d, sqliteText(d)).get(d)!;
  // PostgreSQL takes Dates and booleans as they are (its driver writes them); SQLite stores text and 0/1.
  const postgres = onPostgres(m);
  const value = (v: unknown) =>
    postgres ? (v ?? null) : v instanceof Date ? dateText(v) : typeof v === 'boolean' ? Number(v) : (v ?? null);
  for (let i = 0; i < rows.length; i += perStatement) {
    const chunk = rows.slice(i, i + perStatement);
    const values = chunk.flatMap((r) => columns.map((c) => value(r[c])));
    await sql(
      m,
      `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')} ${onConflict}`,
      values,
    );
  }
}
