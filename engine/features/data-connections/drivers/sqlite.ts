// A SQLite file on this machine, opened read-only (the file is never changed, nor its journal
// made): the statement stepped a row at a time, handed on in batches.
import sqlite3 from 'sqlite3';
import { closingStream, inBatches, type OpenConnection, type RowStream, type SourceDriver } from './driver.js';

function openReadOnly(c: OpenConnection): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(c.filePath ?? '', sqlite3.OPEN_READONLY, (e) => (e ? reject(e) : resolve(db)));
  });
}

const closeDb = (db: sqlite3.Database) => new Promise<void>((r) => db.close(() => r()));

export const sqliteDriver: SourceDriver = {
  async test(c) {
    const db = await openReadOnly(c);
    try {
      const v = await new Promise<string>((resolve, reject) =>
        db.get('SELECT sqlite_version() AS v', (e, row: { v: string }) => (e ? reject(e) : resolve(row.v))),
      );
      return `SQLite ${v}`;
    } finally {
      await closeDb(db);
    }
  },
  async open(c, query, o): Promise<RowStream> {
    const db = await openReadOnly(c);
    db.configure('busyTimeout', Math.min(o.timeoutMs, 60_000));
    // Interrupted when the statement runs past its time, as a server's own timeout would.
    const timer = setTimeout(() => db.interrupt(), o.timeoutMs);
    o.signal?.addEventListener('abort', () => db.interrupt());
    timer.unref();
    let stmt: sqlite3.Statement | null = null;
    const close = async () => {
      clearTimeout(timer);
      if (stmt) await new Promise<void>((r) => stmt!.finalize(() => r()));
      await closeDb(db);
    };
    return closingStream(close, async () => {
      const prepared = await new Promise<sqlite3.Statement>((resolve, reject) => {
        const s = db.prepare(query, (e) => (e ? reject(e) : resolve(s)));
      });
      stmt = prepared;
      const step = () =>
        new Promise<Record<string, unknown> | undefined>((resolve, reject) =>
          prepared.get((e, row: Record<string, unknown> | undefined) => (e ? reject(e) : resolve(row))),
        );
      const first = await step();
      const columns = first ? Object.keys(first) : [];
      async function* rows() {
        for (let row = first; row; row = await step()) yield columns.map((k) => row![k]);
      }
      return { columns, batches: inBatches(rows(), o.batch) };
    });
  },
};
