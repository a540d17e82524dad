// Microsoft SQL Server through tedious, the rows streamed as they arrive (the request paused while
// a batch is written). The query runs inside a transaction rolled back at the end, so nothing it
// might change is kept (the connection closes without a commit), with the request's own time limit.
// Untested here: no SQL Server runs on the
// machines this product is built on; tests/data/sqlserver.test.ts runs against one when
// BROADSHEET_TEST_SQLSERVER names it.
import { Connection, Request } from 'tedious';
import { closingStream, type OpenConnection, type RowStream, type SourceDriver } from './driver.js';

function connect(c: OpenConnection, requestTimeout: number): Promise<Connection> {
  const conn = new Connection({
    server: c.host ?? 'localhost',
    authentication: { type: 'default', options: { userName: c.username ?? '', password: c.password ?? '' } },
    options: {
      port: c.port ?? 1433,
      database: c.database ?? undefined,
      encrypt: c.tls !== 'off',
      trustServerCertificate: c.tls !== 'verify',
      connectTimeout: 15_000,
      requestTimeout,
      rowCollectionOnRequestCompletion: false,
    },
  });
  return new Promise((resolve, reject) => {
    conn.once('connect', (e) => (e ? reject(e) : resolve(conn)));
    conn.connect();
  });
}

/** Runs a statement that answers no rows. */
const run = (conn: Connection, sql: string) =>
  new Promise<void>((resolve, reject) => conn.execSqlBatch(new Request(sql, (e) => (e ? reject(e) : resolve()))));

export const sqlServerDriver: SourceDriver = {
  async test(c) {
    const conn = await connect(c, 15_000);
    try {
      let version = '';
      await new Promise<void>((resolve, reject) => {
        const r = new Request("SELECT CAST(SERVERPROPERTY('ProductVersion') AS nvarchar(64))", (e) =>
          e ? reject(e) : resolve(),
        );
        r.on('row', (cols: { value: unknown }[]) => (version = String(cols[0].value)));
        conn.execSql(r);
      });
      return `SQL Server ${version}`;
    } finally {
      conn.close();
    }
  },

  async open(c, query, o): Promise<RowStream> {
    const conn = await connect(c, o.timeoutMs);
    const close = async () => void conn.close();
    o.signal?.addEventListener('abort', () => conn.close());
    return closingStream(close, async () => {
      await run(conn, 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED; BEGIN TRANSACTION');
      // Rows wait in `pending` while the request is paused; the generator takes a batch at a time.
      let pending: unknown[][] = [];
      let wake: (() => void) | null = null;
      let ended = false;
      let failed: Error | null = null;
      let known: (names: string[]) => void = () => undefined;
      let refused: (e: Error) => void = () => undefined;
      const columns = new Promise<string[]>((resolve, reject) => {
        known = resolve;
        refused = reject;
      });
      const request = new Request(query, (e) => {
        failed = e ?? null;
        ended = true;
        if (e) refused(e);
        else known([]);
        wake?.();
      });
      request.once('columnMetadata', (cols: { colName: string }[]) => known(cols.map((x) => x.colName)));
      request.on('row', (cols: { value: unknown }[]) => {
        pending.push(cols.map((x) => x.value));
        if (pending.length >= o.batch) request.pause();
        wake?.();
      });
      conn.execSql(request);
      const names = await columns;
      async function* batches() {
        for (;;) {
          if (pending.length >= o.batch || (ended && pending.length)) {
            const batch = pending;
            pending = [];
            request.resume();
            yield batch;
            continue;
          }
          if (failed) throw failed;
          if (ended) return;
          await new Promise<void>((r) => (wake = r));
          wake = null;
        }
      }
      return { columns: names, batches: batches() };
    });
  },
};
