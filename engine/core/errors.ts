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

/**
 * The words every "an optional module of this installation is missing" error carries, so the
 * caller's answer says it (501) wherever it was thrown, a render thread included.
 */
export const MISSING_MODULE = 'which was not installed';

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

/** The wait a caller is told (Retry-After) while the database cannot be reached. */
export const DATABASE_RETRY_AFTER_MS = 5_000;

/** A driver error's code, wherever TypeORM or pg put it. */
function codeOf(e: unknown): string {
  const x = e as { code?: unknown; errno?: unknown; driverError?: { code?: unknown } } | null;
  const code = x?.driverError?.code ?? x?.code;
  return typeof code === 'string' ? code : '';
}

/** Connection failures (errno) and PostgreSQL's classes 08 (connection) and 57P (shut down, starting up). */
const DATABASE_DOWN_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH']);
/** SQLite's answers that pass once another writer, the disk or the file comes back. */
const SQLITE_TRANSIENT = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_CANTOPEN']);
/** pg's words for a connection that went away under a query (no code on these). */
const DOWN_MESSAGES = [
  'Connection terminated',
  'connection error and is not queryable',
  'Client was closed and is not queryable',
  'terminating connection',
  'the database system is shutting down',
  'the database system is starting up',
  'timeout exceeded when trying to connect',
];

/**
 * A failure of the database's reachability rather than of the call: PostgreSQL restarting or
 * unreachable, SQLite busy, its disk full or failing. The call may succeed later, so it is answered
 * 503 with Retry-After, and background work waits and tries again instead of failing for good.
 */
export function isDatabaseUnavailable(e: unknown): boolean {
  if (isEngineError(e)) return false;
  const code = codeOf(e);
  // Any failure to connect (a Unix socket gone while PostgreSQL restarts answers ENOENT).
  const syscall = (e as { syscall?: unknown; driverError?: { syscall?: unknown } } | null)?.driverError?.syscall;
  if ((e as { syscall?: unknown } | null)?.syscall === 'connect' || syscall === 'connect') return true;
  if (DATABASE_DOWN_CODES.has(code) || code.startsWith('08') || code.startsWith('57P')) return true;
  if ([...SQLITE_TRANSIENT].some((c) => code === c || (e as Error)?.message?.startsWith(`${c}:`))) return true;
  const message = e instanceof Error ? e.message : '';
  return DOWN_MESSAGES.some((m) => message.includes(m));
}

/** What a caller is told while the database cannot be reached, in words (a full disk said as such). */
export function databaseUnavailable(e: unknown): EngineError {
  const full = codeOf(e) === 'SQLITE_FULL' || (e as Error)?.message?.startsWith('SQLITE_FULL');
  return new EngineError(
    503,
    full
      ? 'The disk holding the database is full: nothing was written. Free some space, then try again'
      : 'The database cannot be reached just now: nothing was written. Try again in a few seconds',
    null,
    DATABASE_RETRY_AFTER_MS,
  );
}

/** A file write that failed because the disk under the data folder is full (or the user's quota is). */
export function isDiskFull(e: unknown): boolean {
  return !isEngineError(e) && ['ENOSPC', 'EDQUOT'].includes(codeOf(e));
}

/** What a caller is told when the files' disk is full: nothing kept, try again once there is room. */
export function diskFull(): EngineError {
  return new EngineError(
    503,
    "The disk holding Broadsheet's data is full: nothing was written. Free some space, then try again",
    null,
    DATABASE_RETRY_AFTER_MS,
  );
}

/** Failures of the disk under the files folder that pass (a share remounted, space freed, rights restored). */
const STORAGE_TRANSIENT = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'EIO', 'ESTALE', 'EBUSY', 'EAGAIN']);

/** A file operation that failed because of the storage under the engine, not the run's content. */
export function isStorageTransient(e: unknown): boolean {
  return !isEngineError(e) && STORAGE_TRANSIENT.has(codeOf(e));
}
