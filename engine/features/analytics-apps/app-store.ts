/** Writes to an app (its data file and metadata) queue per app, apart from the main database's writes. */
export const APP_STORE = {
  store: (raw: { params?: unknown }) => `analytics:${String((raw.params as { id?: unknown } | undefined)?.id ?? '')}`,
};
