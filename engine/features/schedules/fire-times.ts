import { Cron } from 'croner';
import { SCHEDULE_FREQUENCIES, WEEKDAYS, type Weekday } from '../../core/enumerations.js';

// When a task's schedule fires. Croner computes the instants: pinned to its 11.x line, whose DST
// rule with `fixedTimeRule: 'no-wildcard'` is exactly ours — a time skipped by spring-forward runs
// once at the first valid instant after the gap, the same day; a repeated hour runs once, at its
// first occurrence. That rule holds only for patterns without wildcards or steps in minutes and
// hours, so every pattern built here spells its minutes and hours out (never `*` or `/`).
// Golden tests in tests/scheduler/ pin the behaviour for Europe/Paris and America/New_York.

export type Frequency = (typeof SCHEDULE_FREQUENCIES)[number];
export const FREQUENCIES: Frequency[] = [...SCHEDULE_FREQUENCIES];

export interface ScheduleSpec {
  frequency: Frequency;
  /** IANA time zone, such as Europe/Paris. */
  timeZone: string;
  /** The first instant the schedule may fire (for Once: the instant it fires). */
  startDate: Date;
  /** No fire at or after this instant. */
  endDate?: Date | null;
  atHour?: number;
  atMinute?: number;
  /** Hourly: every N hours from fromHour:fromMinute up to toHour. */
  everyHours?: number;
  fromHour?: number;
  fromMinute?: number;
  toHour?: number;
  /** Weekly: days as numbers (0 = Sunday … 6 = Saturday). */
  weeklyDays?: number[];
  /** Monthly, Yearly: day of the month (31 means the last day of every month). */
  day?: number;
  /** Yearly: month 1–12. */
  month?: number;
}

/** A day's number in cron's count (0 = Sunday … 6 = Saturday) from the one list of weekdays (Monday first). */
export const dayNumber = (day: Weekday) => (WEEKDAYS.indexOf(day) + 1) % 7;

/** Reads the interface's `weeklyDays` text: day names or numbers, separated by commas or blanks. */
export function parseWeeklyDays(text: string | null | undefined): number[] {
  if (!text) return [];
  const days = text
    .split(/[\s,;]+/)
    .filter(Boolean)
    .map((t) => {
      const n = Number(t);
      if (Number.isInteger(n) && n >= 0 && n <= 7) return n % 7;
      const day = WEEKDAYS.find((d) => d.toLowerCase().startsWith(t.toLowerCase().slice(0, 3)) && t.length >= 3);
      if (!day) throw new Error(`"${t}" is not a day of the week`);
      return dayNumber(day);
    });
  return [...new Set(days)].sort((a, b) => a - b);
}

import { checkTimeZone } from '../../core/time-zone.js';
export { checkTimeZone };

const int = (v: number | undefined, min: number, max: number, name: string, fallback?: number) => {
  const x = v ?? fallback;
  if (x === undefined || !Number.isInteger(x) || x < min || x > max)
    throw new Error(`${name} must be a whole number from ${min} to ${max}`);
  return x;
};

/** The cron pattern of a repeating schedule: minute, hour, day of month, month, day of week. */
export function cronPattern(s: ScheduleSpec): string {
  const minute = int(s.atMinute, 0, 59, 'atMinute', 0);
  const hour = () => int(s.atHour, 0, 23, 'atHour', 0);
  switch (s.frequency) {
    case 'Hourly': {
      const every = int(s.everyHours, 1, 23, 'everyHours', 1);
      const from = int(s.fromHour, 0, 23, 'fromHour', 0);
      const to = int(s.toHour, 0, 23, 'toHour', 23);
      if (to < from) throw new Error('toHour must not be before fromHour');
      const hours: number[] = [];
      for (let h = from; h <= to; h += every) hours.push(h);
      return `${int(s.fromMinute, 0, 59, 'fromMinute', 0)} ${hours.join(',')} * * *`;
    }
    case 'Daily':
      return `${minute} ${hour()} * * *`;
    case 'Weekly': {
      const days = s.weeklyDays ?? [];
      if (!days.length) throw new Error('weeklyDays must name at least one day');
      return `${minute} ${hour()} * * ${days.join(',')}`;
    }
    case 'Monthly': {
      const day = int(s.day, 1, 31, 'day', 1);
      return `${minute} ${hour()} ${day === 31 ? 'L' : day} * *`;
    }
    case 'Yearly': {
      const day = int(s.day, 1, 31, 'day', 1);
      return `${minute} ${hour()} ${day} ${int(s.month, 1, 12, 'month', 1)} *`;
    }
    default:
      throw new Error(`${s.frequency} has no repeating pattern`);
  }
}

/** The next `count` instants (UTC) the schedule fires strictly after `after`, in order. */
export function nextFireTimes(s: ScheduleSpec, after: Date, count: number): Date[] {
  checkTimeZone(s.timeZone);
  if (s.frequency === 'Once') {
    const at = s.startDate;
    return at > after && (!s.endDate || at < s.endDate) ? [at] : [];
  }
  const job = new Cron(cronPattern(s), {
    timezone: s.timeZone,
    fixedTimeRule: 'no-wildcard',
    startAt: s.startDate,
    stopAt: s.endDate ?? undefined,
    paused: true,
  });
  try {
    // nextRuns starts after the reference instant; it never repeats a slot in a repeated hour.
    return job.nextRuns(count, after);
  } finally {
    job.stop();
  }
}

/** The machine's time zone: what a schedule without one of its own (a directory's, backups') runs in. */
export const machineTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

const two = (n: number) => String(n).padStart(2, '0');

/** A sentence a designer reads beside the schedule: "Every Monday and Thursday at 07:30 (Europe/Paris)". */
export function describeSchedule(s: ScheduleSpec): string {
  const at = `${two(s.atHour ?? 0)}:${two(s.atMinute ?? 0)}`;
  const zone = ` (${s.timeZone})`;
  switch (s.frequency) {
    case 'Once':
      return `Once, on ${s.startDate.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    case 'Hourly':
      return `Every ${(s.everyHours ?? 1) === 1 ? 'hour' : `${s.everyHours} hours`} from ${two(s.fromHour ?? 0)}:${two(s.fromMinute ?? 0)} to ${two(s.toHour ?? 23)}:59${zone}`;
    case 'Daily':
      return `Every day at ${at}${zone}`;
    case 'Weekly': {
      const names = (s.weeklyDays ?? []).map((d) => WEEKDAYS[(d + 6) % 7]);
      const list = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
      return `Every ${list} at ${at}${zone}`;
    }
    case 'Monthly':
      return `Every month on the ${(s.day ?? 1) === 31 ? 'last day' : ordinal(s.day ?? 1)} at ${at}${zone}`;
    case 'Yearly':
      return `Every year on ${new Date(Date.UTC(2000, (s.month ?? 1) - 1, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' })} ${s.day ?? 1} at ${at}${zone}`;
  }
}

function ordinal(n: number) {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

export interface DueSlot {
  /** The instant the run was scheduled for (the unique key with its trigger: no slot runs twice). */
  scheduledFor: Date;
  /** True when the slot was missed (the app closed or asleep) and runs late, once. */
  catchUp: boolean;
}

/**
 * What is due now for a trigger whose last slot was `lastScheduledFor` (null: never fired; its
 * start counts from `since`). Slots missed while the app was closed or asleep run once, flagged as a
 * catch-up — never as a burst; a slot due within `toleranceMs` of now is on time.
 */
export function dueSlot(
  s: ScheduleSpec,
  lastScheduledFor: Date | null,
  since: Date,
  now: Date,
  toleranceMs = 5_000,
): DueSlot | null {
  const from = lastScheduledFor ?? new Date(since.getTime() - 1);
  let latest: Date | null = null;
  // Walk the missed slots in batches; a long sleep on an hourly schedule is a few thousand at most.
  for (let cursor = from; ; ) {
    const batch = nextFireTimes(s, cursor, 500).filter((d) => d <= now);
    if (!batch.length) break;
    latest = batch[batch.length - 1];
    if (batch.length < 500) break;
    cursor = latest;
  }
  if (!latest) return null;
  return { scheduledFor: latest, catchUp: now.getTime() - latest.getTime() > toleranceMs };
}
