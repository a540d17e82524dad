import type SftpClient from 'ssh2-sftp-client';
import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { OpContext } from '../../../ops/context.js';
import { badInput } from '../../../core/errors.js';
import { safeFileName } from '../../../core/file-result.js';
import { StorageService, type StorageServiceRow } from '../../../model/storage.entity.js';
import { confinedRoot, oneLine, serverRoot, type FieldProblem, type StorageKind } from './kind.js';
import { serverHost } from './ftp.js';

// SFTP: an SSH server signed in to with a password or a private key, its host key pinned on first
// use; files put under an absolute base directory.

/**
 * An SFTP client signed in to the service (password or private key), its base directory made. The
 * server's host key is pinned on first use (its SHA-256 kept on the service) and must match after:
 * a changed key is refused before any password or file is sent, since it may be another machine.
 */
export async function sftpClient(
  ctx: Pick<OpContext, 'secrets' | 'db' | 'write'>,
  x: StorageServiceRow,
): Promise<SftpClient> {
  const { default: SftpClient } = await import('ssh2-sftp-client');
  const client = new SftpClient();
  let seen: string | null = null;
  try {
    await client.connect({
      host: x.host ?? '',
      port: x.port ?? 22,
      username: x.username ?? '',
      readyTimeout: 20_000,
      password: x.password ? ctx.secrets.open(x.password) : undefined,
      privateKey: x.privateKey ? ctx.secrets.open(x.privateKey) : undefined,
      hostVerifier: (key: Buffer) => {
        seen = `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
        return !x.hostKey || x.hostKey === seen;
      },
    });
  } catch (e) {
    if (x.hostKey && seen && seen !== x.hostKey) {
      throw new Error(
        `the host key of ${x.host} changed (pinned ${x.hostKey}, offered ${seen}); if the server was reinstalled, clear the pinned key and test again`,
      );
    }
    throw e;
  }
  if (!x.hostKey && seen) {
    const pinned = seen;
    await ctx.write(() => ctx.db.getRepository(StorageService).update({ id: x.id }, { hostKey: pinned }));
    x.hostKey = pinned;
  }
  await client.mkdir(x.rootPath ?? '/', true);
  return client;
}

export const sftpKind: StorageKind = {
  networkHost: true,
  async destination(_ctx, f) {
    const errors: FieldProblem[] = [];
    const rootPath = serverRoot(f);
    if (!rootPath.startsWith('/'))
      errors.push({
        field: 'body.ftpTestDirectoryPath',
        message: 'must be an absolute path on the server, such as /home/reports/out',
      });
    const host = serverHost(f, errors);
    confinedRoot(rootPath, errors);
    return { host, port: f.sftpPort ?? f.port ?? 22, rootPath, errors };
  },
  async test(ctx, x) {
    let sftp: SftpClient | null = null;
    try {
      sftp = await sftpClient(ctx, x);
      return { ok: true, message: `Signed in to ${x.host}:${x.port} (host key ${x.hostKey}) and opened ${x.rootPath}` };
    } catch (e) {
      const msg = oneLine(e);
      throw badInput(`${x.host}:${x.port} could not be used: ${msg}`, [
        { field: /host key/i.test(msg) ? 'host' : /auth|password|key/i.test(msg) ? 'username' : 'host', message: msg },
      ]);
    } finally {
      await sftp?.end().catch(() => undefined);
    }
  },
  async put(ctx, x, rel, groups) {
    const sftp = await sftpClient(ctx, x);
    try {
      for (const [sub, group] of groups) {
        const dir = posix.join(x.rootPath ?? '/', rel, sub);
        await sftp.mkdir(dir, true);
        for (const f of group) await sftp.put(f.localPath, posix.join(dir, safeFileName(f.name)));
      }
    } finally {
      await sftp.end().catch(() => undefined);
    }
  },
  variable: (o) => o.ftpVariable,
};
