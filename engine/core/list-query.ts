import type { DataSource, EntitySchema, SelectQueryBuilder, ObjectLiteral } from 'typeorm';
import { badInput, type FieldError } from './errors.js';
import { Page } from './envelope.js';
import { isGuid } from './validation.js';
import { withinOrganizations, type BoundedCaller } from './organization-boundary.js';
import { onPostgres } from './sql.js';
import { keptWayOf, runnerOf } from './kept-reads.js';
import { queryAndParameters, queryText } from './query-text.js';
import { sqliteText } from './entity-base.js';

/** A condition a filter adds: SQL with named bound parameters. Never user text in the SQL. */
export interface SqlCondition {
  sql: string;
  params: Record<string, unknown>;
}
type Column = string;
/** A sort expression that differs between SQLite and PostgreSQL, made for the query's database. */
export type DialectColumn = (db: DataSource) => string;
type CustomFilter<V> = (value: V, param: string) => SqlCondition;

/**
 * How one list operation sorts and filters. Keys are the names the interface lists (sort names are
 * matched case-insensitively); values are SQL expressions over the query's aliases, or builders of
 * a bound condition for filters that are not a plain column.
 */
export interface ListSpec {
  sort: Record<string, Column | DialectColumn>;
  defaultSort?: { by: string; direction: 'asc' | 'desc' };
  /** Text filters: `name=x` (contains) or `name[op]=x`, op in contains|equals|startswith|endswith; case-insensitive. */
  text?: Record<string, Column>;
  /** Exact string filters. */
  exact?: Record<string, Column | CustomFilter<string>>;
  bool?: Record<string, Column | CustomFilter<boolean>>;
  uuid?: Record<string, Column | CustomFilter<string>>;
}

export const TEXT_OPERATORS = ['contains', 'equals', 'startswith', 'endswith'] as const;
export type TextOperator = (typeof TEXT_OPERATORS)[number];

export interface ListQuery {
  page: number;
  pageSize: number;
  getAll: boolean;
  sortBy: string | null;
  sortDirection: 'asc' | 'desc';
  text: { param: string; op: TextOperator; value: string }[];
  exact: Record<string, string>;
  bool: Record<string, boolean>;
  uuid: Record<string, string>;
}

export const PAGE_MAX = 2147483647;
export const PAGE_SIZE_MAX = 100;
export const PAGE_SIZE_DEFAULT = 10;

const INT = /^-?\d+$/;

/** Parses the common list parameters of set A section 4 plus the operation's own filters. */
export function parseListQuery(spec: ListSpec, raw: Record<string, unknown>): ListQuery {
  const errors: FieldError[] = [];
  const fail = (param: string, message: string) => errors.push({ field: `query.${param}`, message });
  const one = (v: unknown): string | undefined =>
    Array.isArray(v) ? String(v[v.length - 1]) : v === undefined ? undefined : String(v);

  const intParam = (name: string, min: number, max: number, dflt: number): number => {
    const v = one(raw[name]);
    if (v === undefined || v === '') return dflt;
    if (!INT.test(v)) {
      fail(name, `must be a whole number from ${min} to ${max}`);
      return dflt;
    }
    const n = Number(v);
    if (n < min || n > max) fail(name, `must be from ${min} to ${max}`);
    return n;
  };
  const boolParam = (name: string): boolean | undefined => {
    const v = one(raw[name]);
    if (v === undefined || v === '') return undefined;
    const lower = v.toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    fail(name, 'must be true or false');
    return undefined;
  };

  const query: ListQuery = {
    page: intParam('page', 1, PAGE_MAX, 1),
    pageSize: intParam('page_size', 1, PAGE_SIZE_MAX, PAGE_SIZE_DEFAULT),
    getAll: boolParam('get_all') ?? false,
    sortBy: null,
    sortDirection: spec.defaultSort?.direction ?? 'asc',
    text: [],
    exact: {},
    bool: {},
    uuid: {},
  };

  const dir = one(raw.sort_direction);
  if (dir !== undefined && dir !== '') {
    const d = dir.toLowerCase();
    if (d === 'asc' || d === 'desc') query.sortDirection = d;
    else fail('sort_direction', 'must be asc or desc');
  }
  const sortNames = Object.keys(spec.sort);
  const sortBy = one(raw.sort_by);
  if (sortBy !== undefined && sortBy !== '') {
    const match = sortNames.find((s) => s.toLowerCase() === sortBy.toLowerCase());
    if (match) query.sortBy = match;
    else fail('sort_by', sortNames.length ? `must be one of: ${sortNames.join(', ')}` : 'this list cannot be sorted');
  } else if (spec.defaultSort) {
    query.sortBy = spec.defaultSort.by;
  }

  for (const [key, value] of Object.entries(raw)) {
    const m = /^([A-Za-z_.]+)\[([^\]]*)\]$/.exec(key);
    const param = m ? m[1] : key;
    if (spec.text && param in spec.text) {
      const op = (m ? m[2].toLowerCase() : 'contains') as TextOperator;
      if (!TEXT_OPERATORS.includes(op)) {
        fail(key, `unknown operator; use one of: ${TEXT_OPERATORS.join(', ')}`);
        continue;
      }
      const v = one(value) ?? '';
      if (v !== '') query.text.push({ param, op, value: v });
    } else if (m && (spec.exact?.[param] || spec.bool?.[param] || spec.uuid?.[param])) {
      fail(key, 'this filter compares exactly and takes no operator');
    }
  }
  for (const param of Object.keys(spec.exact ?? {})) {
    const v = one(raw[param]);
    if (v !== undefined && v !== '') query.exact[param] = v;
  }
  for (const param of Object.keys(spec.bool ?? {})) {
    const v = boolParam(param);
    if (v !== undefined) query.bool[param] = v;
  }
  for (const param of Object.keys(spec.uuid ?? {})) {
    const v = one(raw[param]);
    if (v === undefined || v === '') continue;
    if (isGuid(v)) query.uuid[param] = v;
    else fail(param, 'must be a UUID');
  }
  if (errors.length)
    throw badInput(`Invalid list parameters: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`, errors);
  return query;
}

function escapeLike(s: string): string {
  return s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
}

function textCondition(column: string, op: TextOperator, value: string, name: string): SqlCondition {
  const lower = `LOWER(${column})`;
  switch (op) {
    case 'equals':
      return { sql: `${lower} = :${name}`, params: { [name]: value.toLowerCase() } };
    case 'startswith':
      return { sql: `${lower} LIKE :${name} ESCAPE '\\'`, params: { [name]: `${escapeLike(value)}%` } };
    case 'endswith':
      return { sql: `${lower} LIKE :${name} ESCAPE '\\'`, params: { [name]: `%${escapeLike(value)}` } };
    default:
      return { sql: `${lower} LIKE :${name} ESCAPE '\\'`, params: { [name]: `%${escapeLike(value)}%` } };
  }
}

function columnOrCustom<V>(target: Column | CustomFilter<V>, value: V, name: string): SqlCondition {
  return typeof target === 'function'
    ? target(value, name)
    : { sql: `${target} = :${name}`, params: { [name]: value } };
}

/** Adds the parsed filters and sort to a query builder. */
export function applyListFilters<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  spec: ListSpec,
  q: ListQuery,
): SelectQueryBuilder<T> {
  let n = 0;
  const add = (c: SqlCondition) => qb.andWhere(c.sql, c.params);
  for (const t of q.text) add(textCondition(spec.text![t.param], t.op, t.value, `lf${n++}`));
  for (const [p, v] of Object.entries(q.exact)) add(columnOrCustom(spec.exact![p], v, `lf${n++}`));
  for (const [p, v] of Object.entries(q.bool)) add(columnOrCustom(spec.bool![p], v, `lf${n++}`));
  for (const [p, v] of Object.entries(q.uuid)) add(columnOrCustom(spec.uuid![p], v, `lf${n++}`));
  return qb;
}

/** The chosen sort, then the tie-break in the same direction (so desc is exactly asc reversed). */
function sortOnly<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, spec: ListSpec, q: ListQuery, tieBreak: string) {
  const dir = q.sortDirection === 'desc' ? 'DESC' : 'ASC';
  const by = q.sortBy ? spec.sort[q.sortBy] : undefined;
  // Empty values sort as the smallest, as SQLite sorts them (PostgreSQL would take them as the largest).
  const nulls = onPostgres(qb.connection) ? (dir === 'ASC' ? 'NULLS FIRST' : 'NULLS LAST') : undefined;
  if (by) qb.orderBy(typeof by === 'function' ? by(qb.connection) : by, dir, nulls);
  qb.addOrderBy(tieBreak, dir);
}

/** The sort, then the page. */
function sortAndPage<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  spec: ListSpec,
  q: ListQuery,
  tieBreak: string,
) {
  sortOnly(qb, spec, q, tieBreak);
  if (!q.getAll) qb.offset((q.page - 1) * q.pageSize).limit(q.pageSize);
}

/**
 * A condition that hides the rows of a usually empty set (projects being imported, or outside the
 * caller's reach): `hidden` selects that set. When it is a list's only condition, the list is
 * counted as the whole table while the set is empty, which SQLite answers from the table's size
 * without visiting a row (a count of 10,000 runs in a third of the time).
 */
interface HiddenGuard {
  condition: string;
  hidden: string;
}
// Keyed by the query builder itself (any entity's).
const hiddenGuards = new WeakMap<object, HiddenGuard>();

/** Adds `condition` (hiding the rows of the set `hidden` selects) to the query, and says so for its count. */
export function andHidden<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  guard: HiddenGuard,
  params: Record<string, unknown>,
): SelectQueryBuilder<T> {
  hiddenGuards.set(qb, guard);
  return qb.andWhere(guard.condition, params);
}

/**
 * The count of a filtered list as SQL and parameters. Without joins each row is one entity, so
 * `COUNT(*)`: TypeORM's own count is `COUNT(DISTINCT id)`, which sorts every id of the table to
 * count them (twice the page's own time for 10,000 users).
 */
function countStatement<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>): [string, unknown[]] {
  const counted = qb.clone().select('COUNT(*)', 'n').orderBy();
  const guard = hiddenGuards.get(qb);
  const wheres = qb.expressionMap.wheres;
  const metadata = qb.expressionMap.mainAlias?.hasMetadata ? qb.expressionMap.mainAlias.metadata : null;
  if (!guard || !metadata || wheres.length !== 1 || wheres[0].condition !== guard.condition)
    return queryAndParameters(counted);
  const whole = `SELECT COUNT(*) FROM ${qb.escape(metadata.tablePath)}`;
  const text = `SELECT CASE WHEN EXISTS (${guard.hidden}) THEN (${queryText(counted)}) ELSE (${whole}) END AS "n"`;
  return qb.connection.driver.escapeQueryWithParameters(text, qb.getParameters(), {});
}

/**
 * A page and its count read on SQLite through kept prepared statements, the page's limit and offset
 * bound (so every page shares one statement), its entities made by `hydrator`; null when the query
 * needs TypeORM's own reading (joins, a transaction's runner, PostgreSQL).
 */
async function keptPage<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  spec: ListSpec,
  q: ListQuery,
  tieBreak: string,
): Promise<{ rows: T[]; total: number } | null> {
  const way = keptWayOf(qb);
  const map = qb.expressionMap;
  if (!way || map.limit !== undefined || map.offset !== undefined || map.take || map.skip) return null;
  const { kept, hydrate } = way;
  const [countText, countParams] = countStatement(qb);
  sortOnly(qb, spec, q, tieBreak);
  const [pageText, pageParams] = queryAndParameters(qb);
  const [raw, counted] = await Promise.all([
    q.getAll
      ? kept.allKept(pageText, pageParams)
      : kept.allKept(`${pageText} LIMIT ? OFFSET ?`, [...pageParams, q.pageSize, (q.page - 1) * q.pageSize]),
    kept.allKept(countText, countParams),
  ]);
  return { rows: raw.map(hydrate) as T[], total: Number(counted[0]?.n ?? 0) };
}

/** Runs a list query with paging (or all rows with get_all) and a stable order. */
export async function runList<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  spec: ListSpec,
  q: ListQuery,
  tieBreak: string,
): Promise<{ rows: T[]; total: number; page: number; pageSize: number }> {
  applyListFilters(qb, spec, q);
  const { rows, total: n } = (await keptPage(qb, spec, q, tieBreak)) ?? (await typeormPage(qb, spec, q, tieBreak));
  return q.getAll ? { rows, total: n, page: 1, pageSize: n } : { rows, total: n, page: q.page, pageSize: q.pageSize };
}

/** A page and its count as TypeORM reads them. */
async function typeormPage<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  spec: ListSpec,
  q: ListQuery,
  tieBreak: string,
): Promise<{ rows: T[]; total: number }> {
  const total = qb.expressionMap.joinAttributes.length
    ? qb.getCount()
    : (runnerOf(qb) ?? qb.connection)
        .query(...countStatement(qb))
        .then((found: { n: number | string }[]) => Number(found[0]?.n ?? 0));
  sortAndPage(qb, spec, q, tieBreak);
  const [rows, n] = await Promise.all([qb.getMany(), total]);
  return { rows, total: n };
}

/** A list page of DTOs, ready for the list envelope. */
export async function pageOf<T extends ObjectLiteral, D>(
  qb: SelectQueryBuilder<T>,
  spec: ListSpec,
  q: ListQuery,
  tieBreak: string,
  toDto: (row: T) => D | Promise<D>,
): Promise<Page<D>> {
  const { rows, total, page, pageSize } = await runList(qb, spec, q, tieBreak);
  return new Page(await Promise.all(rows.map(toDto)), page, pageSize, total);
}

/**
 * A page of one entity's rows with the common list parameters, inside the caller's organizations
 * where the entity is bounded by them: the whole of a plain list operation.
 */
export function pageOfEntity<T extends ObjectLiteral, D>(
  ctx: BoundedCaller,
  entity: EntitySchema<T>,
  alias: string,
  spec: ListSpec,
  q: ListQuery,
  toDto: (row: T) => D | Promise<D>,
): Promise<Page<D>> {
  return pageOf(
    withinOrganizations(ctx, ctx.db.getRepository(entity).createQueryBuilder(alias), entity, alias),
    spec,
    q,
    `${alias}.id`,
    toDto,
  );
}

/**
 * The same for a raw row source (a UNION, a projection): filters and sort apply to the
 * subquery's columns; counting runs on the same filtered source.
 */
export async function rawPageOf<R, D>(
  qb: SelectQueryBuilder<ObjectLiteral>,
  spec: ListSpec,
  q: ListQuery,
  tieBreak: string,
  toDto: (row: R) => D,
): Promise<Page<D>> {
  applyListFilters(qb, spec, q);
  const countQb = qb.clone().select('COUNT(*)', 'n').orderBy();
  sortAndPage(qb, spec, q, tieBreak);
  const [rows, count] = await Promise.all([qb.getRawMany<R>(), countQb.getRawOne<{ n: number }>()]);
  const total = Number(count?.n ?? 0);
  return q.getAll ? new Page(rows.map(toDto), 1, total, total) : new Page(rows.map(toDto), q.page, q.pageSize, total);
}

/**
 * A filter on a date column by an instant (`created_from` / `created_to`), compared as the database
 * stores dates; a value that is no date is refused naming the parameter.
 */
export function dateBound(column: string, op: '>=' | '<', name: string): CustomFilter<string> {
  return (value: string, param: string) => {
    const at = Date.parse(value);
    if (Number.isNaN(at))
      throw badInput(`${name} must be a date or date-time`, [
        { field: `query.${name}`, message: 'must be an ISO 8601 date or date-time' },
      ]);
    return { sql: `${column} ${op} :${param}`, params: { [param]: sqliteText(new Date(at)) } };
  };
}
