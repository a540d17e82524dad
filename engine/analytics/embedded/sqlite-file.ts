import sqlite3 from 'sqlite3';
import { KeptStatements } from '../../core/kept-statements.js';

/** Cells in one JSON batch: a few megabytes of text at most. */
const JSON_CELLS_A_STATEMENT = 100_000;
/** An app's charts, variables and list boxes, each with its few shapes of WHERE. */
const KEPT_STATEMENTS = 100;
const READ = /^\s*(SELECT|WITH)\b/i;

/** A promise face on one sqlite3 database file (an app's data); every value is a bound parameter. */
export class SqliteFile {
  /** Whether statements run in the order issued (a building file), so several may be queued at once. */
  private inOrder = false;

  /**
   * Reads kept prepared: a report made per customer asks the same chart and KPI once per value, so
   * the text repeats with another value bound, and a kept statement is one trip where a new one
   * is three (prepare, step, finalize): a third of a per-value KPI's time over HTTP.
   */
  private readonly kept: KeptStatements;

  private constructor(private readonly db: sqlite3.Database) {
    this.kept = new KeptStatements(db, KEPT_STATEMENTS);
  }

  /**
   * Opens a data file in WAL mode. `building`: a file no reader sees yet (an import builds it, then
   * it is swapped in), written without a journal and synced once at the end; its statements run
   * strictly in the order they are issued, so an import can queue a batch and read the next.
   */
  static open(path: string, options: { building?: boolean; shared?: boolean } = {}): Promise<SqliteFile> {
    return new Promise((resolve, reject) => {
      const db = new sqlite3.Database(path, (err) => (err ? reject(err) : resolve(new SqliteFile(db))));
    }).then(async (f) => {
      const file = f as SqliteFile;
      if (options.building) {
        file.db.serialize();
        file.inOrder = true;
      }
      await file.exec(
        options.building
          ? 'PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA temp_store = FILE;'
          : options.shared
            ? // A folder shared by servers on several machines: WAL needs all its readers on one host
              // (shared memory), a rollback journal needs only the file system's locks.
              'PRAGMA journal_mode = DELETE; PRAGMA busy_timeout = 5000;'
            : 'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;',
      );
      return file;
    });
  }

  all<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    if (!this.inOrder && READ.test(sql)) return this.kept.all<T>(sql, params);
    return new Promise((resolve, reject) =>
      this.db.all(sql, params, (err, rows) => (err ? reject(err) : resolve(rows as T[]))),
    );
  }

  run(sql: string, params: unknown[] = []): Promise<void> {
    return new Promise((resolve, reject) => this.db.run(sql, params, (err) => (err ? reject(err) : resolve())));
  }

  exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => this.db.exec(sql, (err) => (err ? reject(err) : resolve())));
  }

  /**
   * Inserts many rows as multi-row INSERTs (a few thousand values a statement): one call into SQLite
   * per batch instead of per row, about twenty times faster for a large import. On a building file
   * the statements are issued together and SQLite runs them in order in its own thread.
   */
  async insertMany(table: string, width: number, rows: unknown[][]): Promise<void> {
    const per = Math.max(1, Math.floor(30_000 / Math.max(1, width)));
    const one = `(${Array.from({ length: width }, () => '?').join(', ')})`;
    await this.runEach(rows, per, (batch) => [
      `INSERT INTO ${table} VALUES ${batch.map(() => one).join(', ')}`,
      batch.flat(),
    ]);
  }

  /**
   * Appends rows to a table as JSON text that SQLite takes apart itself, a batch a statement: one
   * bound value instead of one per cell. Binding cells cost the reading thread as much as parsing
   * the file did; SQLite's JSON reader works in its own thread while the next batch is read.
   * Values keep their kind (text, number, null), as bound values would.
   */
  appendJsonRows(table: string, width: number, rows: unknown[][]): Promise<void> {
    const cells = Array.from({ length: width }, (_, i) => `json_extract(value, '$[${i}]')`).join(', ');
    const per = Math.max(1, Math.floor(JSON_CELLS_A_STATEMENT / Math.max(1, width)));
    return this.runEach(rows, per, (batch) => [
      `INSERT INTO ${table} SELECT ${cells} FROM json_each(?)`,
      [JSON.stringify(batch)],
    ]);
  }

  /**
   * One statement per `per` rows. On a building file they are issued together (SQLite runs them in
   * order in its own thread); otherwise one after another, since other calls may run between them.
   */
  private async runEach(rows: unknown[][], per: number, statement: (batch: unknown[][]) => [string, unknown[]]) {
    const issued: Promise<void>[] = [];
    for (let i = 0; i < rows.length; i += per) {
      const run = this.run(...statement(rows.slice(i, i + per)));
      if (this.inOrder) issued.push(run);
      else await run;
    }
    await Promise.all(issued);
  }

  async close(): Promise<void> {
    await this.kept.finalizeAll();
    return new Promise((resolve, reject) => this.db.close((err) => (err ? reject(err) : resolve())));
  }
}
