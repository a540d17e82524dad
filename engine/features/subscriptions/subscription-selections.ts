import type { Selections } from '../../analytics/model.js';

/** Field selections as the interface sends them (set A 2.16), as the engine takes them. */
export function selectionsOf(list: { fieldName: string; selectedValues: string[] }[]): Selections {
  const out: Selections = {};
  for (const s of list)
    if (s.selectedValues.length) out[s.fieldName] = [...(out[s.fieldName] ?? []), ...s.selectedValues];
  return out;
}
