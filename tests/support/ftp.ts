import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FtpSrv } from 'ftp-srv';
import type { AddressInfo, Server } from 'node:net';

export interface TestFtp {
  port: number;
  /** The folder the server serves: what was uploaded is read back from here. */
  root: string;
  close(): Promise<void>;
}

/** A real FTP server (ftp-srv) on loopback serving a fresh folder to one user. */
export async function startFtp(user = 'reports', password = 'ftp-secret'): Promise<TestFtp> {
  const root = await mkdtemp(join(tmpdir(), 'bs-ftp-'));
  const pasv = 30000 + Math.floor(Math.random() * 20000);
  // Port 0: the server's own listen picks a free port, read back once it listens (passive ports try the next free one).
  const server = new FtpSrv({
    url: 'ftp://127.0.0.1:0',
    pasv_url: '127.0.0.1',
    pasv_min: pasv,
    pasv_max: pasv + 50,
    anonymous: false,
    greeting: 'test server',
    log: silentLog(),
  });
  server.on('login', ({ username, password: given }, resolve, reject) =>
    username === user && given === password ? resolve({ root }) : reject(new Error('Invalid username or password')),
  );
  server.on('client-error', () => {});
  await server.listen();
  const port = ((server as unknown as { server: Server }).server.address() as AddressInfo).port;
  return {
    port,
    root,
    async close() {
      await server.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** ftp-srv logs through bunyan; the tests want quiet. */
function silentLog() {
  const noop = () => {};
  const log = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, fatal: noop, child: () => log };
  return log;
}

/** A storage service on the test FTP server, as the API takes it (its own user and password unless told otherwise). */
export const ftpService = (ftp: TestFtp, over: Record<string, unknown> = {}) => ({
  name: 'Partner FTP',
  type: 'FTP',
  host: '127.0.0.1',
  port: ftp.port,
  username: 'reports',
  password: 'ftp-secret',
  ...over,
});
