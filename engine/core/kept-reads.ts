import type { DataSource, EntityManager, ObjectLiteral, QueryRunner, SelectQueryBuilder } from 'typeorm';
import { hydrator, plainEntityOf } from './entity-rows.js';
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

/**
 * The entities a query builder reads: on SQLite, when it selects one entity and joins nothing,
 * through a kept statement and the compiled hydrator (a fifth of TypeORM's time for 10,000
 * schedules); otherwise as `getMany` reads them.
 */
export async function keptEntities<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>): Promise<T[]> {
  const kept = runnerOf(qb) ? null : keptStatementsOf(qb.connection);
  const metadata = kept ? plainEntityOf(qb) : null;
  if (!kept || !metadata) return qb.getMany();
  const [text, params] = qb.getQueryAndParameters();
  const hydrate = hydrator(qb.connection, metadata, qb.expressionMap.mainAlias!.name);
  return (await kept.allKept(text, params)).map(hydrate) as T[];
}

/** The runner a query builder was made with (a transaction's), if any: TypeORM keeps it protected. */
export const runnerOf = (qb: object) => (qb as unknown as { queryRunner?: QueryRunner }).queryRunner;
