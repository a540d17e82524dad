/** Typed failures of the engine; every path (HTTP, IPC) maps them to the envelope with one status. */
export interface FieldError {
  field: string;
  message: string;
}

export class EngineError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly details: FieldError[] | null = null,
    /** For 429: how long the caller should wait, sent as the Retry-After header. */
    readonly retryAfterMs = 0,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export const badInput = (message: string, details: FieldError[] = []) => new EngineError(400, message, details);
export const fieldError = (field: string, message: string) =>
  new EngineError(400, `${field}: ${message}`, [{ field, message }]);
export const unauthorized = (message = 'Sign in or present a valid API key') => new EngineError(401, message);
export const forbidden = (message: string) => new EngineError(403, message);
export const notFound = (what: string) => new EngineError(404, `${what} was not found`);
/**
 * A lookup named by the request body rather than the path: what is not found there is a wrong field
 * (400 naming it), not a missing resource. Other failures pass through unchanged.
 */
export async function foundOrFieldError<T>(
  lookup: Promise<T>,
  summary: string,
  field: string,
  message: string,
): Promise<T> {
  try {
    return await lookup;
  } catch (e) {
    if (e instanceof EngineError && e.status === 404) throw badInput(summary, [{ field, message }]);
    throw e;
  }
}
export const conflict = (message: string, details: FieldError[] | null = null) =>
  new EngineError(409, message, details);
export const tooMany = (message: string, retryAfterMs: number) => new EngineError(429, message, null, retryAfterMs);
/** The whole seconds a Retry-After header announces for a wait in milliseconds (at least 1). */
export const retryAfterSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export function isEngineError(e: unknown): e is EngineError {
  return e instanceof EngineError;
}

/** For a lookup that may rightly find nothing: null for a 404, every other failure (a 403 among them) passes on. */
export function nullIfNotFound(e: unknown): null {
  if (e instanceof EngineError && e.status === 404) return null;
  throw e;
}

/** For a value the user's content may name wrongly (an unknown variable): null for the engine's refusals, faults pass on. */
export function nullIfRefused(e: unknown): null {
  if (e instanceof EngineError && e.status < 500) return null;
  throw e;
}
