import type sqlite3 from 'sqlite3';

/** A kept statement, and its preparation (which may fail). */
interface KeptStatement {
  statement: sqlite3.Statement;
  prepared: Promise<void>;
}

/**
 * SELECTs on one sqlite3 connection through statements prepared once and kept by their text: one
 * trip to the database's thread where a new statement takes three (prepare, step, finalize). For
 * the reads people wait on, whose text repeats with other values bound (a list's page, a KPI for
 * one customer). At most `max` are kept; the least recently used is finalized once its queued
 * runs are done. SQLite prepares a kept statement again by itself when the schema has changed.
 */
export class KeptStatements {
  private readonly kept = new Map<string, KeptStatement>();

  constructor(
    private readonly db: sqlite3.Database,
    private readonly max: number,
  ) {}

  async all<T = Record<string, unknown>>(sql: string, params: unknown[]): Promise<T[]> {
    let kept = this.kept.get(sql);
    if (kept) this.kept.delete(sql);
    else {
      let statement!: sqlite3.Statement;
      // A statement SQLite cannot prepare never answers a run: its runs wait until it is prepared.
      const prepared = new Promise<void>((resolve, reject) => {
        statement = this.db.prepare(sql, (err: Error | null) => (err ? reject(err) : resolve()));
      });
      kept = { statement, prepared };
      while (this.kept.size >= this.max) {
        const [oldest, old] = this.kept.entries().next().value!;
        this.kept.delete(oldest);
        old.statement.finalize();
      }
    }
    this.kept.set(sql, kept);
    const { statement, prepared } = kept;
    try {
      await prepared;
      return await new Promise((resolve, reject) =>
        statement.all(params, (err: Error | null, rows: T[]) => (err ? reject(err) : resolve(rows))),
      );
    } catch (e) {
      // Not kept after a failure: the next run prepares it anew (or fails the same way, clearly).
      if (this.kept.get(sql) === kept) {
        this.kept.delete(sql);
        statement.finalize();
      }
      throw e;
    }
  }

  /** Finalizes every kept statement: SQLite refuses to close a connection while one is prepared. */
  finalizeAll(): Promise<void> {
    const statements = [...this.kept.values()].map((k) => k.statement);
    this.kept.clear();
    return Promise.all(statements.map((st) => new Promise<void>((done) => st.finalize(() => done())))).then(
      () => undefined,
    );
  }
}
