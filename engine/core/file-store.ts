import { copyFile, link, mkdir, open, readdir, readFile, rename, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Where the files runs make and the hub publishes live, named by key (`requests/<id>/<name>`,
 * `hub/<file id>/<occurrence>.<extension>`): the data folder's `files/` on a desktop, a folder all
 * servers share when they share a database. Everything that writes, reads, copies or removes those
 * files goes through here, so object storage can come later behind the same interface.
 */
export interface FileStore {
  /** Writes a file whole: a reader finds all of it or none (never part of one, even after a crash). */
  write(key: string, data: Buffer): Promise<void>;
  read(key: string): Promise<Buffer>;
  /** Stores a copy of one file under another key (a link where the store can: no bytes copied). */
  copy(from: string, to: string): Promise<void>;
  /** Removes one file; one already gone is no fault. */
  remove(key: string): Promise<void>;
  /** Removes every file under a prefix; answers how many there were. */
  removeAll(prefix: string): Promise<number>;
  /** Removes what a crash left half-written under a prefix (whole files stay); answers how many. */
  removeUnfinished(prefix: string): Promise<number>;
  /** A path on this machine holding the file, for libraries that send from a path (folder, FTP, SFTP). */
  localPath(key: string): Promise<string>;
}

/** A file being written: renamed to its key once whole. */
const UNFINISHED = '.part';

/** A key's place under the root: plain names joined by `/`, never `..`, so nothing leaves the root. */
function under(root: string, key: string): string {
  const names = key.split('/');
  if (names.some((n) => !n || n === '.' || n === '..' || n.includes('\\') || n.includes('\0')))
    throw new Error(`Not a file key: ${JSON.stringify(key)}`);
  return join(root, ...names);
}

/** A folder not made yet holds nothing; any other failure to read it is a fault to report. */
function noneIfMissing(e: NodeJS.ErrnoException): string[] {
  if (e.code === 'ENOENT') return [];
  throw e;
}

/** The file store on a folder (the data folder's `files/`, or a folder servers share). */
export function folderFileStore(root: string): FileStore {
  const parentOf = (path: string) => join(path, '..');
  return {
    async write(key, data) {
      const path = under(root, key);
      await mkdir(parentOf(path), { recursive: true, mode: 0o700 });
      const part = path + UNFINISHED;
      const handle = await open(part, 'w', 0o600);
      try {
        await handle.writeFile(data);
      } finally {
        await handle.close();
      }
      await rename(part, path);
    },
    read: async (key) => readFile(under(root, key)),
    async copy(from, to) {
      const [source, target] = [under(root, from), under(root, to)];
      const place = () => link(source, target).catch(() => copyFile(source, target));
      // The target's folder is made only when missing (a hub file published again has it).
      await place().catch(async (e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
        await mkdir(parentOf(target), { recursive: true, mode: 0o700 });
        await place();
      });
    },
    async remove(key) {
      await unlink(under(root, key)).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== 'ENOENT') throw e;
      });
    },
    async removeAll(prefix) {
      const dir = under(root, prefix);
      const names = await readdir(dir).catch(noneIfMissing);
      await rm(dir, { recursive: true, force: true });
      return names.length;
    },
    async removeUnfinished(prefix) {
      const dir = under(root, prefix);
      const parts = (await readdir(dir).catch(noneIfMissing)).filter((n) => n.endsWith(UNFINISHED));
      await Promise.all(parts.map((n) => rm(join(dir, n), { force: true })));
      return parts.length;
    },
    localPath: async (key) => under(root, key),
  };
}
