import { randomBytes } from 'node:crypto';
import { chmod, link, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { SecretKeyStore } from './core/secrets.js';

/** The environment variable that names the secrets key file, as `--secret-key-file` does. */
export const SECRET_KEY_FILE_ENV = 'BROADSHEET_SECRET_KEY_FILE';

/**
 * Under `serve` the secrets key lives in a 0600 file: by default beside the database, or where
 * `--secret-key-file` says (outside the data folder, so a copy of the folder decrypts nothing).
 * A key others may read is refused at start: it would protect nothing.
 */
export function fileKeyStore(file: string, options: { shared?: boolean } = {}): SecretKeyStore {
  return {
    where: `the key file ${file}`,
    file,
    load: async () => {
      let mode: number;
      try {
        mode = (await stat(file)).mode;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw e;
      }
      if (process.platform !== 'win32' && mode & 0o077) {
        throw new Error(
          `The secrets key ${file} can be read by others (mode ${(mode & 0o777).toString(8)}); make it yours alone with: chmod 600 ${file}`,
        );
      }
      return Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
    },
    save: async (key) => {
      if (options.shared) {
        // Servers on one database share one key: the first to start makes it, the others keep theirs
        // unsaved and read the first one's (`SecretBox.open` reads it back). Written whole aside and
        // linked into place, which fails if a key is there: a server starting at the same moment
        // never reads a key file still being written.
        const aside = `${file}.${randomBytes(6).toString('hex')}.new`;
        try {
          await writeFile(aside, key.toString('base64'), { mode: 0o600, flag: 'wx' });
          await chmod(aside, 0o600);
          await link(aside, file).catch((e: NodeJS.ErrnoException) => {
            if (e.code !== 'EEXIST') throw e;
          });
        } finally {
          await rm(aside, { force: true });
        }
        return;
      }
      // Replaced whole or not at all (a restore may bring a key back): written aside, then renamed over.
      const next = `${file}.new`;
      await writeFile(next, key.toString('base64'), { mode: 0o600 });
      await chmod(next, 0o600);
      await rename(next, file);
    },
  };
}
