// Debian's PostgreSQL for the tests, as slapd is: a fresh cluster in a temporary folder, served on a
// Unix socket in that folder alone (no TCP port to race for), until closed. PostgreSQL refuses to
// run as root, so as root (CI) the cluster belongs to Debian's `postgres` user.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export const PG_USER = 'broadsheet';

/** The URL of a database of a test cluster, reached on its socket. */
export const postgresUrl = (socketDir: string, database: string) =>
  `postgresql://${PG_USER}@localhost/${database}?host=${encodeURIComponent(socketDir)}`;

/** The newest PostgreSQL Debian installed (its programs are not on a user's PATH). */
function pgBin(name: string): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(join(root, v, 'bin', name))) return join(root, v, 'bin', name);
  return name;
}

export interface TestPostgres {
  /** The folder holding the server's socket: pg's `host` (or `?host=` of a URL). */
  socketDir: string;
  database: string;
  user: string;
  /** Stops the server as `pg_ctl stop -m fast` does (clients cut off), keeping its data. */
  stop(): Promise<void>;
  /** Starts it again on the same data; settles once it accepts connections. */
  start(): Promise<void>;
  close(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;
/** A command as the cluster's owner: Debian's `postgres` user when we are root. */
const owned = (cmd: string, args: string[]) =>
  (asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]) as [string, string[]];

export async function startPostgres(
  database = 'broadsheet',
  /** Sign-ins need this password (SCRAM) instead of being trusted: for tests of a wrong password. */
  password?: string,
): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'bs-postgres-'));
  const data = join(dir, 'data');
  if (asRoot) {
    // The test run's own temporary folder is root's alone: the server's user must pass through it.
    // (npm test's own scratch folder only: a shared /tmp is passable already and is left as it is.)
    if (basename(tmpdir()).startsWith('broadsheet-tests-')) chmodSync(tmpdir(), 0o711);
    const { uid, gid } = userIds('postgres');
    chownSync(dir, uid, gid);
  }
  const pwfile = join(dir, 'pwfile');
  if (password) {
    writeFileSync(pwfile, password, { mode: 0o644 });
    if (asRoot) chownSync(pwfile, userIds('postgres').uid, userIds('postgres').gid);
  }
  const init = spawnSync(
    ...owned(pgBin('initdb'), [
      '-D',
      data,
      '-U',
      PG_USER,
      ...(password ? ['--auth=scram-sha-256', `--pwfile=${pwfile}`] : ['--auth=trust']),
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
    ]),
    { encoding: 'utf8' },
  );
  if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.stdout}`);
  // The server process: started here, and again after a test stops it (a restart for an update).
  const launch = async (): Promise<ChildProcess> => {
    const server: ChildProcess = spawn(
      ...owned(pgBin('postgres'), [
        '-D',
        data,
        '-k',
        dir,
        '-c',
        'listen_addresses=',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
      ]),
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let log = '';
    await new Promise<void>((resolve, reject) => {
      server.stderr!.on('data', (b: Buffer) => {
        log += b.toString();
        if (log.includes('database system is ready to accept connections')) resolve();
        // BROADSHEET_TEST_LOG=1 shows the server's log: a failed statement is printed whole there.
        if (process.env.BROADSHEET_TEST_LOG) process.stderr.write(b);
      });
      server.once('exit', (code) => reject(new Error(`postgres exited with ${code}: ${log}`)));
    });
    return server;
  };
  let server = await launch();
  /** Fast shutdown (connections ended, nothing kept), sent to the server itself: runuser, when it
   * stands between, does not pass a signal on. Its first line of postmaster.pid is its pid. */
  const shutDown = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return;
    const exited = new Promise((r) => server.once('exit', r));
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGINT');
    await exited;
  };
  const created = spawnSync(...owned(pgBin('createdb'), ['-h', dir, '-U', PG_USER, database]), {
    encoding: 'utf8',
    env: password ? { ...process.env, PGPASSWORD: password } : process.env,
  });
  if (created.status !== 0) throw new Error(`createdb failed: ${created.stderr}`);
  return {
    socketDir: dir,
    database,
    user: PG_USER,
    async stop() {
      await shutDown();
    },
    async start() {
      server = await launch();
    },
    async close() {
      await shutDown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function userIds(name: string): { uid: number; gid: number } {
  const out = spawnSync('id', ['-u', name], { encoding: 'utf8' });
  const gid = spawnSync('id', ['-g', name], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`no user ${name}: install Debian's postgresql`);
  return { uid: Number(out.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
