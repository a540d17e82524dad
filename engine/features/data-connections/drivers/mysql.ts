// MySQL and MariaDB through mysql2, the rows streamed as they arrive (the query's stream, paused
// while a batch is written). A read-only transaction and the server's own statement limit
// (MariaDB's max_statement_time, MySQL's max_execution_time); dates as the text the server sends.
import mysql from 'mysql2';
import {
  closingStream,
  inBatches,
  SourceProblem,
  type OpenConnection,
  type RowStream,
  type SourceDriver,
} from './driver.js';

async function connect(c: OpenConnection) {
  const conn = mysql.createConnection({
    ...(c.host?.startsWith('/') ? { socketPath: c.host } : { host: c.host ?? undefined, port: c.port ?? 3306 }),
    database: c.database ?? undefined,
    user: c.username ?? undefined,
    password: c.password ?? undefined,
    ssl: c.tls === 'off' ? undefined : { rejectUnauthorized: c.tls === 'verify' },
    connectTimeout: 15_000,
    dateStrings: true,
    supportBigNumbers: true,
    bigNumberStrings: true,
  });
  await new Promise<void>((resolve, reject) => conn.connect((e) => (e ? reject(e) : resolve())));
  try {
    await refusePowerfulUser(conn, c.username ?? '');
  } catch (e) {
    conn.destroy();
    throw e;
  }
  return conn;
}

/**
 * A source's query runs as the connection's user: one holding FILE (reads the server's files with
 * LOAD_FILE) or SUPER is refused at test and at every use, with the grant to make instead.
 */
async function refusePowerfulUser(conn: mysql.Connection, user: string) {
  const [rows] = await conn.promise().query<mysql.RowDataPacket[]>(
    `SELECT PRIVILEGE_TYPE AS p FROM information_schema.USER_PRIVILEGES
        WHERE GRANTEE = CONCAT("'", SUBSTRING_INDEX(CURRENT_USER(), '@', 1), "'@'", SUBSTRING_INDEX(CURRENT_USER(), '@', -1), "'")
          AND PRIVILEGE_TYPE IN ('FILE', 'SUPER')`,
  );
  if (!rows.length) return;
  throw new SourceProblem(
    `the user “${user}” holds ${rows.map((r) => String(r.p)).join(' and ')} on this server, so a source's query could ` +
      "read the server's own files through it: connect as a user that may only read, such as: " +
      "CREATE USER 'broadsheet_reader'@'%' IDENTIFIED BY '…'; GRANT SELECT ON yourdb.* TO 'broadsheet_reader'@'%';",
    'username',
  );
}

export const mysqlDriver: SourceDriver = {
  async test(c) {
    const conn = await connect(c);
    try {
      const [rows] = await conn.promise().query<mysql.RowDataPacket[]>('SELECT VERSION() AS v');
      const v = String(rows[0].v);
      return /mariadb/i.test(v) ? `MariaDB ${v.split('-')[0]}` : `MySQL ${v}`;
    } finally {
      conn.destroy();
    }
  },
  async open(c, query, o): Promise<RowStream> {
    const conn = await connect(c);
    const close = async () => void conn.destroy();
    o.signal?.addEventListener('abort', () => conn.destroy());
    if (o.signal?.aborted) conn.destroy();
    return closingStream(close, async () => {
      const p = conn.promise();
      const seconds = Math.max(1, Math.ceil(o.timeoutMs / 1000));
      // MariaDB names the limit in seconds, MySQL in milliseconds (and only for SELECT).
      await p
        .query(`SET SESSION max_statement_time = ${seconds}`)
        .catch(() => p.query(`SET SESSION max_execution_time = ${o.timeoutMs}`));
      await p.query('START TRANSACTION READ ONLY');
      const q = conn.query({ sql: query, rowsAsArray: true });
      const columns = new Promise<string[]>((resolve, reject) => {
        q.once('fields', (fields: { name: string }[]) => resolve(fields.map((f) => f.name)));
        q.once('error', reject);
        q.once('end', () => resolve([]));
      });
      const stream = q.stream({ objectMode: true, highWaterMark: o.batch });
      return { columns: await columns, batches: inBatches(stream, o.batch) };
    });
  },
};
