// PostgreSQL through pg, its rows through a server-side cursor (pg-cursor): a batch at a time, so a
// result of millions of rows never sits in memory. Read-only transaction, the server's own
// statement_timeout, dates kept as the day they are (not a local midnight).
import pg from 'pg';
import Cursor from 'pg-cursor';
import { closingStream, SourceProblem, type OpenConnection, type RowStream, type SourceDriver } from './driver.js';

const DATE_OID = 1082;
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === DATE_OID
      ? (v: string) => v
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

async function connect(c: OpenConnection, timeoutMs?: number) {
  const client = new pg.Client({
    host: c.host ?? undefined,
    port: c.port ?? 5432,
    database: c.database ?? undefined,
    user: c.username ?? undefined,
    password: c.password ?? undefined,
    ssl: c.tls === 'off' ? false : { rejectUnauthorized: c.tls === 'verify' },
    connectionTimeoutMillis: 15_000,
    statement_timeout: timeoutMs,
    application_name: 'Broadsheet',
    types,
  });
  await client.connect();
  try {
    await refusePowerfulRole(client, c.username ?? '');
  } catch (e) {
    await client.end().catch(() => undefined);
    throw e;
  }
  return client;
}

/**
 * A source's query runs as the connection's user: a superuser, or a member of the roles that run
 * programs or read the server's files, would let `COPY … TO PROGRAM` or `pg_read_file` through a
 * read-only transaction. Such a user is refused at test and at every use, with the role to make.
 */
async function refusePowerfulRole(client: pg.Client, user: string) {
  const { rows } = await client.query<{ super: boolean; program: boolean; files: boolean }>(
    `SELECT r.rolsuper AS super,
            pg_has_role(current_user, 'pg_execute_server_program', 'MEMBER') AS program,
            pg_has_role(current_user, 'pg_read_server_files', 'MEMBER') AS files
       FROM pg_roles r WHERE r.rolname = current_user`,
  );
  const power = rows[0];
  if (!power || !(power.super || power.program || power.files)) return;
  const what = power.super
    ? 'is a superuser of this server'
    : power.program
      ? 'may run programs on this server'
      : "may read the server's files";
  throw new SourceProblem(
    `the user “${user}” ${what}, so a source's query could reach the server's own machine through it: ` +
      "connect as a role that may only read, such as: CREATE ROLE broadsheet_reader LOGIN PASSWORD '…'; " +
      'GRANT pg_read_all_data TO broadsheet_reader;',
    'username',
  );
}

export const postgresDriver: SourceDriver = {
  async test(c) {
    const client = await connect(c, 15_000);
    try {
      const { rows } = await client.query<{ v: string }>("SELECT current_setting('server_version') AS v");
      return `PostgreSQL ${rows[0].v.split(' ')[0]}`;
    } finally {
      await client.end();
    }
  },
  async open(c, query, o): Promise<RowStream> {
    const client = await connect(c, o.timeoutMs);
    // A cut connection fails the read in flight; the client's own report of it is not a second failure.
    client.on('error', () => undefined);
    // Cut, not ended: ending waits for the server, which is busy with the very query being stopped.
    const cancel = () =>
      (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    o.signal?.addEventListener('abort', cancel);
    if (o.signal?.aborted) cancel();
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      await client.end().catch(() => undefined);
    };
    return closingStream(close, async () => {
      await client.query('BEGIN TRANSACTION READ ONLY');
      const cursor = client.query(new Cursor(query, [], { rowMode: 'array' }));
      const read = (n: number) =>
        new Promise<{ rows: unknown[][]; fields: string[] }>((resolve, reject) =>
          cursor.read(n, (err, rows, result) =>
            err
              ? reject(err)
              : // A cursor read to its end answers later reads with no rows and no result.
                resolve({ rows: rows as unknown[][], fields: result?.fields.map((f) => f.name) ?? [] }),
          ),
        );
      const first = await read(o.batch);
      async function* batches() {
        for (let next = first.rows; next.length; next = (await read(o.batch)).rows) yield next;
      }
      return { columns: first.fields, batches: batches() };
    });
  },
};
