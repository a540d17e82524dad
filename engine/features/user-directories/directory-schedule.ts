import { nextPatternTime } from '../tasks/fire-times.js';
import { Not } from 'typeorm';
import type { EngineServices } from '../../ops/context.js';
import { UserDirectory, type UserDirectoryRow } from './user-directories.entity.js';
import { syncDirectory } from './directory-sync.js';
import { Periodic } from '../../core/periodic.js';

// When directories synchronize on their own: hourly at the minute of `frequencyTime`, daily at its
// time, weekly on the weekday `frequency` names, monthly on the day of the month it names; in the
// directory's time zone (the machine's when none is set). A sync missed while the machine was off
// runs once at start, not once per missed slot.

const CHECK_EVERY_MS = 60_000;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

type Timing = Pick<UserDirectoryRow, 'synchronization' | 'frequency' | 'frequencyTime' | 'timeZone'>;

/** The cron pattern of a directory's synchronization, or null when it is manual (or unreadable). */
export function syncPattern(d: Timing): string | null {
  const [h, m] = /^(\d{1,2}):(\d{2})$/
    .exec(d.frequencyTime?.trim() ?? '')
    ?.slice(1)
    .map(Number) ?? [2, 0];
  if (h > 23 || m > 59) return null;
  const f = d.frequency?.trim().toLowerCase() ?? '';
  switch (d.synchronization) {
    case 'Hourly':
      return `${m} * * * *`;
    case 'Daily':
      return `${m} ${h} * * *`;
    case 'Weekly': {
      const day = WEEKDAYS.findIndex((w) => w.startsWith(f.slice(0, 3)) && f.length >= 3);
      return `${m} ${h} * * ${day >= 0 ? day : /^[0-6]$/.test(f) ? f : 1}`;
    }
    case 'Monthly':
      return `${m} ${h} ${/^\d{1,2}$/.test(f) && Number(f) >= 1 && Number(f) <= 28 ? Number(f) : 1} * *`;
    default:
      return null;
  }
}

/** The first synchronization time after `from`, or null. */
export function nextSyncAfter(d: Timing, from: Date): Date | null {
  const pattern = syncPattern(d);
  if (!pattern) return null;
  try {
    return nextPatternTime(pattern, from, d.timeZone?.trim() || undefined);
  } catch {
    return null; // an unknown time zone: the directory waits for a manual sync
  }
}

/** Synchronizes the directories whose time has come, one after the other. */
export class DirectorySchedule {
  private readonly periodic: Periodic;

  constructor(
    private readonly services: EngineServices,
    options: { timers?: boolean } = {},
  ) {
    this.periodic = new Periodic(
      CHECK_EVERY_MS,
      () => this.tick(),
      (e) => services.log.error('Directory synchronization could not start', { error: e.message }),
      options.timers !== false,
    );
  }

  start() {
    this.periodic.start();
  }

  /** Runs what is due now; answers how many synchronizations ran. */
  async tick(): Promise<number> {
    const now = this.services.now();
    const directories = await this.services.db
      .getRepository(UserDirectory)
      .findBy({ isActive: true, synchronization: Not('Manual') });
    let ran = 0;
    for (const d of directories) {
      const next = nextSyncAfter(d, d.lastStartedSync ?? d.createdDate);
      if (!next || next > now) continue;
      if (await syncDirectory(this.services, d.id, 'schedule')) ran++;
    }
    return ran;
  }

  stop() {
    this.periodic.stop();
  }
}
