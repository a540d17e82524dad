import { open, rm } from 'node:fs/promises';
import type { FieldType } from '../model.js';
import { SqliteFile } from './sqlite-file.js';
import { convert, TypeGuess } from './infer-types.js';
import { importFailure, readRows } from '../../core/tabular-rows.js';
import type { ImportFormat, RawValue } from '../../core/tabular-rows.js';
import type { ImportBudget } from './import-budget.js';
import { dimensionIndexStatements } from './dimension-indexes.js';

export interface ImportJob {
  /** The uploaded file. */
  source: string;
  format: ImportFormat;
  /** A new SQLite file that becomes the app's data when the import succeeds. */
  target: string;
  budget: ImportBudget;
}

export interface ImportOutcome {
  headers: string[];
  types: FieldType[];
  distinctCounts: number[];
  rowCount: number;
}

export interface JobProgress {
  percent: number;
  rows: number;
}

const COPY_BATCH = 5000;
const sqlType = (t: FieldType) => (t === 'integer' ? 'INTEGER' : t === 'decimal' ? 'REAL' : 'TEXT');
/** A staged value keeps what SQLite can hold as given: dates as ISO text, booleans as words. */
const stageValue = (v: RawValue) => (v instanceof Date ? v.toISOString() : typeof v === 'boolean' ? String(v) : v);

/**
 * The typed copy of a CSV's staged rows in one statement, in SQLite: every staged value is the text
 * the file held, so a cast is what `convert` does for numbers, and text stays as it is. Dates are
 * copied as written, then only those not already in the stored form (YYYY-MM-DD of a real day)
 * go through `convert`, a few thousand at a time. A JavaScript copy of every row measured about
 * twice the rest of a 2,000,000-row import.
 */
/** The widest file an import takes (SQLite's own limit is 2,000 columns a table; indexes and the copy need room). */
export const MAX_COLUMNS = 1_000;

async function copyCsvInSql(db: SqliteFile, cols: string[], types: FieldType[]) {
  const typed = cols.map((c, i) =>
    types[i] === 'integer'
      ? `CAST(TRIM(${c}) AS INTEGER)`
      : types[i] === 'decimal'
        ? `CAST(TRIM(${c}) AS REAL)`
        : types[i] === 'date'
          ? `TRIM(${c})`
          : c,
  );
  await db.exec(`INSERT INTO data (${cols.join(', ')}) SELECT ${typed.join(', ')} FROM stage ORDER BY rowid`);
  for (const [i, c] of cols.entries()) {
    if (types[i] !== 'date') continue;
    for (let after = 0; ; ) {
      const odd = await db.all<{ id: number; v: string }>(
        `SELECT rowid AS id, ${c} AS v FROM data WHERE rowid > ? AND ${c} IS NOT NULL
         AND NOT (length(${c}) = 10 AND date(${c}) IS ${c}) ORDER BY rowid LIMIT ${COPY_BATCH}`,
        [after],
      );
      if (!odd.length) break;
      for (const r of odd) await db.run(`UPDATE data SET ${c} = ? WHERE rowid = ?`, [convert(r.v, 'date'), r.id]);
      after = odd[odd.length - 1].id;
    }
  }
}

/**
 * Builds an app's data file from an uploaded file without holding its rows: rows stream into an
 * untyped staging table while each column's type is inferred, then are converted into the typed
 * `data` table batch by batch. Runs in a worker thread with a memory limit; the live data file is
 * untouched until the caller swaps this one in.
 */
export async function runImportJob(job: ImportJob, progress: (p: JobProgress) => void): Promise<ImportOutcome> {
  for (const f of [job.target, `${job.target}-journal`]) await rm(f, { force: true });
  const db = await SqliteFile.open(job.target, { building: true });
  try {
    let headers: string[] = [];
    const guesses: TypeGuess[] = [];
    let rowCount = 0;
    // One batch is written while the next is read: SQLite works in its own thread meanwhile.
    let writing: Promise<void> = Promise.resolve();
    await db.exec('BEGIN');
    try {
      for await (const batch of readRows(job.format, job.source, (h) => {
        // SQLite holds 2,000 columns a table at most: a wider file is refused by name before any row is read.
        if (h.length > MAX_COLUMNS)
          throw importFailure(
            'File',
            `has ${h.length.toLocaleString('en')} columns; one import may hold ${MAX_COLUMNS.toLocaleString('en')} at most`,
          );
        headers = h;
        headers.forEach(() => guesses.push(new TypeGuess()));
      })) {
        // A reader may hand an empty batch (a header and nothing under it): the table is made once, for rows.
        if (!batch.rows.length) continue;
        if (rowCount === 0) await db.exec(`CREATE TABLE stage (${headers.map((_, i) => `c${i}`).join(', ')})`);
        rowCount += batch.rows.length;
        if (rowCount > job.budget.rows)
          throw importFailure(
            'File',
            `has more than ${job.budget.rows.toLocaleString('en')} rows, the most one import may hold`,
          );
        if (rowCount * headers.length > job.budget.cells) {
          throw importFailure(
            'File',
            `has more than ${job.budget.cells.toLocaleString('en')} cells (rows × columns), the most one import may hold`,
          );
        }
        // Staged in place: the batch's rows are the reader's, made for this batch alone.
        const staged = batch.rows;
        for (const r of staged)
          for (let c = 0; c < r.length; c++) {
            guesses[c].add(r[c]);
            r[c] = stageValue(r[c]);
          }
        await writing;
        writing = db.appendJsonRows('stage', headers.length, staged);
        // Reading is most of the work; its share of the bar grows with the rows read.
        progress({ percent: Math.round(60 * (1 - 1 / (1 + rowCount / 200_000))), rows: rowCount });
      }
    } finally {
      // A failed read still waits for the batch in flight, so the file is closed after it; a failed
      // write is thrown here.
      await writing;
    }
    // A header alone (or one line) is no table: said in words, before a table of no columns is tried.
    if (rowCount === 0) throw importFailure('File', 'has no rows under its header line: there is nothing to import');
    const types = guesses.map((g) => g.type);
    const cols = headers.map((_, i) => `c${i}`);
    await db.exec(`CREATE TABLE data (${cols.map((c, i) => `${c} ${sqlType(types[i])}`).join(', ')})`);
    if (rowCount > 0 && job.format === 'csv') {
      await copyCsvInSql(db, cols, types);
      progress({ percent: 90, rows: rowCount });
      await db.exec('DROP TABLE stage');
    } else if (rowCount > 0) {
      for (let done = 0; done < rowCount; done += COPY_BATCH) {
        const rows = await db.all<Record<string, RawValue>>(
          `SELECT ${cols.join(', ')} FROM stage WHERE rowid > ? ORDER BY rowid LIMIT ${COPY_BATCH}`,
          [done],
        );
        await db.appendJsonRows(
          'data',
          cols.length,
          rows.map((r) => cols.map((c, i) => convert(r[c], types[i]))),
        );
        progress({
          percent: 60 + Math.round((30 * Math.min(rowCount, done + COPY_BATCH)) / rowCount),
          rows: Math.min(rowCount, done + COPY_BATCH),
        });
      }
      await db.exec('DROP TABLE stage');
    }
    for (const statement of dimensionIndexStatements(types)) await db.exec(statement);
    const counts = cols.length
      ? await db.all<Record<string, number>>(
          `SELECT ${cols.map((c) => `COUNT(DISTINCT ${c}) AS ${c}`).join(', ')} FROM data`,
        )
      : [{}];
    await db.exec('COMMIT');
    progress({ percent: 99, rows: rowCount });
    return { headers, types, distinctCounts: cols.map((c) => Number(counts[0]?.[c] ?? 0)), rowCount };
  } finally {
    await db.close();
    // The file was built without a journal: make it durable before it can be swapped in.
    const fd = await open(job.target, 'r+').catch(() => null);
    await fd?.sync();
    await fd?.close();
  }
}
