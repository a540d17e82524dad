import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestWebDav {
  /** The server's address, as a storage service's `host` names it. */
  url: string;
  /** The folder the server serves: what was uploaded is read back from here. */
  root: string;
  close(): Promise<void>;
}

/**
 * A real WebDAV server on loopback: Debian's `rclone serve webdav`, serving a fresh folder to one
 * user. Port 0: rclone's own listen picks a free port, read back from the line it logs when it serves.
 */
export async function startWebDav(user = 'reports', password = 'dav-secret'): Promise<TestWebDav> {
  const root = await mkdtemp(join(tmpdir(), 'bs-webdav-'));
  const config = join(root, '..', `${root.split('/').pop()}.conf`);
  const child: ChildProcess = spawn(
    'rclone',
    ['serve', 'webdav', root, '--addr', '127.0.0.1:0', '--user', user, '--pass', password, '--config', config],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let said = '';
    const seen = (b: Buffer) => {
      said += b.toString();
      const m = /WebDav Server started on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(said);
      if (m) resolve(m[1]);
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`rclone serve webdav exited with ${code}: ${said}`)));
  });
  return {
    url,
    root,
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      await rm(root, { recursive: true, force: true });
      await rm(config, { force: true });
    },
  };
}
