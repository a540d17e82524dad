import type { DataSource, EntityManager } from 'typeorm';

/**
 * Hand-written SQL that runs on SQLite (the desktop) and PostgreSQL (several servers, issue 26).
 * Statements are written once, in the dialect both take: identifiers in double quotes (PostgreSQL
 * folds unquoted names to lower case), TRUE and FALSE, `?` placeholders (numbered here for
 * PostgreSQL). Where the two must differ, the difference is named here and nowhere else.
 */
type Runner = DataSource | EntityManager;

const optionsOf = (r: Runner) => ('connection' in r ? r.connection.options : r.options);

export const onPostgres = (r: Runner): boolean => optionsOf(r).type === 'postgres';

/** `?` placeholders as PostgreSQL numbers them ($1, $2…); text and names in quotes are left alone. */
function numbered(text: string): string {
  let n = 0;
  return text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (m) => (m === '?' ? `$${++n}` : m));
}

/** Runs a statement with `?` placeholders on either database; a SELECT answers its rows. */
export function sql<T = Record<string, unknown>>(r: Runner, text: string, params: unknown[] = []): Promise<T[]> {
  return r.query(onPostgres(r) ? numbered(text) : text, params) as Promise<T[]>;
}

/**
 * A DELETE whose `RETURNING` rows are answered: one statement where a SELECT of the ids and a
 * DELETE of them took two trips and the ids twice. Written as `WITH … DELETE … RETURNING …`
 * (`with` names the rows to remove): TypeORM runs a statement that begins with DELETE on SQLite
 * without reading rows back, and answers PostgreSQL's as [rows, count].
 */
export async function deleteReturning<T = Record<string, unknown>>(
  r: Runner,
  text: `WITH ${string} DELETE ${string} RETURNING ${string}`,
  params: unknown[] = [],
): Promise<T[]> {
  const answer = (await sql(r, text, params)) as unknown;
  return (onPostgres(r) ? (answer as [T[], number])[0] : answer) as T[];
}

/** `?, ?, ?` for a list of values. */
export const marks = (values: readonly unknown[]) => values.map(() => '?').join(', ');

/**
 * The order rows went in, to break ties between equal timestamps: SQLite's rowid; on PostgreSQL
 * the inserting transaction's id (rows compared here come from different runs, so transactions).
 */
export const insertionOrder = (r: Runner, alias: string) =>
  onPostgres(r) ? `${alias}.xmin::text::bigint` : `${alias}.rowid`;

/** A text value held as JSON text, read at a key: `json_extract` on SQLite, `->>` on PostgreSQL. */
export const jsonText = (r: Runner, column: string, key: string) =>
  onPostgres(r) ? `(${column}::json ->> '${key}')` : `json_extract(${column}, '$.${key}')`;

/** The values of a column joined with commas (one per row of a group). */
export const joinedText = (r: Runner, column: string) =>
  onPostgres(r) ? `STRING_AGG(${column}, ',')` : `GROUP_CONCAT(${column})`;

/** Whether a flag held in JSON text is true. */
export const jsonFlag = (r: Runner, column: string, key: string) =>
  onPostgres(r) ? `(${column}::json ->> '${key}') = 'true'` : `json_extract(${column}, '$.${key}') = 1`;

/** A parameter's text read as a timestamp where the database will not infer it (a VALUES list). */
export const asTimestamp = (r: Runner, expr: string) => (onPostgres(r) ? `CAST(${expr} AS timestamptz)` : expr);
