import type { Client } from 'basic-ftp';
import { posix } from 'node:path';
import type { OpContext } from '../../../ops/context.js';
import { badInput } from '../../../core/errors.js';
import { safeFileName } from '../../../core/file-result.js';
import type { StorageServiceRow } from '../../../model/storage.entity.js';
import { confinedRoot, oneLine, serverRoot, type FieldProblem, type StorageFields, type StorageKind } from './kind.js';

// FTP and FTPS: a server signed in to with a user name and password, files put under its base
// directory. The library is loaded on first use, not at start.

/** A server's host as saved: a host name or an IP address, required. */
export function serverHost(f: StorageFields, errors: FieldProblem[]): string | null {
  if (!f.host?.trim()) errors.push({ field: 'body.host', message: `is required for ${f.type}` });
  else if (!/^[A-Za-z0-9.-]+$|^\[[0-9a-fA-F:.]+\]$/.test(f.host.trim()))
    errors.push({ field: 'body.host', message: 'must be a host name or an IP address' });
  return f.host?.trim() ?? null;
}

/** An FTP client signed in to the service, in its base directory. */
export async function ftpClient(ctx: Pick<OpContext, 'secrets'>, x: StorageServiceRow): Promise<Client> {
  const { Client } = await import('basic-ftp');
  const client = new Client(30_000);
  await client.access({
    host: x.host ?? '',
    port: x.port ?? 21,
    user: x.username ?? 'anonymous',
    password: x.password ? ctx.secrets.open(x.password) : '',
    secure: x.type === 'FTPS',
  });
  await client.ensureDir(x.rootPath ?? '/');
  return client;
}

export const ftpKind: StorageKind = {
  networkHost: true,
  async destination(_ctx, f) {
    const errors: FieldProblem[] = [];
    const rootPath = serverRoot(f);
    const host = serverHost(f, errors);
    confinedRoot(rootPath, errors);
    return { host, port: f.port ?? 21, rootPath, errors };
  },
  async test(ctx, x) {
    let client: Client | null = null;
    try {
      client = await ftpClient(ctx, x);
      return { ok: true, message: `Signed in to ${x.host}:${x.port} and opened ${await client.pwd()}` };
    } catch (e) {
      const msg = oneLine(e);
      throw badInput(`${x.host}:${x.port} could not be used: ${msg}`, [
        { field: /530|login|auth/i.test(msg) ? 'username' : 'host', message: msg },
      ]);
    } finally {
      client?.close();
    }
  },
  async put(ctx, x, rel, groups) {
    const client = await ftpClient(ctx, x);
    try {
      const base = await client.pwd();
      for (const [sub, group] of groups) {
        await client.cd(base);
        const dir = posix.join(rel, sub);
        if (dir && dir !== '.') await client.ensureDir(dir);
        for (const f of group) await client.uploadFrom(f.localPath, safeFileName(f.name));
      }
    } finally {
      client.close();
    }
  },
  variable: (o) => o.ftpVariable,
};
