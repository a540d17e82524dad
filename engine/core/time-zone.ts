// Time zones as the runtime knows them (IANA names), checked once each.

/**
 * Zones the runtime has accepted. Intl takes any spelling's case, so the set is bounded: past
 * the few hundred IANA names a caller could only grow it with case variants.
 */
const knownZones = new Set<string>();
const KNOWN_ZONES_KEPT = 1_000;

/**
 * A time zone the runtime knows, or an error naming it. Asked once per zone: making a formatter
 * cost a third of each fire time's computation.
 */
export function checkTimeZone(timeZone: string): string {
  if (knownZones.has(timeZone)) return timeZone;
  try {
    new Intl.DateTimeFormat('en', { timeZone }).format(0);
  } catch {
    throw new Error(`"${timeZone}" is not an IANA time zone`);
  }
  if (knownZones.size < KNOWN_ZONES_KEPT) knownZones.add(timeZone);
  return timeZone;
}
