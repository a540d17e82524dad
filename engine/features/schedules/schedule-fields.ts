import { z } from 'zod';
import { v } from '../../core/validation.js';
import { FREQUENCIES, checkTimeZone, parseWeeklyDays } from './fire-times.js';

// A schedule's fields as every owner of a schedule takes them (a task's triggers, an app's
// reloads, a subscription, a backup plan): one definition, checked the same everywhere.

const hour = () => z.number().int({ message: 'must be a whole number' }).min(0).max(23);
const minute = () => z.number().int({ message: 'must be a whole number' }).min(0).max(59);
const nullable = <T extends z.ZodType>(t: T) => t.nullable().optional();

/** A schedule, checked as a whole: its frequency's fields, a real time zone, an end after the start. */
export const scheduleFields = {
  frequency: nullable(v.oneOf(FREQUENCIES as [string, ...string[]])),
  execution: nullable(v.oneOf(['Parallel', 'Serial'])),
  day: nullable(z.number().int().min(1).max(31)),
  month: nullable(z.number().int().min(1).max(12)),
  atHour: nullable(hour()),
  atMinut: nullable(minute()),
  everyHours: nullable(z.number().int().min(1).max(23)),
  fromHour: nullable(hour()),
  fromMinut: nullable(minute()),
  toHour: nullable(hour()),
  toMinut: nullable(minute()),
  weeklyDays: nullable(
    z
      .string()
      .max(100)
      .refine(
        (t) => {
          try {
            parseWeeklyDays(t);
            return true;
          } catch {
            return false;
          }
        },
        { message: 'must list days of the week, such as Monday, Wednesday' },
      ),
  ),
  timeZone: v.text(64).refine(
    (t) => {
      try {
        checkTimeZone(t);
        return true;
      } catch {
        return false;
      }
    },
    { message: 'must be an IANA time zone, such as Europe/Paris' },
  ),
  // No end date: the schedule runs until it is changed or turned off.
  startDate: v.dateTime(),
  endDate: v.ndateTime(),
};
export const endAfterStart = (s: { startDate?: string | null; endDate?: string | null }, c: z.RefinementCtx) => {
  if (s.startDate && s.endDate && Date.parse(s.endDate) <= Date.parse(s.startDate))
    c.addIssue({ code: 'custom', path: ['endDate'], message: 'must be after the start date' });
};
