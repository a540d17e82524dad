import type { AppMeta } from '../../analytics/model.js';
import type { FieldError } from '../../core/errors.js';
import type { KeptFilter } from '../../model/subscriptions.entity.js';

type Selection = { fieldName: string; selectedValues: string[] };

export const NO_FILTER: KeptFilter = { bookmarkId: null, bookmarkName: null, appId: null, serverAddress: null };

interface FilterInput {
  bookmarkId?: string | null;
  bookmarkName?: string | null;
  serverAddress?: string | null;
}

/**
 * A filter's bookmark, found in the app by id (or, without one, by name): its selections apply under
 * the explicit ones, which win field by field. An unknown bookmark is a 400 naming the field.
 */
export function resolveFilter(
  meta: AppMeta,
  filter: FilterInput | null | undefined,
  selections: Selection[],
  where: string,
  errors: FieldError[],
): { selections: Selection[]; kept: KeptFilter } {
  const kept: KeptFilter = { ...NO_FILTER, appId: meta.appId, serverAddress: filter?.serverAddress ?? null };
  const byId = filter?.bookmarkId?.trim();
  const byName = filter?.bookmarkName?.trim();
  if (!byId && !byName) return { selections, kept };
  const bookmark = byId
    ? meta.bookmarks.find((b) => b.id === byId)
    : meta.bookmarks.find((b) => b.name.toLowerCase() === byName!.toLowerCase());
  if (!bookmark) {
    const field = `${where}.${byId ? 'bookmarkId' : 'bookmarkName'}`;
    // The shared filter is resolved once per report: its mistake is said once.
    if (!errors.some((e) => e.field === field))
      errors.push({ field, message: `is not a bookmark of the app "${meta.name}"` });
    return { selections, kept };
  }
  const explicit = new Set(selections.map((s) => s.fieldName.toLowerCase()));
  const fromBookmark = Object.entries(bookmark.selections)
    .filter(([field]) => !explicit.has(field.toLowerCase()))
    .map(([fieldName, selectedValues]) => ({ fieldName, selectedValues }));
  return {
    selections: [...fromBookmark, ...selections],
    kept: { ...kept, bookmarkId: bookmark.id, bookmarkName: bookmark.name },
  };
}

/** A filter as answered: its selections with a one-line preview, and what was kept of it. */
export function filterDto(selections: Selection[], kept: KeptFilter | undefined) {
  return {
    selections: selections.map((x) => ({
      fieldName: x.fieldName,
      selectedCount: x.selectedValues.length,
      selectedValues: x.selectedValues,
      isNumeric: false,
    })),
    selectionsPreview: selections.length
      ? selections.map((x) => `${x.fieldName}: ${x.selectedValues.join(', ')}`).join('; ')
      : null,
    ...(kept ?? NO_FILTER),
  };
}
