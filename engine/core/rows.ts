import { In, type DataSource, type EntitySchema, type ObjectLiteral } from 'typeorm';

import { conflict, notFound, type FieldError } from './errors.js';
import { foreignIds, type BoundedCaller } from './organization-boundary.js';
import { sql } from './sql.js';

/** What these helpers need of an operation's context: the database, and the caller for organization boundaries. */
type WithDb = { db: DataSource } & Partial<Pick<BoundedCaller, 'principal'>>;

/**
 * Loads one row by id or answers 404 naming what was looked for; a row of an organization the
 * caller does not belong to answers the same 404 (its existence is not confirmed).
 */
export async function findOr404<T extends ObjectLiteral>(
  ctx: WithDb,
  entity: EntitySchema<T>,
  id: string,
  what: string,
): Promise<T> {
  const row = await ctx.db.getRepository(entity).findOneBy({ id } as never);
  if (!row || (await foreignIds(ctx, entity as EntitySchema<ObjectLiteral>, [id])).length)
    throw notFound(`${what} ${id}`);
  return row;
}

/** All ids must exist; a 404 names the missing ones so nothing is half-done. */
export async function requireAll<T extends ObjectLiteral>(
  ctx: WithDb,
  entity: EntitySchema<T>,
  ids: string[],
  what: string,
): Promise<T[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  const rows = await ctx.db.getRepository(entity).findBy({ id: In(unique) } as never);
  const outside = new Set(await foreignIds(ctx, entity as EntitySchema<ObjectLiteral>, unique));
  const found = new Set(rows.map((r) => (r as unknown as { id: string }).id).filter((id) => !outside.has(id)));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length) throw notFound(`${what} ${missing.join(', ')}`);
  return rows;
}

/** A reference that stops a delete: what refers to the row, and how many. */
export interface Reference {
  what: string;
  count: number;
}

/** Answers 409 listing what still refers to the rows being deleted. */
export function refuseIfReferenced(name: string, refs: Reference[]): void {
  const live = refs.filter((r) => r.count > 0);
  if (!live.length) return;
  const details: FieldError[] = live.map((r) => ({ field: 'body', message: `${r.count} ${r.what}` }));
  throw conflict(`${name} is still referenced by ${live.map((r) => `${r.count} ${r.what}`).join(', ')}`, details);
}

/** Deletes rows by ids after checking they exist; answers how many went. */
export async function deleteByIds<T extends ObjectLiteral>(
  ctx: WithDb,
  entity: EntitySchema<T>,
  ids: string[],
  what: string,
) {
  await requireAll(ctx, entity, ids, what);
  const unique = [...new Set(ids)];
  if (unique.length) await ctx.db.getRepository(entity).delete(unique as never);
  return { deleted: unique.length };
}

export async function countWhere(ctx: WithDb, statement: string, params: unknown[]): Promise<number> {
  const [row] = await sql<{ n: number | string }>(ctx.db, statement, params);
  return Number(row?.n ?? 0);
}

/** Names are unique without regard to case: answers 409 on the name field when another row has it. */
export async function refuseTakenName<T extends ObjectLiteral>(
  ctx: WithDb,
  entity: EntitySchema<T>,
  name: string,
  exceptId: string | null,
  noun: string,
) {
  const taken = await ctx.db
    .getRepository(entity)
    .createQueryBuilder('x')
    .where('LOWER(x.name) = LOWER(:name)', { name })
    .andWhere(exceptId ? 'x.id <> :id' : '1 = 1', { id: exceptId })
    .getCount();
  if (taken)
    throw conflict(`Another ${noun} is already named "${name}"`, [
      { field: 'body.name', message: `is already used by another ${noun}` },
    ]);
}

/** States as an SQL list, for the few SQL fragments that cannot take parameters (a sort expression). */
export const sqlList = (values: readonly string[]) => `(${values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ')})`;
