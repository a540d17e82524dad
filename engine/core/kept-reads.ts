import type { DataSource, EntityManager } from 'typeorm';
import { keptStatementsOf } from './db.js';
import { sql } from './sql.js';

/**
 * A SELECT people wait on (a list page, its count, the page's related rows), with `?` placeholders:
 * on SQLite through a statement prepared once and kept, one trip to the database's thread instead
 * of three; elsewhere, and inside a transaction, as `sql` runs it.
 */
export function keptRead<T = Record<string, unknown>>(
  r: DataSource | EntityManager,
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  // A DataSource has a driver; an EntityManager (a transaction's reads) goes TypeORM's way.
  const kept = 'driver' in r ? keptStatementsOf(r) : null;
  return kept ? (kept.allKept(text, params) as Promise<T[]>) : sql<T>(r, text, params);
}
