import type { FieldError } from '../bridge';

// The engine names a field by where it sits in the request ("body.name", "body.0.name",
// "body.organizations"); a form names it by its own field. These helpers join the two and keep the
// request's internals (body., list positions, ids) out of what a person reads.

const UUID = /"?\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b"?\s?/gi;

/** The form field an engine error is about: "body.0.name" and "body.name.first" are both "name". */
export function formFieldOf(field: string): string {
  const parts = field.split('.').filter((p) => p !== 'body' && p !== 'query' && p !== 'params' && !/^\d+$/.test(p));
  return parts[0] ?? '';
}

/** A message without ids and request paths, starting with a capital. */
export function plainMessage(message: string): string {
  const text = message
    .replace(UUID, '')
    .replace(/\b(body|query|params)\.[\w.]+:?\s*/g, '')
    .replace(/\s{2,}/g, ' ')
    .trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export interface PlacedErrors {
  /** By form field: every message for it, joined. */
  byField: Record<string, string>;
  /** What no field of the form shows, each named by its label or a readable field name. */
  unplaced: string[];
}

/** Places every error of a submit at once: beside its field, or in one summary naming the field. */
export function placeErrors(details: FieldError[], labels: Record<string, string>): PlacedErrors {
  const byField: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const d of details) {
    const key = formFieldOf(d.field);
    const message = lowerFirst(plainMessage(d.message));
    if (key in labels) byField[key] = byField[key] ? `${byField[key]}; ${message}` : message;
    else unplaced.push(`${key ? readable(key) : 'The request'} ${message}`);
  }
  return { byField, unplaced };
}

/** A message placed after a field's name: "Must not be empty" → "must not be empty". */
export const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** "dynamicNameSeparator" → "Dynamic name separator". */
export function readable(key: string): string {
  const words = key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
