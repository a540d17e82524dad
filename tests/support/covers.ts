import type { OpId } from '../../engine/catalogue.js';

/**
 * A test block's title tagged with the operations it covers: "title [v1.users.update, …]". The ids
 * are checked against the catalogue, so a renamed or removed operation fails the tests' typecheck,
 * and `grep -rn "v1.users.update" tests` finds every block that exercises it.
 */
export function covers(title: string, ...ids: OpId[]): string {
  return ids.length ? `${title} [${[...new Set(ids)].join(', ')}]` : title;
}
