import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export interface TestSftp {
  port: number;
  user: string;
  /** The private key the server accepts for `user`. */
  privateKey: string;
  /** A folder inside the server's reach where uploads are read back from. */
  root: string;
  /** The server's host key fingerprint as OpenSSH prints it ("SHA256:…"). */
  hostKeyFingerprint: string;
  close(): Promise<void>;
}

/**
 * Debian's OpenSSH server on a loopback port, started for the test with its own host key, config
 * and authorized key (the current user signs in with a key made here), serving SFTP in-process.
 * The port is the test's own `listen(0)`: each connection is handed to `sshd -i` (inetd mode), so
 * no port is picked, closed and hoped to be free again.
 */
export async function startSftp(): Promise<TestSftp> {
  const dir = await mkdtemp(join(tmpdir(), 'bs-sftp-'));
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'host_key')]);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'client_key')]);
  copyFileSync(join(dir, 'client_key.pub'), join(dir, 'authorized_keys'));
  const root = join(dir, 'files');
  mkdirSync(root);
  // sshd wants its privilege-separation folder; a fresh machine may not have it yet.
  mkdirSync('/run/sshd', { recursive: true });
  const config = join(dir, 'sshd_config');
  writeFileSync(
    config,
    [
      `HostKey ${join(dir, 'host_key')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PubkeyAuthentication yes',
      'PermitRootLogin prohibit-password',
      'StrictModes no',
      'UsePAM no',
      'Subsystem sftp internal-sftp',
      '',
    ].join('\n'),
  );
  // The configuration is checked once up front, so a mistake says so instead of dropping connections.
  execFileSync('/usr/sbin/sshd', ['-t', '-f', config]);
  const sessions = new Set<ChildProcess>();
  const server = createServer((socket) => {
    const child = spawn('/usr/sbin/sshd', ['-i', '-e', '-f', config], { stdio: [socket, socket, 'ignore'] });
    sessions.add(child);
    child.once('exit', () => {
      sessions.delete(child);
      socket.destroy();
    });
    socket.on('error', () => child.kill('SIGTERM'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    user: userInfo().username,
    privateKey: readFileSync(join(dir, 'client_key'), 'utf8'),
    root,
    hostKeyFingerprint: execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', join(dir, 'host_key.pub')], {
      encoding: 'utf8',
    }).split(' ')[1],
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all(
        [...sessions].map((child) => {
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGTERM');
          return exited;
        }),
      );
      await rm(dir, { recursive: true, force: true });
    },
  };
}
