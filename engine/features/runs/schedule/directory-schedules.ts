import { Not } from 'typeorm';
import { UserDirectory, type UserDirectoryRow } from '../../../model/user-directories.entity.js';
import { DirectorySync } from '../../../model/directory-syncs.entity.js';
import { newSync } from '../../user-directories/directory-sync.js';
import { syncSchedule } from '../../user-directories/directory-schedule.js';
import type { ScheduleSource } from './schedule-source.js';

/**
 * Directories as a source of the one scheduler: an active directory with a schedule fires a queued
 * sync per slot, keyed by (directory, slot); the sync queue takes it. Before its first slot is
 * stored, the next one counts from its latest sync, so one missed while the machine was off runs
 * once at start.
 */
export function directorySchedules(queued: () => void): ScheduleSource<UserDirectoryRow> {
  return {
    name: 'Directory syncs',
    entity: UserDirectory,
    active: { isActive: true, synchronization: Not('Manual') },
    timing: ['synchronization', 'frequency', 'frequencyTime', 'timeZone', 'lastStartedSync', 'createdDate'],
    spec: syncSchedule,
    since: (d) => d.lastStartedSync ?? d.createdDate,
    async plan(due, at) {
      const work = due.flatMap(({ row, slot }) =>
        slot ? [{ entity: DirectorySync, values: newSync(row.id, 'schedule', slot.scheduledFor, at) }] : [],
      );
      return { work, changes: new Map() };
    },
    queued,
  };
}
