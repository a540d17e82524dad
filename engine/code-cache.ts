import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * Where this user's compiled code is kept: their own cache folder, per V8 version. Undefined when the
 * folder is not theirs alone: compiled code read from a folder another user can write would run as
 * this user, so it is kept only where nobody else can put it.
 */
export function privateCodeCacheDir(base = defaultCacheBase()): string | undefined {
  const dir = join(base, 'broadsheet', 'code', process.versions.v8);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (process.platform === 'win32') return dir; // Under the user's own profile.
    for (const folder of [dir, join(base, 'broadsheet')]) {
      const s = statSync(folder);
      if (s.uid !== process.getuid!() || (s.mode & 0o022) !== 0) return undefined;
    }
    return dir;
  } catch {
    return undefined;
  }
}

function defaultCacheBase() {
  if (process.platform === 'win32') return process.env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local');
  return process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
}

/**
 * The head of CommonJS's wrapper around a module's source, as Node's own loader compiles it. The
 * build writes the server's bundle already inside it (scripts/build-node.mjs): compiled as read,
 * its text is not copied into a wrapped one first.
 */
export const WRAPPED_HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
const wrapped = (source: string) => (source.startsWith(WRAPPED_HEAD) ? source : `${WRAPPED_HEAD}${source}\n});`);

/**
 * Runs a CommonJS bundle as `require` would, with V8's compiled code of it kept between starts: the
 * server's bundle is then read from the cache instead of parsed and compiled, about a tenth of a
 * second of each start. The cache is named by the bundle's contents (V8 itself checks only their
 * length) and written when the process ends, holding what that run compiled, in place of earlier
 * builds' caches; a rejected one (a new Node) is written anew. Without a private folder the bundle simply runs.
 */
export function runBundle(file: string, cacheDir = privateCodeCacheDir()): void {
  const bytes = readFileSync(file);
  // The build writes the bundle in ASCII (scripts/build-node.mjs escapes the rest): read as one-byte
  // text it needs no UTF-8 decoding (17 ms), nor a look at every byte to be sure (5 ms).
  const source = bytes.toString('latin1');
  const cacheFile =
    cacheDir && join(cacheDir, `${basename(file)}.${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = cacheFile ? readFileSync(cacheFile) : undefined;
  } catch {
    cachedData = undefined;
  }
  const script = new Script(wrapped(source), { filename: file, cachedData });
  if (cacheFile && (!cachedData || script.cachedDataRejected))
    process.once('exit', () => {
      try {
        // Written whole under a name of this process's own, then renamed: starts that end together
        // never mix their writes, and a start never reads half a cache.
        const partial = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
        renameSync(partial, cacheFile);
        // Earlier builds' caches are of no more use.
        for (const old of readdirSync(cacheDir!))
          if (old.startsWith(`${basename(file)}.`) && join(cacheDir!, old) !== cacheFile)
            rmSync(join(cacheDir!, old), { force: true });
      } catch {
        // A cache that cannot be written only costs the next start its compile time.
      }
    });
  const module = { exports: {} as unknown, filename: file, id: file };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
}
