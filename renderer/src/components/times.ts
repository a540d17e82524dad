// Times as people read them: in a named zone, with the zone said, never a bare ISO string.

/** The zone this screen runs in (the person's own). */
export const hereZone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** True when the name is a time zone this browser knows (IANA names: Europe/Paris, UTC). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** "Mon 30 Nov 2026, 07:00 (Europe/Paris)": an instant in a zone (the person's own unless said), the zone named. */
export function inZone(
  iso: string | null | undefined,
  timeZone = hereZone,
  style: 'full' | 'medium' = 'medium',
): string {
  if (!iso) return '';
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const zone = isTimeZone(timeZone) ? timeZone : 'UTC';
  return `${at.toLocaleString(undefined, { dateStyle: style, timeStyle: 'short', timeZone: zone })} (${zone})`;
}

/** The same instant in the person's own zone, when that differs from `timeZone` ("06:00 here"), else null. */
export function alsoHere(iso: string, timeZone: string): string | null {
  if (!isTimeZone(timeZone)) return null;
  const at = new Date(iso);
  const there = at.toLocaleString('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', day: '2-digit' });
  const here = at.toLocaleString('en-GB', { timeZone: hereZone, hour: '2-digit', minute: '2-digit', day: '2-digit' });
  return there === here
    ? null
    : `${at.toLocaleString(undefined, { timeStyle: 'short', timeZone: hereZone })} your time (${hereZone})`;
}

/** An ISO instant as a datetime-local field's value (the person's own zone). */
export const localInput = (iso: string | Date) => {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

const ISO_INSTANT = /\b\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?Z\b/g;

/** A log (or any text) with its ISO instants as people read them, in their own zone (said once, by the caller). */
export const readableTimes = (text: string) =>
  text.replace(ISO_INSTANT, (iso) =>
    new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium', timeZone: hereZone }),
  );
