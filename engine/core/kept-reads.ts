import type { DataSource, EntityManager, ObjectLiteral, QueryRunner, SelectQueryBuilder } from 'typeorm';
import { hydrator, plainEntityOf } from './entity-rows.js';
import { changeStamp, keptStatementsOf } from './db.js';
import { sql } from './sql.js';
import { queryAndParameters } from './query-text.js';

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
 * How a query builder's entities can be read through a kept statement: on SQLite, outside a
 * transaction, when it selects one entity (whole, or some of its columns) and joins nothing. The
 * statements and the compiled hydrator for its alias; null when TypeORM must read them.
 */
export function keptWayOf<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>) {
  const kept = runnerOf(qb) ? null : keptStatementsOf(qb.connection);
  const metadata = kept ? plainEntityOf(qb) : null;
  if (!kept || !metadata) return null;
  return { kept, hydrate: hydrator(qb.connection, metadata, qb.expressionMap.mainAlias!.name) };
}

/**
 * The entities a query builder reads: through a kept statement and the compiled hydrator where
 * `keptWayOf` allows (a fifth of TypeORM's time for 10,000 schedules); otherwise as `getMany`.
 */
export async function keptEntities<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>): Promise<T[]> {
  const way = keptWayOf(qb);
  if (!way) return qb.getMany();
  return (await way.kept.allKept(...queryAndParameters(qb))).map(way.hydrate) as T[];
}

/** The runner a query builder was made with (a transaction's), if any: TypeORM keeps it protected. */
export const runnerOf = (qb: object) => (qb as unknown as { queryRunner?: QueryRunner }).queryRunner;

/**
 * Answers remembered until the database changes (`changeStamp`): any write of this engine, or a
 * commit by another connection that a signed-in call has since seen. A reading call that uses one
 * answers only once SQLite confirms nothing changed since its credential was read, and runs again
 * when something did (`ops/dispatch.ts`), so what it answers is never older than its own call. On
 * PostgreSQL (several servers write) nothing is remembered.
 */
export class RememberedReads<T> {
  private readonly known = new Map<string, { stamp: string; value: T }>();

  constructor(private readonly max = 1000) {}

  async get(ds: DataSource, key: string, read: () => Promise<T>): Promise<T> {
    const stamp = changeStamp(ds);
    if (!stamp) return read();
    const known = this.known.get(key);
    if (known?.stamp === stamp) return known.value;
    const value = await read();
    if (this.known.size >= this.max) this.known.clear();
    // Taken before the read: a write that ended while it ran makes the stamps differ next time.
    this.known.set(key, { stamp, value });
    return value;
  }
}
