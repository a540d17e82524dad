import { z } from 'zod';
import { WEEKDAYS } from '../../core/enumerations.js';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const BackupResult = lazySchema(() =>
  z.object({
    nextBackupAt: z.string().nullable(),
    backups: z.array(z.object({ name: z.string(), file: z.string(), size: z.number(), modifiedDate: z.string() })),
    running: z.boolean(),
    restoreStaged: z.object({ from: z.string(), stagedAt: z.string() }).nullable(),
    folder: z.string().nullable(),
    frequency: z.enum(['Daily', 'Weekly', 'Off']),
    atHour: z.number(),
    keep: z.number(),
    includeSecretKey: z.boolean(),
    weekday: z.enum(WEEKDAYS).optional(),
    lastBackupAt: z.string().nullable(),
    scheduledFrom: z.string().nullable(),
    lastResult: z
      .object({
        at: z.string(),
        file: z.string().nullable(),
        size: z.number().nullable(),
        error: z.string().nullable(),
      })
      .nullable(),
    /** The backup being written now (when it started, where it goes); a start clears one a stop cut off. */
    writing: z.object({ at: z.string(), file: z.string() }).nullable().optional(),
  }),
);

export const BackupsCreateResult = lazySchema(() =>
  z.object({
    file: z.string(),
    size: z.number(),
    createdAt: z.string(),
    includesSecretKey: z.boolean(),
    counts: z.record(z.string(), z.number()),
    files: z.number(),
    seconds: z.number(),
  }),
);

export const BackupsRestoreResult = lazySchema(() =>
  z.object({
    staged: z.boolean(),
    restartRequired: z.boolean(),
    createdAt: z.string(),
    counts: z.record(z.string(), z.number()),
    includesSecretKey: z.boolean(),
    secretKeyRestored: z.boolean(),
    message: z.string(),
  }),
);

export const BackupsCancelRestoreResult = lazySchema(() => z.object({ cancelled: z.boolean() }));
