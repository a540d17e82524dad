import { retryDelay, type Backoff } from './backoff.js';

/** How a write that must land (a run's outcome) waits for what failed to come back. */
const WAITING: Backoff = { baseMs: 250, maxMs: 5_000 };

/**
 * Runs `write` again while it fails in a way that passes (`passing`: the database out of reach),
 * waiting longer each time, for at most `giveUpAfterMs` of real time; any other failure, or the last
 * one, is thrown. The write must be safe to run twice: a commit whose answer was lost is tried
 * again, so it is guarded (a run's outcome is settled only while held).
 */
export async function retryWhile<T>(
  write: () => Promise<T>,
  o: { passing: (e: unknown) => boolean; giveUpAfterMs: number; waiting?: (e: Error, tries: number) => void },
): Promise<T> {
  const started = performance.now();
  for (let tries = 1; ; tries++) {
    try {
      return await write();
    } catch (e) {
      if (!o.passing(e) || performance.now() - started >= o.giveUpAfterMs) throw e;
      o.waiting?.(e as Error, tries);
      await new Promise((r) => setTimeout(r, retryDelay(tries, WAITING)));
    }
  }
}

/** Waits `ms` unless the signal asks to stop first (then throws its reason). */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(done, ms);
    function done() {
      signal.removeEventListener('abort', stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(signal.reason as Error);
    }
    signal.addEventListener('abort', stop, { once: true });
  });
}
