/** The largest request body any operation takes (data imports, project files). */
export const IMPORT_BODY_LIMIT = 96 * 1024 * 1024;
/** The body limit of every operation that does not declare its own. */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
