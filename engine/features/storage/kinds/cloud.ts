import { posix } from 'node:path';
import { badInput } from '../../../core/errors.js';
import { safeFileName } from '../../../core/file-result.js';
import { cloudDrive, cloudVariable } from '../cloud/providers.js';
import { probeWrite } from './probe.js';
import { confinedRoot, oneLine, serverRoot, type FieldProblem, type StorageKind } from './kind.js';

// The cloud drives (OneDrive, SharePoint, Google Drive, Dropbox): connected through an account at
// their provider (cloud/providers.ts holds each drive's provider and client), files put under the
// service's base folder; the test writes a small file and removes it.

/** A SharePoint site's address as kept (https, no query), or null. */
export function sharePointSite(url: string | null | undefined): string | null {
  try {
    const u = new URL(url?.trim() ?? '');
    return u.protocol === 'https:' && !u.username && !u.search ? u.href.replace(/\/+$/, '') : null;
  } catch {
    return null;
  }
}

export const cloudKind: StorageKind = {
  networkHost: false,
  async destination(_ctx, f) {
    const errors: FieldProblem[] = [];
    const rootPath = serverRoot(f);
    confinedRoot(rootPath, errors);
    if (f.type === 'SharePoint' && !sharePointSite(f.siteUrl))
      errors.push({
        field: 'body.siteUrl',
        message: 'must be the SharePoint site’s address, such as https://contoso.sharepoint.com/sites/Finance',
      });
    return { host: null, port: null, rootPath, errors };
  },
  async test(ctx, x) {
    if (!x.oauth)
      throw badInput(`“${x.name}” is not connected to an account yet`, [
        { field: 'account', message: 'connect an account first' },
      ]);
    return probeWrite(
      async () => {
        const drive = await cloudDrive(ctx, x, { attempts: 1 });
        return { ...drive, base: `${x.rootPath ?? '/'} (${drive.where})` };
      },
      (e) => {
        const msg = oneLine(e);
        return badInput(`“${x.name}” could not be used: ${msg}`, [
          { field: /reconnect|revoked/i.test(msg) ? 'account' : 'type', message: msg },
        ]);
      },
    );
  },
  async put(ctx, x, rel, groups, log) {
    const drive = await cloudDrive(ctx, x, { log });
    for (const [sub, group] of groups)
      for (const f of group) await drive.put(f.localPath, posix.join(rel, sub, safeFileName(f.name)));
  },
  variable: (o, x) => cloudVariable(x.type, o),
};
