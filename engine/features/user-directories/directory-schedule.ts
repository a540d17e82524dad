import { machineTimeZone, nextFireTimes, parseWeeklyDays, type ScheduleSpec } from '../schedules/fire-times.js';
import type { UserDirectoryRow } from '../../model/user-directories.entity.js';

// When directories synchronize on their own: hourly at the minute of `frequencyTime`, daily at its
// time, weekly on the weekday `frequency` names, monthly on the day of the month it names; in the
// directory's time zone (the machine's when none is set). A sync missed while the machine was off
// runs once at start, not once per missed slot. The scheduler (requests/scheduler.ts) fires them.

type Timing = Pick<UserDirectoryRow, 'synchronization' | 'frequency' | 'frequencyTime' | 'timeZone'>;

/**
 * A directory's synchronization as a schedule of the one fire-time rule (the tasks' own, DST
 * included: a time skipped by spring-forward runs once after the gap, a repeated hour once), or
 * null when it is manual or unreadable.
 */
export function syncSchedule(d: Timing): ScheduleSpec | null {
  const [h, m] = /^(\d{1,2}):(\d{2})$/
    .exec(d.frequencyTime?.trim() ?? '')
    ?.slice(1)
    .map(Number) ?? [2, 0];
  if (h > 23 || m > 59) return null;
  const f = d.frequency?.trim().toLowerCase() ?? '';
  const base = { timeZone: d.timeZone?.trim() || machineTimeZone(), startDate: new Date(0), atHour: h, atMinute: m };
  switch (d.synchronization) {
    case 'Hourly':
      return { ...base, frequency: 'Hourly', everyHours: 1, fromHour: 0, fromMinute: m, toHour: 23 };
    case 'Daily':
      return { ...base, frequency: 'Daily' };
    case 'Weekly':
      return { ...base, frequency: 'Weekly', weeklyDays: [weekdayOf(f)] };
    case 'Monthly':
      return {
        ...base,
        frequency: 'Monthly',
        day: /^\d{1,2}$/.test(f) && Number(f) >= 1 && Number(f) <= 28 ? Number(f) : 1,
      };
    default:
      return null;
  }
}

/** The first synchronization time after `from`, or null. */
export function nextSyncAfter(d: Timing, from: Date): Date | null {
  const spec = syncSchedule(d);
  if (!spec) return null;
  try {
    return nextFireTimes(spec, from, 1)[0] ?? null;
  } catch {
    return null; // an unknown time zone: the directory waits for a manual sync
  }
}

/** The weekday a directory's `frequency` names (a name, its first three letters, or 0–6), Monday when none. */
function weekdayOf(text: string): number {
  try {
    return parseWeeklyDays(text)[0] ?? 1;
  } catch {
    return 1;
  }
}
