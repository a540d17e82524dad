/** How long a job waits before its next attempt: doubling from `baseMs`, never more than `maxMs`. */
export interface Backoff {
  baseMs: number;
  maxMs: number;
}

/** The delay before attempt `attempts + 1`, after `attempts` tries (1 or more) have failed. */
export function retryDelay(attempts: number, b: Backoff): number {
  return Math.min(b.maxMs, b.baseMs * 2 ** Math.max(0, attempts - 1));
}
