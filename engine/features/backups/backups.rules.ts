import { lazySchema } from '../../core/lazy-schema.js';
import { existsSync } from 'node:fs';
import { readdir, readFile, realpath, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, parse, relative, resolve } from 'node:path';
import { z } from 'zod';
import { machineTimeZone, nextFireTimes, type ScheduleSpec } from '../schedules/fire-times.js';
import type { EngineServices, OpContext } from '../../ops/context.js';
import { conflict, EngineError, fieldError } from '../../core/errors.js';
import { v } from '../../core/validation.js';
import { Setting } from '../../model/settings.entity.js';
import { WEEKDAYS } from '../../core/enumerations.js';
import { dayNumber } from '../schedules/fire-times.js';
import {
  BACKUP_EXTENSION,
  BackupProblem,
  RESTORE_PENDING_FILE,
  cancelStagedRestore,
  stageRestore,
  checkBackup,
  writeBackup,
} from './backup-archive.js';
import { onPostgres } from '../../core/sql.js';

// Backups on demand and on a schedule with retention, and restores checked before anything is
// replaced. A tenant administrator's business: a backup holds everyone's data.

const SETTING_KEY = 'backups';
/** Backups this product names itself in a folder: retention removes only these, oldest first. */
const OWN_NAME = /^broadsheet-\d{4}-\d{2}-\d{2}-\d{6}\.bsbackup$/;

const path = (max = 1024) =>
  z
    .string()
    .trim()
    .min(1, { message: 'must not be empty' })
    .max(max, { message: `must be at most ${max} characters` })
    .refine((s) => !s.includes('\0'), { message: 'must not contain NUL characters' })
    .refine((s) => isAbsolute(s), { message: 'must be a full path (such as /home/me/backups)' });

export const BackupSettingsInput = lazySchema(() =>
  z.object({
    folder: path().nullable(),
    frequency: v.oneOf(['Off', 'Daily', 'Weekly']),
    atHour: z.number().int().min(0, { message: 'must be 0 to 23' }).max(23, { message: 'must be 0 to 23' }),
    weekday: v.oneOf(WEEKDAYS).optional(),
    keep: z
      .number()
      .int()
      .min(1, { message: 'must keep at least 1 backup' })
      .max(365, { message: 'must be at most 365' }),
    includeSecretKey: v.bool(),
  }),
);
export type BackupSettings = z.output<typeof BackupSettingsInput> & {
  lastBackupAt: string | null;
  scheduledFrom: string | null;
  lastResult: { at: string; file: string | null; size: number | null; error: string | null } | null;
  /** The backup being written (when and where), so a start after a stop or a crash can say it was cut off. */
  writing?: { at: string; file: string } | null;
};

/** One backup at a time in this process. */
let running = false;

const DEFAULTS: BackupSettings = {
  folder: null,
  frequency: 'Off',
  atHour: 2,
  weekday: 'Sunday',
  keep: 7,
  includeSecretKey: false,
  lastBackupAt: null,
  scheduledFrom: null,
  lastResult: null,
};

export const CreateBackupInput = lazySchema(() =>
  z.object({ file: path().nullable().optional(), includeSecretKey: v.obool() }),
);
export const RestoreInput = lazySchema(() =>
  z.object({
    file: path(),
    restoreSecretKey: v.obool(),
    /** Only read what the backup says of itself (its date, counts, key), to ask before restoring it. */
    checkOnly: v.obool(),
  }),
);

export async function backupSettings(s: Pick<EngineServices, 'db'>): Promise<BackupSettings> {
  const row = await s.db.getRepository(Setting).findOneBy({ key: SETTING_KEY });
  return { ...DEFAULTS, ...((row?.value as Partial<BackupSettings>) ?? {}) };
}

async function saveSettings(s: Pick<EngineServices, 'db' | 'now' | 'write'>, value: BackupSettings) {
  await s.write(() => s.db.getRepository(Setting).save({ key: SETTING_KEY, value, modifiedDate: s.now() }));
}

/** A folder for backups: an existing folder outside the data folder (a backup beside what it protects is lost with it). */
async function checkFolder(s: Pick<EngineServices, 'dataDir'>, folder: string, field: string) {
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) throw fieldError(field, 'must be an existing folder');
  // Where the folder really is: a link into the data folder is the data folder.
  const real = await realpath(folder);
  if (real === parse(real).root)
    throw fieldError(field, 'must not be the root of the file system: choose a folder kept for backups');
  const inside = relative(await realpath(s.dataDir), real);
  if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside)))
    throw fieldError(field, "must be outside Broadsheet's data folder: a backup kept beside its data is lost with it");
}

/** The next scheduled backup after `from`, or null when backups are off. */
export function nextBackupAfter(settings: BackupSettings, from: Date): Date | null {
  if (settings.frequency === 'Off' || !settings.folder) return null;
  // A schedule of the one fire-time rule, in the machine's zone: daily, or weekly on its day.
  const spec: ScheduleSpec = {
    timeZone: machineTimeZone(),
    startDate: new Date(0),
    atHour: settings.atHour,
    atMinute: 0,
    frequency: 'Daily',
  };
  if (settings.frequency === 'Weekly')
    Object.assign(spec, { frequency: 'Weekly', weeklyDays: [dayNumber(settings.weekday ?? 'Sunday')] });
  return nextFireTimes(spec, from, 1)[0] ?? null;
}

/**
 * A backup is the data folder with its SQLite database; servers sharing PostgreSQL keep their data
 * in the database, which its own tools back up whole and consistently (docs/SERVERS.md).
 */
function refuseOnSharedDatabase(s: Pick<EngineServices, 'db'>) {
  if (onPostgres(s.db))
    throw conflict(
      'Backups here copy a SQLite data folder; this server keeps its data in PostgreSQL: back the database up with pg_dump and copy the shared folder',
    );
}

export async function configureBackups(ctx: OpContext, f: z.output<typeof BackupSettingsInput>) {
  refuseOnSharedDatabase(ctx);
  if (f.folder) await checkFolder(ctx, f.folder, 'body.folder');
  if (f.frequency !== 'Off' && !f.folder) throw fieldError('body.folder', 'must be set for backups on a schedule');
  const current = await backupSettings(ctx);
  // A schedule counts from when it was set: a change never makes a backup due at once.
  const scheduledFrom =
    f.frequency !== current.frequency || f.atHour !== current.atHour || f.weekday !== current.weekday
      ? ctx.now().toISOString()
      : current.scheduledFrom;
  await ctx.db
    .getRepository(Setting)
    .save({ key: SETTING_KEY, value: { ...current, ...f, scheduledFrom }, modifiedDate: ctx.now() });
  return backupOverview(ctx);
}

const stamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/^(\d{4})(\d{2})(\d{2})T(\d{6}).*$/, '$1-$2-$3-$4');

/** The backups in the configured folder, newest first, and what the schedule will do. */
export async function backupOverview(ctx: Pick<EngineServices, 'db' | 'now' | 'dataDir'>) {
  const settings = await backupSettings(ctx);
  const backups: { name: string; file: string; size: number; modifiedDate: string }[] = [];
  if (settings.folder && existsSync(settings.folder)) {
    for (const name of (await readdir(settings.folder)).filter((n) => n.endsWith(BACKUP_EXTENSION))) {
      const info = await stat(join(settings.folder, name)).catch(() => null);
      if (info?.isFile())
        backups.push({
          name,
          file: join(settings.folder, name),
          size: info.size,
          modifiedDate: info.mtime.toISOString(),
        });
    }
  }
  backups.sort((a, b) => b.modifiedDate.localeCompare(a.modifiedDate) || b.name.localeCompare(a.name));
  const next = nextBackupAfter(
    settings,
    new Date(settings.lastBackupAt ?? settings.scheduledFrom ?? ctx.now().toISOString()),
  );
  // A restore checked and waiting for the next start: said after a reload of the page too.
  const staged = await readFile(join(ctx.dataDir, RESTORE_PENDING_FILE), 'utf8').then(
    (t) => JSON.parse(t) as { from?: unknown; stagedAt?: unknown },
    () => null,
  );
  const restoreStaged =
    staged && typeof staged.from === 'string' && typeof staged.stagedAt === 'string'
      ? { from: staged.from, stagedAt: staged.stagedAt }
      : null;
  return { ...settings, nextBackupAt: next?.toISOString() ?? null, backups, running, restoreStaged };
}

export interface BackupHost extends Pick<EngineServices, 'db' | 'now' | 'write' | 'dataDir' | 'log' | 'emit'> {
  installation: EngineServices['installation'];
}

/**
 * Writes a backup: to the file named, or under a name of its own in the configured folder. One at
 * a time (a second is told so). Answers what was written.
 */
export async function createBackup(
  s: BackupHost,
  f: { file?: string | null; includeSecretKey?: boolean },
  field = 'body.file',
) {
  refuseOnSharedDatabase(s);
  const settings = await backupSettings(s);
  const now = s.now();
  let file: string;
  if (f.file) {
    await checkFolder(s, resolve(f.file, '..'), field);
    // The name as it will be written (the extension added): an existing backup is never replaced.
    file = f.file.endsWith(BACKUP_EXTENSION) ? f.file : f.file + BACKUP_EXTENSION;
    if (existsSync(file)) throw fieldError(field, 'names a file that exists already: choose a new name');
  } else {
    if (!settings.folder) throw fieldError(field, 'must be given when no backup folder is set');
    await checkFolder(s, settings.folder, 'folder');
    file = join(settings.folder, `broadsheet-${stamp(now)}${BACKUP_EXTENSION}`);
  }
  if (running) throw conflict('A backup is being written already; wait for it to finish');
  running = true;
  // What a crash left half-written here is no backup: it goes before the next one is written.
  for (const name of await readdir(resolve(file, '..')).catch(() => [] as string[]))
    if (name.endsWith(`${BACKUP_EXTENSION}.partial`)) await rm(join(resolve(file, '..'), name), { force: true });
  const started = Date.now();
  await saveSettings(s, { ...(await backupSettings(s)), writing: { at: now.toISOString(), file } });
  try {
    const secretKey = (f.includeSecretKey ?? settings.includeSecretKey) ? await s.installation.secretKey() : null;
    const { manifest, size } = await writeBackup({
      dataDir: s.dataDir,
      file,
      schemaVersion: s.installation.schemaVersion,
      release: s.installation.release,
      secretKey,
      now,
      stallMs: s.installation.backupStallMs,
      // The settings page shows the step under way, started there, by the schedule or before a reload.
      onStep: (step, number, of) => s.emit({ type: 'backup.progress', payload: { step, number, of } }),
    });
    await saveSettings(s, {
      ...(await backupSettings(s)),
      lastBackupAt: now.toISOString(),
      lastResult: { at: now.toISOString(), file, size, error: null },
      writing: null,
    });
    return {
      file,
      size,
      createdAt: manifest.createdAt,
      includesSecretKey: manifest.includesSecretKey,
      counts: manifest.counts,
      files: Object.keys(manifest.files).length,
      seconds: (Date.now() - started) / 1000,
    };
  } catch (e) {
    s.log.error('A backup failed', { file, error: (e as Error).message });
    await saveSettings(s, { ...(await backupSettings(s)), writing: null }).catch(() => undefined);
    throw e instanceof EngineError
      ? e
      : new EngineError(409, `The backup could not be written: ${(e as Error).message}`, [
          { field, message: 'could not be written' },
        ]);
  } finally {
    running = false;
  }
}

/** Keeps the newest `keep` of the backups this product named in the folder; answers how many went. */
/**
 * At start: a backup that was being written when the server stopped (a stop, a crash, power) is
 * recorded as interrupted, and its unfinished file removed; the screen says so instead of nothing.
 */
export async function recordInterruptedBackup(s: BackupHost): Promise<boolean> {
  const settings = await backupSettings(s);
  if (!settings.writing) return false;
  const { at, file } = settings.writing;
  await rm(`${file}.partial`, { force: true }).catch(() => undefined);
  await saveSettings(s, {
    ...settings,
    writing: null,
    lastResult: {
      at,
      file: null,
      size: null,
      error: 'Interrupted: the server stopped while this backup was being written; nothing was kept. Take it again',
    },
  });
  return true;
}

/** A scheduled backup that failed is recorded, so the screen can say so (an on-demand one answers its caller). */
export async function recordFailedBackup(s: BackupHost, error: string) {
  const now = s.now().toISOString();
  await saveSettings(s, {
    ...(await backupSettings(s)),
    lastBackupAt: now,
    lastResult: { at: now, file: null, size: null, error },
  });
}

export async function applyRetention(folder: string, keep: number): Promise<number> {
  const own = (await readdir(folder))
    .filter((n) => OWN_NAME.test(n))
    .sort()
    .reverse();
  for (const name of own.slice(keep)) await rm(join(folder, name), { force: true });
  return Math.max(0, own.length - keep);
}

/** Checks a backup whole and stages it: the next start puts it in place, keeping what it replaces until then. */
/** The restore waiting for the next start is called off: the next start keeps today's data. */
export async function cancelRestore(ctx: OpContext) {
  refuseOnSharedDatabase(ctx);
  if (!(await cancelStagedRestore(ctx.dataDir))) throw conflict('No restore is waiting for the next start');
  return { cancelled: true };
}

/** A backup that is not one, or is damaged, is said about the file the person named. */
async function asFileProblem<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (e instanceof BackupProblem) throw fieldError('body.file', e.message);
    throw e;
  }
}

export async function restoreBackup(ctx: OpContext, f: z.output<typeof RestoreInput>) {
  refuseOnSharedDatabase(ctx);
  const info = await stat(f.file).catch(() => null);
  if (!info?.isFile()) throw fieldError('body.file', 'must be an existing backup file');
  if (f.checkOnly) {
    // Checked whole, as a restore would: a truncated archive, lying checksums or a broken database are said now.
    const manifest = await asFileProblem(checkBackup(ctx.dataDir, f.file, ctx.installation.schemaVersion));
    return {
      staged: false,
      restartRequired: false,
      createdAt: manifest.createdAt,
      counts: manifest.counts,
      includesSecretKey: manifest.includesSecretKey,
      secretKeyRestored: false,
      message:
        'The backup is checked whole: every file against its checksum, every database by SQLite. Nothing was replaced.',
    };
  }
  if (running) throw conflict('A backup is being written; restore when it has finished');
  const manifest = await asFileProblem(
    stageRestore(ctx.dataDir, f.file, ctx.installation.schemaVersion, !!f.restoreSecretKey),
  );
  return {
    staged: true,
    restartRequired: true,
    createdAt: manifest.createdAt,
    counts: manifest.counts,
    includesSecretKey: manifest.includesSecretKey,
    secretKeyRestored: !!f.restoreSecretKey && manifest.includesSecretKey,
    message:
      'The backup is checked and ready. Restart Broadsheet to finish: the current data is kept aside until the restored data has started.',
  };
}
