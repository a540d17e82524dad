/** The store an app's writes queue on: its data file and metadata, apart from the main database's writes. */
export const appStore = (appRowId: string) => `analytics:${appRowId}`;

/** Writes to an app (its data file and metadata) queue per app, apart from the main database's writes. */
export const APP_STORE = {
  store: (raw: { params?: unknown }) => appStore(String((raw.params as { id?: unknown } | undefined)?.id ?? '')),
};
