import { open, rm } from 'node:fs/promises';
import type { FieldType } from '../model.js';
import { ColumnarFile, literal, syncFile } from './columnar-file.js';
import { convert } from './infer-types.js';
import { inferColumnTypes, PLAIN_DATE } from './infer-types-sql.js';
import { checkHeaders, importFailure, readRows } from '../../core/tabular-rows.js';
import type { ImportFormat, RawValue } from '../../core/tabular-rows.js';
import type { ImportBudget } from './import-budget.js';
import { SqliteFile } from './sqlite-file.js';

export interface ImportJob {
  /** The uploaded file, or (`app-file`) a data file of before the columnar store, to convert. */
  source: string;
  format: ImportFormat | 'app-file';
  /** A new data file that becomes the app's data when the import succeeds. */
  target: string;
  budget: ImportBudget;
  /** An `app-file`'s field types, kept as they were. */
  types?: FieldType[];
}

export interface ImportOutcome {
  headers: string[];
  types: FieldType[];
  distinctCounts: number[];
  rowCount: number;
}

/** What an import counted of the rows it wrote. */
interface ImportCounts {
  rowCount: number;
  distinctCounts: number[];
}

export interface JobProgress {
  percent: number;
  rows: number;
}

/** The widest file an import takes. */
export const MAX_COLUMNS = 1_000;
const BATCH = 5000;
/** How much of a CSV is read for its header line and delimiter. */
const HEAD_BYTES = 1 << 20;

const column = (i: number) => `c${i}`;
const columnList = (width: number) => Array.from({ length: width }, (_, i) => column(i));
/** A staged value keeps what a text column can hold: dates as ISO text, numbers and booleans as written. */
const stageValue = (v: RawValue) => (v === null ? null : v instanceof Date ? v.toISOString() : String(v));

function checkWidth(headers: string[]) {
  // One import holds a thousand columns at most: a wider file is refused by name before any row is read.
  if (headers.length > MAX_COLUMNS)
    throw importFailure(
      'File',
      `has ${headers.length.toLocaleString('en')} columns; one import may hold ${MAX_COLUMNS.toLocaleString('en')} at most`,
    );
}

function checkBudget(rows: number, width: number, budget: ImportBudget) {
  if (rows > budget.rows)
    throw importFailure('File', `has more than ${budget.rows.toLocaleString('en')} rows, the most one import may hold`);
  if (rows * width > budget.cells)
    throw importFailure(
      'File',
      `has more than ${budget.cells.toLocaleString('en')} cells (rows × columns), the most one import may hold`,
    );
}

/** The header line and delimiter of a CSV, as the row reader finds them (Papa's guess over its start). */
async function csvHead(path: string): Promise<{ headers: string[]; delimiter: string } | null> {
  const handle = await open(path, 'r');
  let text: string;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(HEAD_BYTES), 0, HEAD_BYTES, 0);
    text = buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
  } finally {
    await handle.close();
  }
  const { default: Papa } = await import('papaparse');
  const parsed = Papa.parse<string[]>(text, { preview: 2, skipEmptyLines: true });
  // A header line that does not end within the first megabyte, or no line at all: the row reader says what is wrong.
  if (!parsed.data.length || (parsed.data.length < 2 && text.length === HEAD_BYTES)) return null;
  return { headers: parsed.data[0].map((h) => h.trim()), delimiter: parsed.meta.delimiter };
}

/** The types DuckDB's reader may give a column of a typed read, and what each is here. */
const READ_TYPES: Record<string, FieldType> = { BIGINT: 'integer', DOUBLE: 'decimal', DATE: 'date', VARCHAR: 'text' };

/** Each column's distinct values and the table's rows, in one scan with any `checks` asked beside them. */
async function profile(db: ColumnarFile, width: number, checks: string[] = []) {
  const cols = columnList(width);
  const [row] = await db.all<Record<string, number>>(
    `SELECT COUNT(*) AS n${cols.map((c) => `, COUNT(DISTINCT ${c}) AS ${c}`).join('')}${checks.map((check, k) => `, ${check} AS ok${k}`).join('')} FROM data`,
  );
  const counts: ImportCounts = { rowCount: Number(row.n), distinctCounts: cols.map((c) => Number(row[c] ?? 0)) };
  /** The checks that failed, by their place in `checks`. */
  const failed = checks.flatMap((_, k) => (row[`ok${k}`] ? [] : [k]));
  return { counts, failed };
}

/**
 * No value of a text column is blank (spaces only, or empty), as TypeGuess reads blanks. Trimming
 * every value of four text columns of 2,000,000 rows took 170 ms, more than counting their
 * distinct values. A value that is not empty and does not start with a space cannot be blank, and
 * checking that is a prefix (35 ms); only a column where some value is empty or starts with a space
 * is trimmed.
 */
const noBlankStart = (c: string) => `NOT COALESCE(bool_or(${c} = '' OR prefix(${c}, ' ')), false)`;
const noBlank = (c: string) => `NOT COALESCE(bool_or(trim(${c}) = ''), false)`;

/**
 * A CSV read typed by DuckDB itself in one pass (its reader's types, every core), kept only when
 * those types are the ones TypeGuess gives: integers of 15 digits at most, decimals that are
 * numbers, ISO dates (held as DATE, read back as their text), text columns that TypeGuess too
 * would call text, no value of blanks, no row of nothing. The checks ride on the scan that counts
 * each column's distinct values. Answers the types and counts, or null (nothing left behind) when
 * the careful way must read the file: a staged copy typed by TypeGuess's rules.
 */
async function readCsvTyped(
  db: ColumnarFile,
  job: ImportJob,
  head: { headers: string[]; delimiter: string },
): Promise<(ImportCounts & { types: FieldType[] }) | null> {
  const cols = columnList(head.headers.length);
  const reader = `read_csv(${literal(job.source)}, header = true, delim = ${literal(head.delimiter)}, quote = '"', escape = '"',
    strict_mode = true, auto_type_candidates = ['BIGINT', 'DOUBLE', 'DATE', 'VARCHAR'], dateformat = '%Y-%m-%d',
    names = [${cols.map((c) => `'${c}'`).join(', ')}])`;
  const giveUp = async () => {
    await db.run('DROP TABLE IF EXISTS data');
    return null;
  };
  let types: FieldType[];
  try {
    // Read once (the reader sniffs as it goes), then the table says what types it chose. Dates stay
    // DATE: four bytes a value, grouped and sorted as numbers (a chart by day); read back as their text.
    await db.run(`CREATE TABLE data AS SELECT * FROM ${reader}`);
    // The table made durable before its distinct values are counted: DuckDB then counts them in the
    // memory the read held. On 2,000,000 rows the build's peak fell from 217–246 to 197–212 MiB
    // (DuckDB alone, its 128 MB limit); the checkpoint takes 4 ms, as the one at the end then does.
    await db.run('CHECKPOINT');
    const described = await db.all<{ column_name: string; column_type: string }>('DESCRIBE data');
    if (described.length !== cols.length || described.some((d) => !READ_TYPES[d.column_type])) return await giveUp();
    types = described.map((d) => READ_TYPES[d.column_type]);
  } catch {
    // A value its types do not take (a blank among numbers, a line of another width): read carefully.
    return giveUp();
  }
  // One check a column but dates, riding on the scan that counts; a text column's is the quick one.
  const checks = cols.flatMap((c, i) =>
    types[i] === 'integer'
      ? [{ c, sql: `COALESCE(max(abs(${c})) < 1e15, true)`, text: false }]
      : types[i] === 'decimal'
        ? [{ c, sql: `NOT COALESCE(bool_or(isnan(${c}) OR isinf(${c})), false)`, text: false }]
        : types[i] === 'text'
          ? [{ c, sql: noBlankStart(c), text: true }]
          : [],
  );
  const nothing = cols.map((c) => `${c} IS NULL`).join(' AND ');
  const counted = await profile(db, cols.length, [
    ...checks.map((check) => check.sql),
    `COUNT(*) FILTER (WHERE ${nothing}) = 0`,
  ]);
  // A text column failing only its quick check is trimmed to know: a value may just start with a space.
  const toTrim = counted.failed.map((k) => checks[k]);
  if (toTrim.some((check) => !check?.text)) return giveUp();
  if (toTrim.length) {
    const [row] = await db.all<Record<string, boolean>>(
      `SELECT ${toTrim.map((check, k) => `${noBlank(check.c)} AS ok${k}`).join(', ')} FROM data`,
    );
    if (toTrim.some((_, k) => !row[`ok${k}`])) return giveUp();
  }
  const texts = types.flatMap((t, i) => (t === 'text' ? [i] : []));
  const asGuessed = texts.length ? await inferColumnTypes(db, 'data', cols.length, texts) : [];
  if (texts.some((i) => asGuessed[i] !== 'text')) return giveUp();
  return { types, ...counted.counts };
}

/**
 * A CSV staged by DuckDB's own reader, in its threads: every value as text, blanks as null, rows
 * of blanks left out, the line order kept. Answers null when DuckDB does not take the file as it
 * is (a line of the wrong width, an open quote): the row reader then reads it and says where.
 */
async function stageCsv(
  db: ColumnarFile,
  job: ImportJob,
  head: { headers: string[]; delimiter: string },
): Promise<{ headers: string[] } | null> {
  const cols = columnList(head.headers.length);
  const blank = (c: string) => `(${c} IS NULL OR trim(${c}) = '')`;
  try {
    await db.run(
      `CREATE TEMP TABLE stage AS SELECT ${cols.map((c) => `CASE WHEN ${blank(c)} THEN NULL ELSE ${c} END AS ${c}`).join(', ')}
         FROM read_csv(${literal(job.source)}, header = true, delim = ${literal(head.delimiter)}, quote = '"', escape = '"',
           auto_detect = false, strict_mode = true, columns = {${cols.map((c) => `'${c}': 'VARCHAR'`).join(', ')}})
         WHERE NOT (${cols.map(blank).join(' AND ')})`,
    );
  } catch {
    await db.run('DROP TABLE IF EXISTS stage');
    return null;
  }
  return { headers: head.headers };
}

/** Any file staged through the row reader (Excel, JSON, a CSV DuckDB refused): batch by batch, within the budget. */
async function stageRows(db: ColumnarFile, job: ImportJob, progress: (p: JobProgress) => void) {
  let headers: string[] = [];
  let rowCount = 0;
  for await (const batch of readRows(job.format as ImportFormat, job.source, (h) => {
    checkWidth(h);
    headers = h;
  })) {
    if (!batch.rows.length) continue;
    if (rowCount === 0)
      await db.run(
        `CREATE TABLE stage (${columnList(headers.length)
          .map((c) => `${c} VARCHAR`)
          .join(', ')})`,
      );
    rowCount += batch.rows.length;
    checkBudget(rowCount, headers.length, job.budget);
    await db.append(
      'stage',
      batch.rows.map((r) => r.map(stageValue)),
    );
    progress({ percent: Math.round(60 * (1 - 1 / (1 + rowCount / 200_000))), rows: rowCount });
  }
  return { headers, rowCount };
}

/**
 * The typed copy of the staged rows, in DuckDB: numbers cast as `convert` reads them, text as it
 * came, dates as they are when already in the stored form (YYYY-MM-DD), and the others through
 * `convert` once per distinct value (a date with a time, an offset, a spreadsheet's date).
 */
async function copyTyped(db: ColumnarFile, types: FieldType[]) {
  const cols = columnList(types.length);
  const joins: string[] = [];
  const typed = await Promise.all(
    cols.map(async (c, i) => {
      if (types[i] === 'integer') return `CAST(trim(s.${c}) AS BIGINT) AS ${c}`;
      if (types[i] === 'decimal') return `CAST(trim(s.${c}) AS DOUBLE) AS ${c}`;
      if (types[i] !== 'date') return `s.${c} AS ${c}`;
      const odd = await db.all<{ v: string }>(
        `SELECT DISTINCT trim(${c}) AS v FROM stage WHERE ${c} IS NOT NULL AND NOT regexp_full_match(trim(${c}), '${PLAIN_DATE}')`,
      );
      if (!odd.length) return `trim(s.${c}) AS ${c}`;
      await db.run(`CREATE TEMP TABLE dates_${c} (k VARCHAR, v VARCHAR)`);
      await db.append(
        `dates_${c}`,
        odd.map((o) => [o.v, convert(o.v, 'date') as string]),
      );
      joins.push(`LEFT JOIN dates_${c} ON dates_${c}.k = trim(s.${c})`);
      return `COALESCE(dates_${c}.v, trim(s.${c})) AS ${c}`;
    }),
  );
  // A join does not keep the rows' order by itself: the stage's row order is asked for then.
  const order = joins.length ? 'ORDER BY s.rowid' : '';
  await db.createDataTable(types);
  await db.run(`INSERT INTO data SELECT ${typed.join(', ')} FROM stage s ${joins.join(' ')} ${order}`);
  await db.run('DROP TABLE stage');
}

/**
 * A data file of before the columnar store (SQLite, one `data` table) copied as it is into a new
 * one: the types its metadata names, the values as they were, in their order.
 */
async function convertAppFile(db: ColumnarFile, job: ImportJob, progress: (p: JobProgress) => void) {
  const types = job.types ?? [];
  const cols = columnList(types.length);
  await db.createDataTable(types);
  const old = await SqliteFile.open(job.source, { shared: true });
  let rowCount = 0;
  try {
    for (let after = 0; ; ) {
      const rows = await old.all<Record<string, string | number | null>>(
        `SELECT rowid AS rid, ${cols.join(', ')} FROM data WHERE rowid > ? ORDER BY rowid LIMIT ${BATCH}`,
        [after],
      );
      if (!rows.length) break;
      await db.append(
        'data',
        rows.map((r) => cols.map((c) => r[c])),
        types,
      );
      after = Number(rows[rows.length - 1].rid);
      rowCount += rows.length;
      progress({ percent: 50, rows: rowCount });
    }
  } finally {
    await old.close();
  }
  return { headers: [], types, rowCount };
}

/** A header alone (or one line) is no table: said in words. */
const nothingToImport = () => importFailure('File', 'has no rows under its header line: there is nothing to import');

function finished(outcome: ImportOutcome, progress: (p: JobProgress) => void): ImportOutcome {
  progress({ percent: 99, rows: outcome.rowCount });
  return outcome;
}

/**
 * Builds an app's data file (DuckDB, columnar) from an uploaded file: DuckDB stages a CSV itself,
 * the row reader stages anything else; each column's type is inferred where the rows are, then the
 * rows are copied typed. Runs in a worker thread with a memory limit; the live data file is
 * untouched until the caller swaps this one in.
 */
export async function runImportJob(job: ImportJob, progress: (p: JobProgress) => void): Promise<ImportOutcome> {
  for (const f of [job.target, `${job.target}.wal`]) await rm(f, { force: true });
  const db = await ColumnarFile.build(job.target);
  try {
    if (job.format === 'app-file') {
      const { headers, types } = await convertAppFile(db, job, progress);
      return finished({ headers, types, ...(await profile(db, types.length)).counts }, progress);
    }
    progress({ percent: 1, rows: 0 });
    const head = job.format === 'csv' ? await csvHead(job.source) : null;
    if (head) {
      checkHeaders(head.headers, (c) => `Line 1, column ${c + 1}`);
      checkWidth(head.headers);
    }
    // The fast way first: DuckDB reads the file typed in one pass; the careful way when its types are not TypeGuess's.
    const read = head ? await readCsvTyped(db, job, head) : null;
    if (read) {
      if (read.rowCount === 0) throw nothingToImport();
      checkBudget(read.rowCount, head!.headers.length, job.budget);
      return finished({ headers: head!.headers, ...read }, progress);
    }
    const staged = head ? await stageCsv(db, job, head) : null;
    let headers: string[];
    let rowCount: number;
    if (staged) {
      headers = staged.headers;
      [{ n: rowCount }] = await db.all<{ n: number }>('SELECT COUNT(*) AS n FROM stage');
      checkBudget(rowCount, headers.length, job.budget);
    } else {
      ({ headers, rowCount } = await stageRows(db, job, progress));
    }
    if (rowCount === 0) throw nothingToImport();
    progress({ percent: 60, rows: rowCount });
    const types = await inferColumnTypes(db, 'stage', headers.length);
    await copyTyped(db, types);
    progress({ percent: 90, rows: rowCount });
    return finished({ headers, types, ...(await profile(db, types.length)).counts }, progress);
  } finally {
    await db.close();
    await syncFile(job.target);
  }
}
