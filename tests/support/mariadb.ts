// Debian's MariaDB for the tests, as PostgreSQL is: a fresh server in a temporary folder, served on a
// Unix socket in that folder alone (no TCP port to race for), until closed. As root (CI) it runs as
// root, which mariadbd takes only when told.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';

export interface TestMariadb {
  /** The server's socket: a data connection's host. */
  socket: string;
  /** Runs statements as the server's root (through the socket, no password). */
  admin(sql: string, params?: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

export async function startMariadb(): Promise<TestMariadb> {
  const dir = mkdtempSync(join(tmpdir(), 'bs-mariadb-'));
  const data = join(dir, 'data');
  const socket = join(dir, 'mysqld.sock');
  const user = asRoot ? ['--user=root'] : [];
  const init = spawnSync(
    'mariadb-install-db',
    ['--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db', ...user],
    { encoding: 'utf8' },
  );
  if (init.status !== 0) throw new Error(`mariadb-install-db failed: ${init.stderr || init.stdout}`);
  const server: ChildProcess = spawn(
    '/usr/sbin/mariadbd',
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--socket=${socket}`,
      '--skip-networking',
      `--pid-file=${join(dir, 'mariadbd.pid')}`,
      '--innodb-buffer-pool-size=32M',
      '--innodb-flush-log-at-trx-commit=0',
      '--skip-log-bin',
      ...user,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    server.stderr!.on('data', (b: Buffer) => {
      log += b.toString();
      if (log.includes('ready for connections')) resolve();
    });
    server.once('exit', (code) => reject(new Error(`mariadbd exited with ${code}: ${log}`)));
  });
  const root = await mysql.createConnection({ socketPath: socket, user: 'root', multipleStatements: true });
  return {
    socket,
    admin: (sql, params) => root.query(sql, params),
    async close() {
      await root.end().catch(() => undefined);
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
