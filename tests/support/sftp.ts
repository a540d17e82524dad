import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, copyFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { closedPort } from './smtp.js';

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
  const port = await closedPort();
  writeFileSync(join(dir, 'sshd_config'), [
    `Port ${port}`, 'ListenAddress 127.0.0.1', `HostKey ${join(dir, 'host_key')}`, `PidFile ${join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`, 'PasswordAuthentication no', 'KbdInteractiveAuthentication no', 'PubkeyAuthentication yes',
    'PermitRootLogin prohibit-password', 'StrictModes no', 'UsePAM no', 'Subsystem sftp internal-sftp', '',
  ].join('\n'));
  const child: ChildProcess = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  for (let i = 0; ; i++) {
    if (await listening(port)) break;
    if (i > 100 || child.exitCode !== null) throw new Error(`sshd did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    port,
    user: userInfo().username,
    privateKey: readFileSync(join(dir, 'client_key'), 'utf8'),
    root,
    hostKeyFingerprint: execFileSync('ssh-keygen', ['-l', '-E', 'sha256', '-f', join(dir, 'host_key.pub')], { encoding: 'utf8' }).split(' ')[1],
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}
