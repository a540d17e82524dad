import { badInput } from '../../core/errors.js';
import type { StoredSchedule, TaskTriggerRow } from '../../model/tasks.entity.js';
import { nextFireTimes, parseWeeklyDays, type Frequency, type ScheduleSpec } from './fire-times.js';

// A schedule as stored (its forms' fields, a time zone, a start and an end) and as the fire-time
// functions read it; shared by every owner of a schedule.

/** The stored schedule as the fire-time functions take it. */
export function scheduleOf(
  t: Pick<TaskTriggerRow, 'schedule' | 'timeZone' | 'startDate' | 'endDate'>,
): ScheduleSpec | null {
  const s = t.schedule;
  if (!s || !t.timeZone || !t.startDate) return null;
  return {
    frequency: (s.frequency || 'Once') as Frequency,
    timeZone: t.timeZone,
    startDate: t.startDate,
    endDate: t.endDate,
    atHour: s.atHour ?? undefined,
    atMinute: s.atMinut ?? undefined,
    everyHours: s.everyHours ?? undefined,
    fromHour: s.fromHour ?? undefined,
    fromMinute: s.fromMinut ?? undefined,
    toHour: s.toHour ?? undefined,
    weeklyDays: parseWeeklyDays(s.weeklyDays),
    day: s.day ?? undefined,
    month: s.month ?? undefined,
  };
}

/** A time zone's offset from UTC at an instant, as set A spells the field's value: "+01:00". */
export function timeZoneOffset(timeZone: string | null, at: Date): string | null {
  if (!timeZone) return null;
  try {
    const name =
      new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
        .formatToParts(at)
        .find((p) => p.type === 'timeZoneName')?.value ?? '';
    return name === 'GMT' ? '+00:00' : name.replace(/^GMT/, '');
  } catch {
    return null;
  }
}

/**
 * A changed schedule's next fire time, so the change takes effect at once: from now, or from the
 * last slot run, so it never runs a slot again; none while it is off.
 */
export function nextFireAfterChange(
  row: Pick<TaskTriggerRow, 'schedule' | 'timeZone' | 'startDate' | 'endDate' | 'lastScheduledFor' | 'isActive'>,
  now: Date,
): Date | null {
  const after = row.lastScheduledFor && row.lastScheduledFor > now ? row.lastScheduledFor : now;
  return row.isActive ? (nextFireTimes(scheduleOf(row)!, after, 1)[0] ?? null) : null;
}

/** The fields of a schedule's forms, as both sets and an app's reload schedule give them. */
type ScheduleForms = { [K in keyof StoredSchedule]?: StoredSchedule[K] | null };

/** A schedule's forms as stored (a task's, an app's reloads), checked for what zod cannot check alone. */
export function storedSchedule(f: ScheduleForms, field: string): StoredSchedule {
  const schedule: StoredSchedule = {
    frequency: f.frequency ?? 'Once',
    day: f.day ?? null,
    month: f.month ?? null,
    atHour: f.atHour ?? null,
    atMinut: f.atMinut ?? null,
    everyHours: f.everyHours ?? null,
    fromHour: f.fromHour ?? null,
    fromMinut: f.fromMinut ?? null,
    toHour: f.toHour ?? null,
    toMinut: f.toMinut ?? null,
    weeklyDays: f.weeklyDays ?? null,
  };
  if (schedule.frequency === 'Weekly' && !parseWeeklyDays(schedule.weeklyDays).length)
    throw badInput('A weekly schedule needs its days', [
      { field: `${field}.weeklyDays`, message: 'is required for a weekly schedule' },
    ]);
  if (schedule.frequency === 'Yearly' && !schedule.month)
    throw badInput('A yearly schedule needs its month', [
      { field: `${field}.month`, message: 'is required for a yearly schedule' },
    ]);
  return schedule;
}
