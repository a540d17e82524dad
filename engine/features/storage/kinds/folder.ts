import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, posix } from 'node:path';
import { badInput } from '../../../core/errors.js';
import { safeFileName } from '../../../core/file-result.js';
import { houseFolderProblem } from '../../../core/house-folders.js';
import { folderUnder } from '../storage-paths.js';
import type { FieldProblem, StorageKind } from './kind.js';

// A folder on this computer (or a share mounted here): its root must be there, absolute, and none of
// the installation's or the system's own folders; files land whole or not at all.

const isFolder = (path: string) =>
  stat(path).then(
    (x) => x.isDirectory(),
    () => false,
  );

/**
 * Copies a file into a folder whole or not at all: written under a name of its own, then renamed
 * into place. A copy cut short (a full disk, a share gone) leaves no truncated report for someone to
 * open; what it had written is removed.
 */
async function copyWhole(from: string, to: string): Promise<void> {
  const part = `${to}.${randomBytes(4).toString('hex')}.part`;
  try {
    await copyFile(from, part);
    await rename(part, to);
  } catch (e) {
    await rm(part, { force: true }).catch(() => undefined);
    throw e;
  }
}

export const folderKind: StorageKind = {
  networkHost: false,
  async destination(ctx, f) {
    const errors: FieldProblem[] = [];
    const rootPath = f.rootPath?.trim() || null;
    if (!rootPath)
      errors.push({ field: 'body.rootPath', message: 'is required for a folder: the root every delivery stays under' });
    else if (!isAbsolute(rootPath))
      errors.push({ field: 'body.rootPath', message: 'must be an absolute path, such as /srv/reports or D:\\Reports' });
    else if (houseFolderProblem(rootPath, ctx.houseFolders))
      errors.push({ field: 'body.rootPath', message: houseFolderProblem(rootPath, ctx.houseFolders)! });
    // A folder that is not there would fail every delivery later: said now, where it can be fixed.
    else if (!(await isFolder(rootPath)))
      errors.push({ field: 'body.rootPath', message: 'does not exist or is not a folder on this computer' });
    return { host: null, port: null, rootPath, errors };
  },
  async test(_ctx, x) {
    const root = x.rootPath ?? '';
    if (!(await isFolder(root)))
      throw badInput(`The folder ${root} does not exist`, [
        { field: 'rootPath', message: 'does not exist or is not a folder' },
      ]);
    await access(root, constants.W_OK).catch(() => {
      throw badInput(`The folder ${root} cannot be written to`, [
        { field: 'rootPath', message: 'cannot be written to' },
      ]);
    });
    return { ok: true, message: `The folder ${root} is there and can be written to` };
  },
  async put(ctx, x, rel, groups) {
    // A folder saved before the rule that points into the installation or the system is refused.
    const house = houseFolderProblem(x.rootPath ?? '', ctx.houseFolders);
    if (house) throw new Error(`the folder ${house}`);
    // The root is never made here: a share not mounted leaves its mount point empty or gone, and
    // files put there would land on the local disk where nobody looks.
    if (!(await isFolder(x.rootPath ?? '')))
      throw Object.assign(new Error(`the folder ${x.rootPath} is not there`), { code: 'ENOENT' });
    for (const [sub, group] of groups) {
      const dir = folderUnder(x.rootPath ?? '', posix.join(rel, sub));
      if (!dir) throw new Error(`the path would leave the folder's root`);
      await mkdir(dir, { recursive: true });
      for (const f of group) await copyWhole(f.localPath, join(dir, safeFileName(f.name)));
    }
  },
  // The folder variable alone names a folder's subfolders.
  variable: () => null,
  /** A root that is not there is said so (a disk or a share not mounted: it may come back), not as the subfolder's "no such file". */
  async problem(x, err) {
    if ((err as { code?: string }).code !== 'ENOENT' || !x.rootPath) return null;
    return (await stat(x.rootPath).catch(() => null))
      ? null
      : { words: `the folder ${x.rootPath} is not there (a disk or share not mounted?)`, transient: true };
  },
};
