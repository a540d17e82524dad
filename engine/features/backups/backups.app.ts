import { defineOp } from '../../ops/op.js';
import {
  backupOverview,
  BackupSettingsInput,
  configureBackups,
  createBackup,
  CreateBackupInput,
  restoreBackup,
  cancelRestore,
  RestoreInput,
} from './backups.rules.js';
import {
  BackupResult,
  BackupsCancelRestoreResult,
  BackupsCreateResult,
  BackupsRestoreResult,
} from './backups.results.js';

// Backups and restores: tenant administrators only (a backup holds every organization's data and,
// when asked, the key that opens the stored passwords).

export const backupsApp = [
  defineOp({
    id: 'app.backups.overview',
    summary: 'Backup settings, the backups in the folder, the last result and the next scheduled backup',
    http: { method: 'GET', path: '/api/app/backups' },
    permission: 'tenantAdmin',
    result: BackupResult,
    handler: (ctx) => backupOverview(ctx),
  }),
  defineOp({
    id: 'app.backups.configure',
    summary: 'Set the backup folder, schedule and retention',
    http: { method: 'PUT', path: '/api/app/backups/settings' },
    permission: 'tenantAdmin',
    input: { body: BackupSettingsInput },
    result: BackupResult,
    handler: (ctx, { body }) => configureBackups(ctx, body),
  }),
  defineOp({
    id: 'app.backups.create',
    summary: 'Back up now (database, files, apps; the secrets key only when asked)',
    http: { method: 'POST', path: '/api/app/backups' },
    permission: 'tenantAdmin',
    // A backup reads a snapshot of its own while writes go on: it holds no write queue.
    writes: 'chunked',
    input: { body: CreateBackupInput },
    result: BackupsCreateResult,
    handler: (ctx, { body }) => createBackup(ctx, body ?? {}),
  }),
  defineOp({
    id: 'app.backups.restore',
    summary: 'Check a backup and stage it: the next start puts it in place, keeping the current data until then',
    http: { method: 'POST', path: '/api/app/backups/restore' },
    permission: 'tenantAdmin',
    writes: 'chunked',
    input: { body: RestoreInput },
    result: BackupsRestoreResult,
    handler: (ctx, { body }) => restoreBackup(ctx, body),
  }),
  defineOp({
    id: 'app.backups.cancelRestore',
    summary: 'Call off the restore waiting for the next start: the current data stays',
    http: { method: 'DELETE', path: '/api/app/backups/restore' },
    permission: 'tenantAdmin',
    writes: 'chunked',
    result: BackupsCancelRestoreResult,
    handler: (ctx) => cancelRestore(ctx),
  }),
] as const;
