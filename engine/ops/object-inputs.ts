import type { AnyOp } from './op.js';
import { GUID } from '../core/validation.js';

// Which inputs of an operation name an object by id, read from the operation itself: its path's
// parameters, and every field of its params, query and body schemas that is a UUID or is called
// `id`, `…Id` or `…Ids`. The catalogue's test asks each of them to be declared in `objects`, so a
// new operation cannot take an id without saying what kind of object it is.

const ID_NAME = /^(id|ids|.*Id|.*ID|.*Ids|.*IDs)$/;

interface ZodLike {
  _zod?: { def: Record<string, unknown> & { type: string } };
}

const defOf = (s: unknown) => (s as ZodLike | undefined)?._zod?.def;

/** Whether a string schema only takes UUIDs (`v.uuid()`: a regex check with the GUID pattern). */
function isUuidString(def: Record<string, unknown>): boolean {
  const checks = (def.checks ?? []) as { _zod?: { def?: { format?: string; pattern?: RegExp } } }[];
  return checks.some((c) => {
    const d = c._zod?.def;
    return (
      d?.format === 'uuid' || d?.format === 'guid' || (d?.pattern instanceof RegExp && d.pattern.source === GUID.source)
    );
  });
}

/** Paths under `at` whose values are ids (see above), walking wrappers, arrays, objects and unions. */
function walk(schema: unknown, at: string, key: string | null, out: Set<string>, seen: Set<unknown>): void {
  const def = defOf(schema);
  if (!def || seen.has(schema)) return;
  seen.add(schema);
  try {
    switch (def.type) {
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'nonoptional':
      case 'catch':
        return walk(def.innerType, at, key, out, seen);
      case 'pipe':
        return walk(def.in, at, key, out, seen);
      case 'lazy':
        return walk((def.getter as () => unknown)(), at, key, out, seen);
      case 'union':
        for (const o of def.options as unknown[]) walk(o, at, key, out, seen);
        return;
      case 'intersection':
        walk(def.left, at, key, out, seen);
        walk(def.right, at, key, out, seen);
        return;
      case 'array':
        return walk(def.element, `${at}[]`, key, out, seen);
      case 'record':
        return;
      case 'object':
        for (const [k, v] of Object.entries(def.shape as Record<string, unknown>))
          walk(v, at ? `${at}.${k}` : k, k, out, seen);
        return;
      case 'string':
        if (isUuidString(def) || (key !== null && ID_NAME.test(key))) out.add(at);
        return;
      default:
        return;
    }
  } finally {
    seen.delete(schema);
  }
}

/** Every input path of the operation that names an object by id. */
export function idInputsOf(op: AnyOp): string[] {
  const out = new Set<string>();
  for (const [, name] of op.http.path.matchAll(/\{(\w+)\}/g)) out.add(`params.${name}`);
  for (const part of ['params', 'query', 'body'] as const) walk(op.input[part], part, null, out, new Set());
  return [...out].sort();
}

/** The id inputs an operation does not declare in `objects`. */
export const undeclaredIdInputs = (op: AnyOp) => idInputsOf(op).filter((p) => !(op.objects && p in op.objects));
