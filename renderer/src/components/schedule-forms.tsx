import { SCHEDULE_FREQUENCIES, WEEKDAYS } from '../../../engine/wire';
import type { FieldDef } from './Form';
import { ids, instant, num, orNull, text, type FormValues } from './options';
import { alsoHere, hereZone, inZone, isTimeZone, localInput } from './times';
import { useSession } from '../stores/session/session.store';

// The forms of a schedule, as a task's triggers and an app's reloads both ask them: a frequency and
// only the fields it needs, a time zone, a start and an end; checked here as the engine checks them.

export const FREQUENCIES = SCHEDULE_FREQUENCIES;
export type Frequency = (typeof FREQUENCIES)[number];

const AT: FieldDef[] = [
  { name: 'atHour', label: 'At hour (0–23)', kind: 'number', required: true },
  { name: 'atMinut', label: 'At minute (0–59)', kind: 'number', required: true },
];
/** A schedule asks only what its frequency needs. */
export const FIELDS_BY_FREQUENCY: Record<Frequency, FieldDef[]> = {
  Once: [],
  Hourly: [
    { name: 'everyHours', label: 'Every N hours', kind: 'number', required: true },
    { name: 'fromHour', label: 'From hour', kind: 'number' },
    { name: 'toHour', label: 'To hour', kind: 'number' },
  ],
  Daily: AT,
  Weekly: [{ name: 'weeklyDays', label: 'On', kind: 'multi', required: true, choices: WEEKDAYS }, ...AT],
  Monthly: [{ name: 'day', label: 'Day of the month (31: the last day)', kind: 'number', required: true }, ...AT],
  Yearly: [
    { name: 'month', label: 'Month (1–12)', kind: 'number', required: true },
    { name: 'day', label: 'Day', kind: 'number', required: true },
    ...AT,
  ],
};
const RANGES: Record<string, [number, number]> = {
  atHour: [0, 23],
  atMinut: [0, 59],
  everyHours: [1, 23],
  fromHour: [0, 23],
  toHour: [0, 23],
  day: [1, 31],
  month: [1, 12],
};
export const PERIOD: FieldDef[] = [
  { name: 'startDate', label: 'Starts (your time; a Once schedule runs then)', kind: 'datetime', required: true },
  {
    name: 'endDate',
    label: 'Ends (your time)',
    kind: 'datetime',
    hint: 'Leave blank to keep running until you turn it off',
  },
  { name: 'isActive', label: 'Active', kind: 'checkbox' },
];
const TIME_ZONES: readonly string[] = Intl.supportedValuesOf('timeZone');
export const TIME_ZONE_FIELD: FieldDef = {
  name: 'timeZone',
  label: 'Time zone',
  kind: 'text',
  required: true,
  // Every zone this browser knows, offered as it is typed ("par" finds Europe/Paris); yours to start with.
  suggestions: TIME_ZONES,
  hint: `Type to search, such as Europe/Paris; hours above are in it (yours is ${hereZone})`,
};

/** A stored schedule in the form (its days as a list, its dates in the viewer's time), or a new one's defaults. */
export function scheduleFormValues(
  stored: { weeklyDays?: string | null; startDate: string; endDate: string | null } | null,
  fresh: { atHour: number; fromHour: number; toHour: number },
): FormValues {
  if (!stored)
    return {
      atMinut: 0,
      everyHours: 1,
      day: 1,
      month: 1,
      ...fresh,
      timeZone: useSession.getState().me?.user.timeZone ?? hereZone,
      startDate: localInput(new Date()),
      endDate: '',
      isActive: true,
    };
  return {
    ...stored,
    weeklyDays: (stored.weeklyDays ?? '')
      .split(',')
      .map((d) => d.trim())
      .filter(Boolean),
    startDate: localInput(stored.startDate),
    endDate: stored.endDate ? localInput(stored.endDate) : '',
  };
}

/** The schedule's fields the frequency shows, as numbers (null for those it does not). */
export function scheduleForms(v: FormValues, frequency: Frequency) {
  const shown = new Set(FIELDS_BY_FREQUENCY[frequency].map((f) => f.name));
  const pick = (name: string) => (shown.has(name) ? num(v[name]) : null);
  return {
    frequency,
    day: pick('day'),
    month: pick('month'),
    atHour: pick('atHour'),
    atMinut: pick('atMinut'),
    everyHours: pick('everyHours'),
    fromHour: pick('fromHour'),
    fromMinut: shown.has('fromHour') ? 0 : null,
    toHour: pick('toHour'),
    toMinut: shown.has('toHour') ? 0 : null,
    weeklyDays: shown.has('weeklyDays') ? WEEKDAYS.filter((d) => ids(v.weeklyDays).includes(d)).join(', ') : null,
    timeZone: text(v.timeZone),
    startDate: instant(v.startDate),
    endDate: orNull(v.endDate) ? instant(v.endDate) : null,
  };
}

/** What is wrong with a schedule's fields, beside each (as the engine would say it). */
export function scheduleProblems(v: FormValues, frequency: Frequency): { field: string; message: string }[] {
  const problems: { field: string; message: string }[] = [];
  const f = scheduleForms(v, frequency);
  for (const field of FIELDS_BY_FREQUENCY[frequency]) {
    const range = RANGES[field.name];
    const n = f[field.name as keyof typeof f] as number | null;
    if (range && (n === null || !Number.isInteger(n) || n < range[0] || n > range[1]))
      if (n !== null || field.required)
        problems.push({ field: field.name, message: `must be a whole number from ${range[0]} to ${range[1]}` });
  }
  if (f.weeklyDays === '') problems.push({ field: 'weeklyDays', message: 'needs at least one day' });
  if (!isTimeZone(f.timeZone))
    problems.push({ field: 'timeZone', message: 'must be an IANA time zone, such as Europe/Paris' });
  return problems.concat(periodProblems(v));
}

/** A start, and an end after it. */
export function periodProblems(v: FormValues): { field: string; message: string }[] {
  const start = instant(v.startDate);
  const end = orNull(v.endDate) ? instant(v.endDate) : null;
  if (Number.isNaN(Date.parse(start))) return [{ field: 'startDate', message: 'is required' }];
  if (end && Date.parse(end) <= Date.parse(start)) return [{ field: 'endDate', message: 'must be after the start' }];
  return [];
}

/** The frequency chooser above a schedule's form (the form then asks only what it needs). */
export function FrequencySelect({
  id,
  value,
  changed,
}: {
  id: string;
  value: Frequency;
  changed: (f: Frequency) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>Frequency</label>
      <select id={id} value={value} onChange={(e) => changed(e.target.value as Frequency)}>
        {FREQUENCIES.map((f) => (
          <option key={f} value={f}>
            {f}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The next fire times, each in the schedule's zone and, when it differs, in the viewer's. */
export function NextRuns({ stored }: { stored: { timeZone: string | null; nextRuns: string[] } }) {
  const zone = stored.timeZone ?? hereZone;
  return (
    <details>
      <summary>Next runs</summary>
      <ol className="next-runs">
        {stored.nextRuns.map((r) => {
          const here = alsoHere(r, zone);
          return (
            <li key={r}>
              {inZone(r, zone, 'full')}
              {here && <span className="hint"> · {here}</span>}
            </li>
          );
        })}
      </ol>
    </details>
  );
}
