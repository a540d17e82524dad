// A delivery to a service that says "not now" (429 Too Many Requests, 503 Service Unavailable) or
// drops the connection is tried again: after the wait its Retry-After names, else after the kernel's
// doubling pause (backoff.ts); the third failure is the answer. Each wait is said in the run's log.
import { retryDelay } from './backoff.js';

export interface RetryOptions {
  attempts?: number;
  /** The first pause when the service names none; it doubles with each try. */
  firstPauseMs?: number;
  /** The longest wait honoured: a service asking for more fails the delivery instead of holding the run. */
  longestWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
  log?: (line: string) => void;
}

/** What a failure says about trying again: the status, and the wait the service asked for (ms), if any. */
export interface RetryHint {
  status: number | null;
  retryAfterMs: number | null;
}

const TRANSIENT_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'UND_ERR_SOCKET']);

/** Reads Retry-After as seconds or as an HTTP date. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | null {
  if (!header) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** Whether a failure is worth another try: busy, unavailable, a gateway's hiccup, or a dropped connection. */
export function isTransient(e: unknown, hint: RetryHint): boolean {
  if (hint.status !== null)
    return hint.status === 429 || hint.status === 502 || hint.status === 503 || hint.status === 504;
  const code =
    (e as { code?: string; cause?: { code?: string } }).code ?? (e as { cause?: { code?: string } }).cause?.code;
  return !!code && TRANSIENT_CODES.has(code);
}

const pause = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref?.());

export async function withRetries<T>(
  what: string,
  attempt: () => Promise<T>,
  hintOf: (e: unknown) => RetryHint,
  o: RetryOptions = {},
): Promise<T> {
  const attempts = o.attempts ?? 3;
  const longest = o.longestWaitMs ?? 120_000;
  const pauses = { baseMs: o.firstPauseMs ?? 1_000, maxMs: longest };
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (e) {
      const hint = hintOf(e);
      if (n >= attempts || !isTransient(e, hint)) throw e;
      const wait = hint.retryAfterMs ?? retryDelay(n, pauses);
      if (wait > longest) throw e;
      o.log?.(
        `${what}: ${hint.status ? `the service answered ${hint.status}` : 'the connection dropped'}; trying again in ${Math.ceil(wait / 1000)} s (attempt ${n + 1} of ${attempts})`,
      );
      await (o.sleep ?? pause)(wait);
    }
  }
}
