import { posix } from 'node:path';
import { badInput } from '../../../core/errors.js';
import { safeFileName } from '../../../core/file-result.js';
import { webdavClient, webdavProblem } from '../webdav.js';
import { probeWrite } from './probe.js';
import { confinedRoot, serverRoot, type FieldProblem, type StorageKind } from './kind.js';

// WebDAV (Nextcloud, SharePoint's WebDAV, a NAS): an http(s) address signed in to with a user name
// and password; its test writes a small file and removes it, as signing in proves no right to write.

/** A WebDAV address as it is kept (http or https, no credentials in it), or null when it is not one. */
export function webdavUrl(host: string | null | undefined): string | null {
  try {
    const u = new URL(host?.trim() ?? '');
    if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || u.search || u.hash)
      return null;
    return u.href;
  } catch {
    return null;
  }
}

export const webdavKind: StorageKind = {
  networkHost: true,
  async destination(_ctx, f) {
    const errors: FieldProblem[] = [];
    const rootPath = serverRoot(f);
    const url = webdavUrl(f.host);
    if (!f.host?.trim()) errors.push({ field: 'body.host', message: "is required for WebDAV: the server's address" });
    else if (!url)
      errors.push({
        field: 'body.host',
        message: 'must be the WebDAV address, such as https://cloud.example.com/remote.php/dav/files/reports',
      });
    confinedRoot(rootPath, errors);
    return { host: url, port: null, rootPath, errors };
  },
  test: (ctx, x) =>
    probeWrite(
      async () => {
        const dav = await webdavClient(ctx, x, { attempts: 1 });
        return { ...dav, put: dav.put, remove: dav.remove, base: `${dav.base} at ${x.host}` };
      },
      (e) => {
        const msg = webdavProblem(e);
        return badInput(`${x.host} could not be used: ${msg}`, [
          { field: /user name|password|401/.test(msg) ? 'username' : 'host', message: msg },
        ]);
      },
    ),
  async put(ctx, x, rel, groups, log) {
    const dav = await webdavClient(ctx, x, { log });
    for (const [sub, group] of groups) {
      const dir = posix.join(rel, sub);
      await dav.ensureFolder(dir);
      for (const f of group) await dav.put(f.localPath, posix.join(dir, safeFileName(f.name)));
    }
  },
  variable: (o) => o.ftpVariable,
};
