import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, statfsSync } from 'node:fs';
import { copyFile, link, mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { stallWatch } from '../../core/jobs/stall-watch.js';
import { packFiles } from './backup-pack.js';
import { unreadableDataFile } from '../../analytics/embedded-analytics.js';
import sqlite3 from 'sqlite3';

// tar is loaded when a backup is made or restored, not at start (as every library behind one feature).
// A backup is one gzipped tar file: a consistent copy of the database (`VACUUM INTO`, a snapshot
// taken while writes go on), of each analytics app's data file the same way, of `files/` (request
// and hub files, linked while the archive is written so retention cannot pull them away), of the
// run logs (`logs/`), and a
// manifest with every file's SHA-256 and the tables' counts. It is written beside its destination
// as `.partial` and renamed into place once complete: a crash leaves earlier backups as they were.

export const BACKUP_FORMAT = 'broadsheet-backup';
export const BACKUP_EXTENSION = '.bsbackup';
const DB_FILE = 'broadsheet.db';
const KEY_FILE = 'secret.key';
/** Tables whose counts the manifest records (what a person would check after a restore). */
const COUNTED = [
  'users',
  'groups',
  'projects',
  'reports',
  'tasks',
  'requests',
  'outbox',
  'hub_files',
  'member_permissions',
];

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  version: 1;
  createdAt: string;
  /** The schema version of the database inside (the number of migrations applied). */
  schemaVersion: number;
  release: string | null;
  includesSecretKey: boolean;
  counts: Record<string, number>;
  /** Every file of the backup but the manifest, with its size and SHA-256. */
  files: Record<string, { size: number; sha256: string }>;
}

function sqlite(path: string, mode = sqlite3.OPEN_READWRITE | sqlite3.OPEN_CREATE): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(path, mode, (e) => (e ? reject(e) : resolve(db)));
  });
}
const all = <T>(db: sqlite3.Database, sql: string, params: unknown[] = []) =>
  new Promise<T[]>((resolve, reject) => db.all(sql, params, (e, rows) => (e ? reject(e) : resolve(rows as T[]))));
const closeDb = (db: sqlite3.Database) =>
  new Promise<void>((resolve, reject) => db.close((e) => (e ? reject(e) : resolve())));

/** A consistent copy of a live SQLite file through a connection of its own (a WAL reader's snapshot). */
async function snapshot(source: string, target: string) {
  const db = await sqlite(source, sqlite3.OPEN_READONLY);
  try {
    await all(db, 'PRAGMA busy_timeout = 10000');
    await all(db, 'VACUUM INTO ?', [target]);
  } finally {
    await closeDb(db);
  }
}

/** `PRAGMA integrity_check` of a database file: 'ok' or what SQLite found. */
export async function integrityOf(file: string): Promise<string> {
  const db = await sqlite(file, sqlite3.OPEN_READONLY);
  try {
    const rows = await all<{ integrity_check: string }>(db, 'PRAGMA integrity_check');
    return rows.map((r) => r.integrity_check).join('; ');
  } finally {
    await closeDb(db);
  }
}

/**
 * The embedded apps a backup's database names whose files the backup lacks (every such app keeps
 * `apps/<appId>/meta.json` from its creation on): restored, they would answer "not found".
 */
async function appsMissing(db: sqlite3.Database, files: BackupManifest['files']): Promise<string[]> {
  const apps = await all<{ appId: string }>(db, `SELECT "appId" FROM analytics_apps WHERE provider = 'embedded'`);
  return apps.map((a) => a.appId).filter((appId) => !files[`apps/${appId}/meta.json`]);
}

/**
 * The SHA-256 of a file, read through one buffer reused for every chunk: a backup hashes every file
 * of the data folder, and a fresh buffer per chunk (a read stream's) left hundreds of MiB for the
 * garbage collector, whose pauses cost more than the hashing (measured on the backup bench).
 */
async function sha256(file: string, buffer: Buffer): Promise<string> {
  const hash = createHash('sha256');
  const handle = await open(file, 'r');
  try {
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

/** Bytes a backup reads at a time when it hashes. */
const READ_CHUNK = 1024 * 1024;

async function* walk(dir: string): AsyncGenerator<string> {
  if (!existsSync(dir)) return;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

/** Links a file into the staging folder (instant, and immune to its removal); copies across devices. */
async function place(source: string, target: string) {
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  await link(source, target).catch(() => copyFile(source, target));
}

async function syncFile(path: string) {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export interface WriteBackupOptions {
  dataDir: string;
  /** The backup file to write (its folder exists). */
  file: string;
  schemaVersion: number;
  release: string | null;
  /** The secrets key, when the user asked for it to be in the backup. */
  secretKey: Buffer | null;
  now: Date;
  /** How long the backup may go without progress before it is stopped as stuck (default 60 s). */
  stallMs?: number;
  /** Hears each step as it starts ("copying the database"), numbered out of `BACKUP_STEPS`. */
  onStep?: (step: string, number: number, of: number) => void;
}

/**
 * The named steps of a backup, each announced as it starts: the database, the apps, the files, the
 * logs, checksums, packing, putting it in place.
 */
export const BACKUP_STEPS = 7;

/** The most a backup may go without a step forward: a file placed, hashed or packed, bytes written. */
const STALL_MS = 60_000;

/** Writes a backup; answers its manifest and size. */
export async function writeBackup(o: WriteBackupOptions): Promise<{ manifest: BackupManifest; size: number }> {
  // Staging lives in the data folder, so request and hub files are hard links, not copies.
  const staging = join(o.dataDir, `backup-staging-${randomUUID()}`);
  const partial = `${o.file}.partial`;
  let number = 0;
  const watch = stallWatch(o.stallMs ?? STALL_MS, (step) => o.onStep?.(step, ++number, BACKUP_STEPS));
  await mkdir(staging, { mode: 0o700 });
  // A step stuck for good (a file that never finishes reading) still ends the backup: the watch's
  // abort answers for it, and the lock is released; the stuck step never puts a file in place.
  const stopped = new Promise<never>((_, reject) =>
    watch.signal.addEventListener('abort', () => reject(watch.signal.reason as Error), { once: true }),
  );
  stopped.catch(() => undefined);
  const work = async () => {
    watch.step('copying the database');
    await snapshot(join(o.dataDir, DB_FILE), join(staging, DB_FILE));
    watch.step('copying the analytics apps');
    for await (const path of walk(join(o.dataDir, 'apps'))) {
      watch.step();
      const rel = relative(o.dataDir, path);
      // An app's data file is copied as a snapshot; an import's half-built next file is left out.
      if (/\.(db-wal|db-shm|wal)$/.test(path) || basename(path).startsWith('data.next')) continue;
      if (path.endsWith('.db')) {
        await mkdir(dirname(join(staging, rel)), { recursive: true, mode: 0o700 });
        await snapshot(path, join(staging, rel));
      } else await place(path, join(staging, rel));
    }
    watch.step('linking the generated and published files');
    for await (const path of walk(join(o.dataDir, 'files'))) {
      watch.step();
      if (path.endsWith('.part')) continue;
      await place(path, join(staging, relative(o.dataDir, path)));
    }
    // Run logs grow while they are open: copied as they are now (a link would keep growing after its checksum).
    watch.step('copying the run logs');
    for await (const path of walk(join(o.dataDir, 'logs'))) {
      watch.step();
      const target = join(staging, relative(o.dataDir, path));
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      await copyFile(path, target);
    }
    if (o.secretKey) await writeFile(join(staging, KEY_FILE), o.secretKey.toString('base64'), { mode: 0o600 });
    const files: BackupManifest['files'] = {};
    const chunk = Buffer.allocUnsafe(READ_CHUNK);
    watch.step('checksumming the files');
    for await (const path of walk(staging)) {
      watch.step();
      files[relative(staging, path).split(sep).join('/')] = {
        size: (await stat(path)).size,
        sha256: await sha256(path, chunk),
      };
    }

    const db = await sqlite(join(staging, DB_FILE), sqlite3.OPEN_READONLY);
    const counts: Record<string, number> = {};
    try {
      for (const table of COUNTED)
        counts[table] = Number((await all<{ n: number }>(db, `SELECT COUNT(*) AS n FROM "${table}"`))[0].n);
      // An app removed between the database's snapshot and the walk of apps/: this backup could not be restored.
      const missing = await appsMissing(db, files);
      if (missing.length) throw new Error(`the app ${missing[0]} was removed while it was taken; take it again`);
    } finally {
      await closeDb(db);
    }
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      version: 1,
      createdAt: o.now.toISOString(),
      schemaVersion: o.schemaVersion,
      release: o.release,
      includesSecretKey: !!o.secretKey,
      counts,
      files,
    };
    await writeFile(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 1), { mode: 0o600 });
    watch.step('packing the archive');
    // Every chunk written is progress; a pack that stops is stopped.
    await packFiles({
      root: staging,
      files: [
        { name: 'manifest.json', size: (await stat(join(staging, 'manifest.json'))).size },
        ...Object.entries(files).map(([name, f]) => ({ name, size: f.size })),
      ],
      to: partial,
      mtime: o.now,
      signal: watch.signal,
      onProgress: () => watch.step(),
    });

    await syncFile(partial);
    // A backup stopped as stuck never lands, even if its last step comes back later.
    watch.step('putting the backup in place');
    await rename(partial, o.file);
    return { manifest, size: (await stat(o.file)).size };
  };
  try {
    return await Promise.race([work(), stopped]);
  } finally {
    watch.stop();
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

/** Why a backup cannot be restored: what is wrong, in the user's words. */
export class BackupProblem extends Error {}

const RESTORE_STAGING = 'restore-staging';
/** A restore checked and waiting for the next start (its file in the data folder). */
export const RESTORE_PENDING_FILE = 'restore-pending.json';
const RESTORE_PENDING = RESTORE_PENDING_FILE;
const RESTORE_APPLIED = 'restore-applied.json';

/** The most a manifest may take: it names files, it holds none. */
const MANIFEST_MAX = 16 * 1024 * 1024;
const SHA256 = /^[0-9a-f]{64}$/;

/** A manifest's fields checked one by one: what a crafted one lacks is said, never a 500. */
function checkedManifest(text: string, knownSchema: number): BackupManifest {
  let m: Partial<BackupManifest> | null;
  try {
    m = JSON.parse(text) as Partial<BackupManifest> | null;
  } catch (e) {
    throw new BackupProblem(`This file is not a Broadsheet backup: its manifest is not JSON (${(e as Error).message})`);
  }
  if (!m || typeof m !== 'object' || m.format !== BACKUP_FORMAT)
    throw new BackupProblem('This file is not a Broadsheet backup (it has no Broadsheet manifest)');
  if (typeof m.schemaVersion !== 'number' || !Number.isInteger(m.schemaVersion))
    throw new BackupProblem('The backup is damaged: its manifest has no schema version');
  if (m.schemaVersion > knownSchema)
    throw new BackupProblem(
      `This backup was made by a newer release (schema version ${m.schemaVersion}); this release knows schema version ${knownSchema} at most`,
    );
  if (!m.files || typeof m.files !== 'object' || Array.isArray(m.files))
    throw new BackupProblem('The backup is damaged: its manifest lists no files');
  for (const [name, f] of Object.entries(m.files)) {
    const parts = name.split('/');
    if (!name || name.startsWith('/') || parts.some((x) => !x || x === '.' || x === '..' || x.includes('\\')))
      throw new BackupProblem(
        `The backup is damaged: its manifest names ${JSON.stringify(name)}, which is no file of a backup`,
      );
    if (!f || typeof f !== 'object' || !Number.isSafeInteger(f.size) || f.size < 0 || !SHA256.test(String(f.sha256)))
      throw new BackupProblem(`The backup is damaged: its manifest gives ${name} no size or checksum`);
  }
  // What a backup always holds: the database (an archive without it would empty the data folder).
  if (!m.files[DB_FILE])
    throw new BackupProblem(`The backup holds no database (${DB_FILE}): restoring it would leave the data without one`);
  if (typeof m.createdAt !== 'string') throw new BackupProblem('The backup is damaged: its manifest has no date');
  return { counts: {}, includesSecretKey: false, release: null, ...m } as BackupManifest;
}

/**
 * Unpacks a backup into `staging` while checking it, so a crafted archive is refused as soon as it
 * shows itself and never fills the disk: the manifest comes first and must be whole; it must fit the
 * free space; then each entry must be a plain file or folder the manifest names, of the size it
 * declares (known from its header, before a byte of it is written), written once, and its SHA-256
 * must match. Links, devices, unnamed or oversized entries stop the unpacking at once. Answers the
 * manifest; the folder then holds exactly the files it names.
 */
async function unpackChecked(file: string, staging: string, dataDir: string, knownSchema: number) {
  const { Parser } = await import('tar');
  const source = createReadStream(file);
  const parser = new Parser({ strict: true });
  return new Promise<BackupManifest>((resolve, reject) => {
    let manifest: BackupManifest | null = null;
    let manifestText: Promise<void> | null = null;
    let failed = false;
    const written: Promise<void>[] = [];
    const seen = new Set<string>();
    const fail = (e: unknown) => {
      if (failed) return;
      failed = true;
      // Stopped at once: the file is no longer read; the decompressor is shut (tar's abort) once the
      // call that found the fault has returned (shutting it from inside its own callback breaks zlib).
      source.unpipe(parser);
      source.pause();
      setImmediate(() => {
        source.destroy();
        parser.abort(e instanceof Error ? e : new Error(String(e)));
      });
      reject(
        e instanceof BackupProblem
          ? e
          : new BackupProblem(`This file is not a Broadsheet backup, or it is damaged: ${(e as Error).message}`),
      );
    };
    parser.on('entry', (entry: import('tar').ReadEntry) => {
      if (failed) return entry.resume();
      try {
        const name = entry.path.replace(/^\.\//, '').replace(/\/$/, '');
        if (entry.type === 'Directory') return entry.resume();
        if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile')
          throw new BackupProblem(
            `The backup holds a ${entry.type} (${name}): a backup holds only files and folders, so it was not made by Broadsheet`,
          );
        if (!manifest) {
          if (name !== 'manifest.json' || manifestText)
            throw new BackupProblem('This file is not a Broadsheet backup: it does not begin with its manifest');
          if ((entry.size ?? 0) > MANIFEST_MAX)
            throw new BackupProblem('The backup is damaged: its manifest is too large');
          const chunks: Buffer[] = [];
          entry.on('data', (c: Buffer) => chunks.push(c));
          manifestText = new Promise<void>((done) =>
            entry.on('end', () => {
              try {
                manifest = checkedManifest(Buffer.concat(chunks).toString('utf8'), knownSchema);
                const declared = Object.values(manifest.files).reduce((n, f) => n + f.size, 0);
                const free = statfsSync(dataDir);
                if (declared > Number(free.bavail) * Number(free.bsize))
                  throw new BackupProblem(
                    `The backup needs ${declared} bytes to be checked, more than the data folder's disk has free`,
                  );
              } catch (e) {
                fail(e);
              }
              done();
            }),
          );
          return;
        }
        const expected = manifest.files[name];
        if (!expected || name === 'manifest.json')
          throw new BackupProblem(
            `The backup holds files its manifest does not name (${name}): it was changed after it was made`,
          );
        if (seen.has(name)) throw new BackupProblem(`The backup holds ${name} twice: it was changed after it was made`);
        if (entry.size !== expected.size)
          throw new BackupProblem(
            `The backup is damaged: ${name} is ${entry.size} bytes where its manifest says ${expected.size}`,
          );
        seen.add(name);
        const target = join(staging, ...name.split('/'));
        mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
        const out = createWriteStream(target, { flags: 'wx', mode: 0o600 });
        const hash = createHash('sha256');
        const whole = new Promise<void>((done, failWrite) => {
          out.on('error', failWrite);
          out.on('finish', () =>
            hash.digest('hex') === expected.sha256
              ? done()
              : failWrite(
                  new BackupProblem(`The backup is damaged: ${name} differs from what was backed up (its checksum)`),
                ),
          );
        });
        // A file that differs stops the unpacking at once (and is not left unheard if the archive then fails).
        whole.catch(fail);
        written.push(whole);
        // One reader of the entry (a second listener would miss what the first was handed), the disk's pace kept.
        entry.on('data', (c: Buffer) => {
          hash.update(c);
          if (!out.write(c)) {
            entry.pause();
            out.once('drain', () => entry.resume());
          }
        });
        entry.on('end', () => out.end());
      } catch (e) {
        entry.resume();
        fail(e);
      }
    });
    parser.on('error', fail);
    parser.on('warn', (_code: string, message: string | Error) => fail(new Error(String(message))));
    source.on('error', fail);
    parser.on('end', () => {
      void Promise.all([manifestText, ...written]).then(() => {
        if (failed) return;
        if (!manifest)
          return fail(new BackupProblem('This file is not a Broadsheet backup (it has no Broadsheet manifest)'));
        const missing = Object.keys(manifest.files).find((n) => !seen.has(n));
        if (missing)
          return fail(
            new BackupProblem(`The backup is damaged: ${missing} is missing or differs from what was backed up`),
          );
        resolve(manifest);
      }, fail);
    });
    source.pipe(parser);
  });
}

/**
 * Unpacks a backup into `staging` with every check a restore makes: each file against the
 * manifest's checksums, each database through SQLite's integrity check, each app data file read
 * whole, every app its database names present. Throws a BackupProblem saying the first that fails.
 */
async function unpackAndVerify(file: string, staging: string, dataDir: string, knownSchema: number) {
  const manifest = await unpackChecked(file, staging, dataDir, knownSchema);
  for (const name of Object.keys(manifest.files).filter((n) => n.endsWith('.db'))) {
    const verdict = await integrityOf(join(staging, ...name.split('/'))).catch(
      (e: Error) => `it is not a SQLite database (${e.message})`,
    );
    if (verdict !== 'ok') throw new BackupProblem(`The backup's ${name} fails SQLite's integrity check: ${verdict}`);
  }
  // An app's columnar data file opens and reads to its last row, or the restore does not begin.
  for (const name of Object.keys(manifest.files).filter((n) => n.endsWith('.duckdb'))) {
    const problem = await unreadableDataFile(join(staging, ...name.split('/')));
    if (problem) throw new BackupProblem(`The backup's ${name} cannot be read: ${problem}`);
  }
  const db = await sqlite(join(staging, DB_FILE), sqlite3.OPEN_READONLY);
  const missing = await appsMissing(db, manifest.files).finally(() => closeDb(db));
  if (missing.length)
    throw new BackupProblem(
      `The backup is incomplete: its database names ${missing.length === 1 ? 'the app' : `${missing.length} apps, such as`} ${missing[0]}, whose data it does not hold`,
    );
  return manifest;
}

/**
 * The check before the question: the whole archive unpacked aside with the same checks as a
 * restore, then removed; nothing of the current data is touched. Answers its manifest.
 */
export async function checkBackup(dataDir: string, file: string, knownSchema: number): Promise<BackupManifest> {
  const aside = join(dataDir, `${RESTORE_STAGING}-check-${randomUUID()}`);
  await mkdir(aside, { mode: 0o700 });
  try {
    return await unpackAndVerify(file, aside, dataDir, knownSchema);
  } finally {
    await rm(aside, { recursive: true, force: true });
  }
}

/**
 * Unpacks a backup into the data folder's restore staging and checks it whole before anything is
 * replaced: the manifest's format and schema version, every file's size and SHA-256 (and nothing
 * beyond them), and `PRAGMA integrity_check` of every database. A good one is marked pending: the
 * next start puts it in place.
 */
export async function stageRestore(
  dataDir: string,
  file: string,
  knownSchema: number,
  restoreSecretKey: boolean,
): Promise<BackupManifest> {
  const staging = join(dataDir, RESTORE_STAGING);
  await rm(staging, { recursive: true, force: true });
  await rm(join(dataDir, RESTORE_PENDING), { force: true });
  await mkdir(staging, { mode: 0o700 });
  try {
    const manifest = await unpackAndVerify(file, staging, dataDir, knownSchema);
    if (!restoreSecretKey) await rm(join(staging, KEY_FILE), { force: true });
    // A state with no files or apps replaces one with them: the folders are there to take their place.
    for (const sub of ['files', 'apps', 'logs']) await mkdir(join(staging, sub), { recursive: true, mode: 0o700 });
    await writeFile(
      join(dataDir, RESTORE_PENDING),
      JSON.stringify({
        from: file,
        stagedAt: new Date().toISOString(),
        restoreSecretKey: restoreSecretKey && manifest.includesSecretKey,
      }),
      { mode: 0o600 },
    );
    return manifest;
  } catch (e) {
    await rm(staging, { recursive: true, force: true });
    throw e;
  }
}

/**
 * Calls off a restore checked and waiting for the next start: the marker first (so a start from
 * here on keeps the current data whatever happens next), then the staged copy. Answers whether
 * there was one.
 */
export async function cancelStagedRestore(dataDir: string): Promise<boolean> {
  const marker = join(dataDir, RESTORE_PENDING);
  const was = existsSync(marker);
  await rm(marker, { force: true });
  await rm(join(dataDir, RESTORE_STAGING), { recursive: true, force: true });
  return was;
}

/** What the data folder holds of its own state, moved aside as a whole by a restore (the journal first: it goes with the database). */
const STATE = [`${DB_FILE}-wal`, `${DB_FILE}-shm`, DB_FILE, 'files', 'apps', 'logs'];

/**
 * Puts a pending restore in place before the engine opens anything: the current state moves to
 * `before-restore/`, the staged one takes its place. Every step is a rename inside the data folder
 * and each is skipped once done, so a restore a crash interrupted finishes at the next start.
 * Answers the staged secrets key when it is to be restored.
 */
export async function applyPendingRestore(dataDir: string): Promise<{ applied: boolean; secretKey: Buffer | null }> {
  const pending = join(dataDir, RESTORE_PENDING);
  const staging = join(dataDir, RESTORE_STAGING);
  if (!existsSync(pending)) return { applied: false, secretKey: null };
  const marker = JSON.parse(await readFile(pending, 'utf8')) as { restoreSecretKey?: boolean };
  const previous = join(dataDir, 'before-restore');
  await mkdir(previous, { recursive: true, mode: 0o700 });
  for (const name of STATE) {
    // Still staged means not yet placed; the database's journal follows the database.
    if (!existsSync(join(staging, name.startsWith(DB_FILE) ? DB_FILE : name))) continue;
    const current = join(dataDir, name);
    if (existsSync(current)) {
      if (existsSync(join(previous, name))) await rm(current, { recursive: true, force: true });
      else await rename(current, join(previous, name));
    }
    if (existsSync(join(staging, name))) await rename(join(staging, name), current);
  }
  const keyFile = join(staging, KEY_FILE);
  const secretKey =
    marker.restoreSecretKey && existsSync(keyFile)
      ? Buffer.from((await readFile(keyFile, 'utf8')).trim(), 'base64')
      : null;
  await writeFile(join(dataDir, RESTORE_APPLIED), JSON.stringify({ previous: 'before-restore' }), { mode: 0o600 });
  await rm(pending, { force: true });
  return { applied: true, secretKey };
}

/** The restored state has started: what it replaced may go. */
export async function confirmRestore(dataDir: string): Promise<void> {
  if (!existsSync(join(dataDir, RESTORE_APPLIED))) return;
  await rm(join(dataDir, 'before-restore'), { recursive: true, force: true });
  await rm(join(dataDir, RESTORE_STAGING), { recursive: true, force: true });
  await rm(join(dataDir, RESTORE_APPLIED), { force: true });
}

/** The restored state did not start: the state before it comes back, whole. */
export async function rollBackRestore(dataDir: string): Promise<boolean> {
  const previous = join(dataDir, 'before-restore');
  if (!existsSync(join(dataDir, RESTORE_APPLIED)) || !existsSync(previous)) return false;
  for (const name of STATE) {
    if (!existsSync(join(previous, name))) continue;
    await rm(join(dataDir, name), { recursive: true, force: true });
    await rename(join(previous, name), join(dataDir, name));
  }
  await rm(join(dataDir, RESTORE_APPLIED), { force: true });
  return true;
}

/** What a crash during a backup left in the data folder (staging links) is removed at start. */
export async function removeBackupLeftovers(dataDir: string): Promise<void> {
  for (const name of await readdir(dataDir))
    if (name.startsWith('backup-staging-')) await rm(join(dataDir, name), { recursive: true, force: true });
}
