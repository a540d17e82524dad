import type { EntitySchema, ObjectLiteral } from 'typeorm';
import { notFound } from '../core/errors.js';
import { foreignIds, type BoundedCaller } from '../core/organization-boundary.js';
import { isOrganizationKind, ORGANIZATION_KINDS, type ObjectKind, type ObjectRefs } from './object-kinds.js';

// The organization wall, kept by the dispatcher for every operation: each id an operation declares
// is looked up in its kind's table, and one that lies in an organization the caller does not belong
// to answers 404 before the handler runs. Handlers may still look their rows up with `findOr404`
// (which asks the same boundary); what they forget, this remembers.

/** The string values at a path of the parsed input (`body.items[].id`, `body[]`); absent parts give none. */
export function valuesAt(input: unknown, path: string): string[] {
  const parts = path.split('.').flatMap((p) => (p.endsWith('[]') ? [p.slice(0, -2), '[]'].filter(Boolean) : [p]));
  let level: unknown[] = [input];
  for (const part of parts) {
    const next: unknown[] = [];
    for (const value of level) {
      if (part === '[]') {
        if (Array.isArray(value)) next.push(...(value as unknown[]));
      } else if (value && typeof value === 'object' && part in value)
        next.push((value as Record<string, unknown>)[part]);
    }
    level = next;
  }
  // A query may carry a comma-separated list (set A's `resourceIds`); no id holds a comma.
  return level.flatMap((v) => (typeof v === 'string' && v.length > 0 ? v.split(',').map((x) => x.trim()) : []));
}

const kindsOf = (k: ObjectKind | readonly ObjectKind[]): readonly ObjectKind[] =>
  Array.isArray(k) ? k : [k as ObjectKind];

/** Refuses (404) the first declared id that lies outside the caller's organizations. */
export async function refuseForeignObjects(caller: BoundedCaller, refs: ObjectRefs, input: unknown): Promise<void> {
  if (!caller.principal || caller.principal.organizationIds === null) return;
  for (const [path, declared] of Object.entries(refs)) {
    const ids = [...new Set(valuesAt(input, path))].slice(0, 10_000);
    if (!ids.length) continue;
    for (const kind of kindsOf(declared)) {
      if (!isOrganizationKind(kind)) continue;
      const { entity, what } = ORGANIZATION_KINDS[kind];
      const [foreign] = await foreignIds(caller, entity as EntitySchema<ObjectLiteral>, ids);
      if (foreign) throw notFound(`${what} ${foreign}`);
    }
  }
}
