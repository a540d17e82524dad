/** The largest JSON request body an operation takes (data imports as text, project files). */
export const IMPORT_BODY_LIMIT = 96 * 1024 * 1024;
/** The body limit of every operation that does not declare its own. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
/**
 * The largest file an upload operation takes. Uploads stream to disk as they arrive, so this bounds
 * disk, not memory; an import's own budget (rows and cells) usually stops a file before this does.
 */
export const UPLOAD_BODY_LIMIT = 2 * 1024 * 1024 * 1024;
/**
 * How long a run waits for its database to come back, counted from its first failed call: a
 * restart or a failover takes seconds to minutes; past this the run fails saying so.
 */
export const DEFAULT_OUTAGE_WAIT_MS = 15 * 60_000;
