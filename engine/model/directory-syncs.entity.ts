import { EntitySchema } from 'typeorm';
import { baseColumns, int, ref, text, when, type BaseRow } from '../core/entity-base.js';
import { claimColumns, type ClaimColumns } from '../core/jobs/claims.js';

/** One synchronization of a user directory: how it was started, how it ended, what it changed. */
export interface DirectorySyncRow extends BaseRow, ClaimColumns {
  directoryId: string;
  trigger: 'manual' | 'schedule';
  /** The slot a scheduled sync is for: with the directory, the key that makes a slot sync once. */
  scheduledFor: Date | null;
  status: 'queued' | 'running' | 'completed' | 'failed';
  endedAt: Date | null;
  created: number;
  updated: number;
  deactivated: number;
  groups: number;
  /** The directory setting at fault when it failed (password, hostName, ...). */
  field: string | null;
  message: string | null;
  /** One line per step and per person skipped, for the sync's log on screen. */
  log: string;
}

export const DirectorySync = new EntitySchema<DirectorySyncRow>({
  name: 'DirectorySync',
  tableName: 'directory_syncs',
  columns: {
    ...baseColumns,
    directoryId: ref(false),
    trigger: { type: 'varchar', length: 16 },
    status: { type: 'varchar', length: 16 },
    endedAt: when(),
    created: { ...int(false), default: 0 },
    updated: { ...int(false), default: 0 },
    deactivated: { ...int(false), default: 0 },
    groups: { ...int(false), default: 0 },
    field: text(),
    message: text(),
    log: { ...text(false), default: '' },
    scheduledFor: when(),
    ...claimColumns,
    attempts: { ...int(false), default: 0 },
  },
  indices: [
    { name: 'IDX_directory_syncs_directory', columns: ['directoryId', 'createdDate'] },
    { name: 'UQ_directory_syncs_slot', columns: ['directoryId', 'scheduledFor'], unique: true },
    { name: 'IDX_directory_syncs_lease', columns: ['status', 'leaseUntil'] },
  ],
  foreignKeys: [
    { target: 'UserDirectory', columnNames: ['directoryId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
  ],
});
