import { defineOp } from '../../ops/op.js';
import { idParam } from '../../core/validation.js';
import { badInput, conflict } from '../../core/errors.js';
import { DirectoryProblem, directorySettings, testDirectory } from './directory-reader.js';
import { iso } from '../../core/entity-base.js';
import { findOr404 } from '../../core/rows.js';
import type { OpContext } from '../../ops/context.js';
import { UserDirectory } from '../../model/user-directories.entity.js';
import { DirectorySync, type DirectorySyncRow } from '../../model/directory-syncs.entity.js';
import { nextSyncAfter } from './directory-schedule.js';
import {
  UserDirectoriesSyncResult,
  UserDirectoriesSyncsResult,
  UserDirectoriesTestResult,
} from './user-directories.results.js';

const RECENT_SYNCS = 20;

const syncDto = (r: DirectorySyncRow) => ({
  id: r.id,
  directoryId: r.directoryId,
  trigger: r.trigger,
  status: r.status,
  startedAt: iso(r.createdDate),
  endedAt: iso(r.endedAt),
  created: r.created,
  updated: r.updated,
  deactivated: r.deactivated,
  groups: r.groups,
  field: r.field,
  message: r.message,
  log: r.log,
});

/** Synchronizes a directory now; a failure is an answer too (its record names the setting to fix). */
async function syncNow(ctx: OpContext, id: string) {
  const dir = await findOr404(ctx, UserDirectory, id, 'User directory');
  if (!dir.isActive)
    throw conflict(`The directory "${dir.name}" is inactive; activate it to synchronize it`, [
      { field: 'params.id', message: 'is inactive' },
    ]);
  const run = await ctx.directorySyncs.syncNow(dir.id);
  if (!run)
    throw conflict(`"${dir.name}" is being synchronized now; its record appears when that ends`, [
      { field: 'params.id', message: 'is being synchronized' },
    ]);
  return syncDto(run);
}

/** The latest synchronizations of a directory, newest first, with when the next one is due. */
async function recentSyncs(ctx: OpContext, id: string) {
  const dir = await findOr404(ctx, UserDirectory, id, 'User directory');
  const syncs = await ctx.db
    .getRepository(DirectorySync)
    .find({ where: { directoryId: dir.id }, order: { createdDate: 'DESC' }, take: RECENT_SYNCS });
  const next =
    dir.isActive && dir.synchronization !== 'Manual' ? (dir.nextFireTime ?? nextSyncAfter(dir, ctx.now())) : null;
  return {
    directoryId: dir.id,
    syncStatus: dir.syncStatus,
    running: await ctx.directorySyncs.isSyncing(dir.id),
    lastStartedSync: iso(dir.lastStartedSync),
    nextSync: iso(next),
    syncs: syncs.map(syncDto),
  };
}

/** Signs in to the directory and finds someone, without synchronizing: a problem names the setting to fix. */
async function testConnection(ctx: OpContext, id: string) {
  const dir = await findOr404(ctx, UserDirectory, id, 'User directory');
  try {
    return { ok: true, message: await testDirectory(directorySettings(dir, (x) => ctx.secrets.open(x))) };
  } catch (e) {
    if (!(e instanceof DirectoryProblem)) throw e;
    throw badInput(e.message, [{ field: e.field, message: e.message }]);
  }
}

export const userDirectoriesApp = [
  defineOp({
    id: 'app.userDirectories.test',
    summary: 'Test a user directory: sign in with its account and find someone with its people filter',
    http: { method: 'POST', path: '/api/app/user-directories/{id}/test' },
    permission: 'editUserDirectory',
    objects: { 'params.id': 'userDirectory' },
    readOnly: true,
    input: { params: idParam },
    result: UserDirectoriesTestResult,
    handler: (ctx, { params }) => testConnection(ctx, params.id),
  }),
  defineOp({
    id: 'app.userDirectories.sync',
    summary: 'Synchronize a user directory now',
    http: { method: 'POST', path: '/api/app/user-directories/{id}/sync' },
    // The directory is read before anything is written; the sync queues its own writes.
    permission: 'editUserDirectory',
    objects: { 'params.id': 'userDirectory' },
    tenantWide: 'A user directory',
    writes: 'chunked',
    input: { params: idParam },
    result: UserDirectoriesSyncResult,
    handler: (ctx, { params }) => syncNow(ctx, params.id),
  }),
  defineOp({
    id: 'app.userDirectories.syncs',
    summary: "A user directory's synchronization status and recent runs with their logs",
    http: { method: 'GET', path: '/api/app/user-directories/{id}/syncs' },
    permission: 'viewUserDirectory',
    objects: { 'params.id': 'userDirectory' },
    input: { params: idParam },
    result: UserDirectoriesSyncsResult,
    handler: (ctx, { params }) => recentSyncs(ctx, params.id),
  }),
] as const;
