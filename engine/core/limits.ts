/** The largest request body any operation takes (data imports, project files). */
export const IMPORT_BODY_LIMIT = 96 * 1024 * 1024;
