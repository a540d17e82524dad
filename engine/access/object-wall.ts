import type { EntitySchema, ObjectLiteral } from 'typeorm';
import { EngineError } from '../core/errors.js';
import { foreignIds, type BoundedCaller } from '../core/organization-boundary.js';
import { isOrganizationKind, ORGANIZATION_KINDS, type ObjectKind, type ObjectRefs } from './object-kinds.js';

// The organization wall, kept by the dispatcher for every operation: each id an operation declares
// is looked up in its kind's table, and one that lies in an organization the caller does not belong
// to answers 404 before anything else is said of the call. Handlers may still look their rows up
// with `findOr404` (which asks the same boundary); what they forget, this remembers.

/** One value found at a declared path, with the field it came from (`body.items.2.id`). */
export interface FoundId {
  value: string;
  field: string;
}

/** The string values at a path of an input (`body.items[].id`, `body[]`); absent parts give none. */
export function idsAt(input: unknown, path: string): FoundId[] {
  const parts = path.split('.').flatMap((p) => (p.endsWith('[]') ? [p.slice(0, -2), '[]'].filter(Boolean) : [p]));
  let level: { value: unknown; field: string }[] = [{ value: input, field: '' }];
  const join = (field: string, part: string | number) => (field ? `${field}.${part}` : String(part));
  for (const part of parts) {
    const next: typeof level = [];
    for (const { value, field } of level) {
      if (part === '[]') {
        if (Array.isArray(value)) value.forEach((v, i) => next.push({ value: v, field: join(field, i) }));
      } else if (value && typeof value === 'object' && part in value)
        next.push({ value: (value as Record<string, unknown>)[part], field: join(field, part) });
    }
    level = next;
  }
  // A query may carry a comma-separated list (set A's `resourceIds`); no id holds a comma.
  return level.flatMap(({ value, field }) =>
    typeof value === 'string' && value.length > 0 ? value.split(',').map((v) => ({ value: v.trim(), field })) : [],
  );
}

/** The values alone. */
export const valuesAt = (input: unknown, path: string) => idsAt(input, path).map((x) => x.value);

const kindsOf = (k: ObjectKind | readonly ObjectKind[]): readonly ObjectKind[] =>
  Array.isArray(k) ? k : [k as ObjectKind];

/** Refuses (404, naming the field, as a missing id is) the first declared id outside the caller's organizations. */
export async function refuseForeignObjects(caller: BoundedCaller, refs: ObjectRefs, input: unknown): Promise<void> {
  if (!caller.principal || caller.principal.organizationIds === null) return;
  for (const [path, declared] of Object.entries(refs)) {
    const found = idsAt(input, path).slice(0, 10_000);
    if (!found.length) continue;
    const ids = [...new Set(found.map((x) => x.value))];
    for (const kind of kindsOf(declared)) {
      if (!isOrganizationKind(kind)) continue;
      const { entity, what } = ORGANIZATION_KINDS[kind];
      const [foreign] = await foreignIds(caller, entity as EntitySchema<ObjectLiteral>, ids);
      if (foreign) {
        const field = found.find((x) => x.value === foreign)!.field;
        throw new EngineError(404, `${what} ${foreign} was not found`, [{ field, message: 'was not found' }]);
      }
    }
  }
}
