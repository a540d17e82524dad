// Golden fire times of the scheduler's rule (issue "distribution loop, part 1"): every frequency, time
// zones, start and end dates, and DST both ways in Europe/Paris and America/New_York — a time skipped
// by spring-forward runs once at the first valid instant after the gap, the same day; a repeated hour
// runs once, at its first occurrence. These pin croner's 11.x behaviour: an upgrade that changes it fails here.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { nextSyncAfter } from '../../engine/features/user-directories/directory-schedule.js';
import {
  describeSchedule,
  dueSlot,
  nextFireTimes,
  parseWeeklyDays,
  type ScheduleSpec,
} from '../../engine/features/schedules/fire-times.js';

const START = new Date('2026-01-01T00:00:00Z');
const fires = (s: Partial<ScheduleSpec> & Pick<ScheduleSpec, 'frequency'>, after: string, count: number) =>
  nextFireTimes({ timeZone: 'Europe/Paris', startDate: START, ...s }, new Date(after), count).map((d) =>
    d.toISOString(),
  );

describe('DST in Europe/Paris (2026: forward 29 March, back 25 October)', () => {
  it('a daily 02:30 skipped by spring-forward runs once at 03:00 the same day', () => {
    expect(fires({ frequency: 'Daily', atHour: 2, atMinute: 30 }, '2026-03-27T12:00:00Z', 4)).toEqual([
      '2026-03-28T01:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
      '2026-03-31T00:30:00.000Z',
    ]);
  });
  it('a daily 02:30 in the repeated hour runs once, at its first occurrence', () => {
    expect(fires({ frequency: 'Daily', atHour: 2, atMinute: 30 }, '2026-10-23T12:00:00Z', 4)).toEqual([
      '2026-10-24T00:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-26T01:30:00.000Z',
      '2026-10-27T01:30:00.000Z',
    ]);
  });
  it('an hourly schedule passes through the repeated hour once', () => {
    expect(
      fires({ frequency: 'Hourly', everyHours: 1, fromHour: 0, fromMinute: 30, toHour: 4 }, '2026-10-24T22:00:00Z', 6),
    ).toEqual([
      '2026-10-24T22:30:00.000Z',
      '2026-10-24T23:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
      '2026-10-25T02:30:00.000Z',
      '2026-10-25T03:30:00.000Z',
      '2026-10-25T23:30:00.000Z',
    ]);
  });
  it('an hourly schedule over the gap fires once at its end, never twice', () => {
    expect(
      fires({ frequency: 'Hourly', everyHours: 1, fromHour: 1, fromMinute: 30, toHour: 3 }, '2026-03-28T23:00:00Z', 3),
    ).toEqual(['2026-03-29T00:30:00.000Z', '2026-03-29T01:00:00.000Z', '2026-03-29T01:30:00.000Z']);
  });
});

describe('DST in America/New_York (2026: forward 8 March, back 1 November)', () => {
  const ny = (s: Partial<ScheduleSpec> & Pick<ScheduleSpec, 'frequency'>, after: string, count: number) =>
    fires({ timeZone: 'America/New_York', ...s }, after, count);
  it('a daily 02:15 skipped by spring-forward runs at 03:00 EDT the same day', () => {
    expect(ny({ frequency: 'Daily', atHour: 2, atMinute: 15 }, '2026-03-07T12:00:00Z', 3)).toEqual([
      '2026-03-08T07:00:00.000Z',
      '2026-03-09T06:15:00.000Z',
      '2026-03-10T06:15:00.000Z',
    ]);
  });
  it('a daily 01:30 in the repeated hour runs once, at 01:30 EDT', () => {
    expect(ny({ frequency: 'Daily', atHour: 1, atMinute: 30 }, '2026-10-31T12:00:00Z', 3)).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
      '2026-11-03T06:30:00.000Z',
    ]);
  });
});

describe('every frequency', () => {
  it('Once fires at its instant, and never again once passed', () => {
    const at = new Date('2026-05-04T08:00:00Z');
    expect(fires({ frequency: 'Once', startDate: at }, '2026-05-01T00:00:00Z', 3)).toEqual([
      '2026-05-04T08:00:00.000Z',
    ]);
    expect(fires({ frequency: 'Once', startDate: at }, '2026-05-04T08:00:00Z', 3)).toEqual([]);
  });
  it('Hourly every 3 hours from 08:15 to 17:00', () => {
    expect(
      fires(
        { frequency: 'Hourly', timeZone: 'UTC', everyHours: 3, fromHour: 8, fromMinute: 15, toHour: 17 },
        '2026-06-01T00:00:00Z',
        5,
      ),
    ).toEqual([
      '2026-06-01T08:15:00.000Z',
      '2026-06-01T11:15:00.000Z',
      '2026-06-01T14:15:00.000Z',
      '2026-06-01T17:15:00.000Z',
      '2026-06-02T08:15:00.000Z',
    ]);
  });
  it('Weekly on Monday and Thursday', () => {
    expect(
      fires(
        {
          frequency: 'Weekly',
          timeZone: 'UTC',
          atHour: 7,
          atMinute: 30,
          weeklyDays: parseWeeklyDays('Monday, Thursday'),
        },
        '2026-06-01T08:00:00Z',
        3,
      ),
    ).toEqual(['2026-06-04T07:30:00.000Z', '2026-06-08T07:30:00.000Z', '2026-06-11T07:30:00.000Z']);
  });
  it('Monthly on the 15th, and on the last day when asked for the 31st', () => {
    expect(fires({ frequency: 'Monthly', timeZone: 'UTC', day: 15, atHour: 6 }, '2026-01-20T00:00:00Z', 2)).toEqual([
      '2026-02-15T06:00:00.000Z',
      '2026-03-15T06:00:00.000Z',
    ]);
    expect(fires({ frequency: 'Monthly', timeZone: 'UTC', day: 31, atHour: 6 }, '2026-01-15T00:00:00Z', 3)).toEqual([
      '2026-01-31T06:00:00.000Z',
      '2026-02-28T06:00:00.000Z',
      '2026-03-31T06:00:00.000Z',
    ]);
  });
  it('Yearly on 1 April', () => {
    expect(
      fires({ frequency: 'Yearly', timeZone: 'UTC', day: 1, month: 4, atHour: 9 }, '2026-06-01T00:00:00Z', 2),
    ).toEqual(['2027-04-01T09:00:00.000Z', '2028-04-01T09:00:00.000Z']);
  });
});

describe('start and end dates', () => {
  it('nothing fires before the start date, nor at or after the end date', () => {
    const s = {
      frequency: 'Daily' as const,
      timeZone: 'UTC',
      atHour: 12,
      startDate: new Date('2026-06-10T00:00:00Z'),
      endDate: new Date('2026-06-12T12:00:00Z'),
    };
    expect(nextFireTimes(s, new Date('2026-06-01T00:00:00Z'), 5).map((d) => d.toISOString())).toEqual([
      '2026-06-10T12:00:00.000Z',
      '2026-06-11T12:00:00.000Z',
    ]);
  });
});

describe('bad schedules say what is wrong', () => {
  it.each([
    [{ frequency: 'Daily' as const, atHour: 24 }, /atHour must be a whole number from 0 to 23/],
    [{ frequency: 'Weekly' as const, weeklyDays: [] }, /weeklyDays must name at least one day/],
    [{ frequency: 'Hourly' as const, fromHour: 10, toHour: 8 }, /toHour must not be before fromHour/],
    [{ frequency: 'Daily' as const, timeZone: 'Mars/Olympus' }, /not an IANA time zone/],
  ])('%j', (s, message) => {
    expect(() => fires(s, '2026-06-01T00:00:00Z', 1)).toThrow(message);
  });
  it('refuses a day that is not one', () => {
    expect(() => parseWeeklyDays('Funday')).toThrow(/not a day of the week/);
    expect(parseWeeklyDays('1 3 sat')).toEqual([1, 3, 6]);
  });
});

describe('readable summaries', () => {
  it('says what a designer expects to read', () => {
    expect(
      describeSchedule({
        frequency: 'Weekly',
        timeZone: 'Europe/Paris',
        startDate: START,
        atHour: 7,
        atMinute: 30,
        weeklyDays: [1, 4],
      }),
    ).toBe('Every Monday and Thursday at 07:30 (Europe/Paris)');
    expect(describeSchedule({ frequency: 'Monthly', timeZone: 'UTC', startDate: START, day: 31, atHour: 6 })).toBe(
      'Every month on the last day at 06:00 (UTC)',
    );
    expect(
      describeSchedule({
        frequency: 'Hourly',
        timeZone: 'UTC',
        startDate: START,
        everyHours: 2,
        fromHour: 8,
        toHour: 18,
      }),
    ).toBe('Every 2 hours from 08:00 to 18:59 (UTC)');
  });
});

describe('what is due when the clock is checked', () => {
  const daily = { frequency: 'Daily' as const, timeZone: 'UTC', atHour: 9, startDate: START };
  it('a slot reached on time is due once, not a catch-up; checking again finds nothing new', () => {
    const now = new Date('2026-06-01T09:00:01Z');
    const due = dueSlot(daily, new Date('2026-05-31T09:00:00Z'), START, now);
    expect(due).toEqual({ scheduledFor: new Date('2026-06-01T09:00:00Z'), catchUp: false });
    expect(dueSlot(daily, due!.scheduledFor, START, new Date('2026-06-01T09:00:04Z'))).toBeNull();
  });
  it('a week asleep runs the last missed slot once, flagged as a catch-up, never a burst', () => {
    const due = dueSlot(daily, new Date('2026-06-01T09:00:00Z'), START, new Date('2026-06-08T15:00:00Z'));
    expect(due).toEqual({ scheduledFor: new Date('2026-06-08T09:00:00Z'), catchUp: true });
  });
  it('an hourly schedule after a long sleep still yields one slot', () => {
    const hourly = {
      frequency: 'Hourly' as const,
      timeZone: 'UTC',
      everyHours: 1,
      fromHour: 0,
      toHour: 23,
      startDate: START,
    };
    const due = dueSlot(hourly, new Date('2026-02-01T00:00:00Z'), START, new Date('2026-05-01T00:30:00Z'));
    expect(due).toEqual({ scheduledFor: new Date('2026-05-01T00:00:00Z'), catchUp: true });
  });
  it('nothing is due past the end date, however late the check', () => {
    const ended = { ...daily, endDate: new Date('2026-06-03T00:00:00Z') };
    expect(dueSlot(ended, new Date('2026-06-02T09:00:00Z'), START, new Date('2026-06-10T10:00:00Z'))).toBeNull();
  });
});

describe('directories and backups keep the same rule (one cron builder in the engine)', () => {
  const sync = (d: Partial<Parameters<typeof nextSyncAfter>[0]>, after: string, count: number) => {
    const out: string[] = [];
    let from = new Date(after);
    for (let i = 0; i < count; i++) {
      const next = nextSyncAfter(
        { synchronization: 'Daily', frequency: null, frequencyTime: '02:30', timeZone: 'Europe/Paris', ...d },
        from,
      );
      if (!next) break;
      out.push(next.toISOString());
      from = next;
    }
    return out;
  };
  it('a directory synchronized daily at 02:30 in Paris runs at 03:00 on the spring-forward day, once', () => {
    expect(sync({}, '2026-03-27T12:00:00Z', 3)).toEqual([
      '2026-03-28T01:30:00.000Z',
      '2026-03-29T01:00:00.000Z',
      '2026-03-30T00:30:00.000Z',
    ]);
  });
  it('a directory synchronized hourly passes through the repeated hour once, like a task', () => {
    expect(sync({ synchronization: 'Hourly', frequencyTime: '00:30' }, '2026-10-24T23:45:00Z', 3)).toEqual([
      '2026-10-25T00:30:00.000Z',
      '2026-10-25T02:30:00.000Z',
      '2026-10-25T03:30:00.000Z',
    ]);
  });
  it('builds cron patterns in one place: croner is started only by nextFireTimes', () => {
    const sources = execFileSync('grep', ['-rln', 'new Cron(', join(__dirname, '..', '..', 'engine')], {
      encoding: 'utf8',
    })
      .split('\n')
      .filter(Boolean)
      .map((f) => f.slice(f.indexOf('engine/')));
    expect(sources).toEqual(['engine/features/schedules/fire-times.ts']);
  });
});
