// Deliveries try again when a service says "not now": after the wait Retry-After names (seconds or
// a date), else a doubling pause; a refusal that will not change (401, 404) fails at once; a wait
// longer than the longest honoured fails instead of holding the run; each wait is said in the log.
import { describe, expect, it } from 'vitest';
import { retryAfterMs, withRetries, type RetryHint } from '../../engine/core/jobs/retry-after.js';

class Answered extends Error {
  constructor(
    readonly status: number,
    readonly retryAfter: string | null = null,
  ) {
    super(`answered ${status}`);
  }
}
const hint = (e: unknown): RetryHint =>
  e instanceof Answered
    ? { status: e.status, retryAfterMs: retryAfterMs(e.retryAfter, Date.parse('2026-11-27T10:00:00Z')) }
    : { status: null, retryAfterMs: null };

/** A service failing with `failures` in turn, then answering "done"; the waits asked are recorded, not slept. */
function service(...failures: Error[]) {
  const waits: number[] = [];
  const log: string[] = [];
  let calls = 0;
  const attempt = async () => {
    calls++;
    const f = failures.shift();
    if (f) throw f;
    return 'done';
  };
  const o = {
    sleep: async (ms: number) => void waits.push(ms),
    log: (l: string) => void log.push(l),
    firstPauseMs: 500,
  };
  return { attempt, o, waits, log, calls: () => calls };
}

describe('trying a delivery again', () => {
  it('waits as Retry-After says, in seconds or as a date, and says so', async () => {
    const x = service(new Answered(429, '7'), new Answered(503, 'Fri, 27 Nov 2026 10:00:30 GMT'));
    expect(await withRetries('Uploading a.pdf', x.attempt, hint, x.o)).toBe('done');
    expect(x.waits).toEqual([7000, 30_000]);
    expect(x.log[0]).toBe('Uploading a.pdf: the service answered 429; trying again in 7 s (attempt 2 of 3)');
  });

  it('doubles its own pause when none is named, and after a dropped connection', async () => {
    const dropped = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    const x = service(new Answered(502), dropped);
    expect(await withRetries('Uploading', x.attempt, hint, x.o)).toBe('done');
    expect(x.waits).toEqual([500, 1000]);
    expect(x.log[1]).toContain('the connection dropped');
  });

  it('fails at once on a refusal that will not change, and on the third failure', async () => {
    const refused = service(new Answered(401));
    await expect(withRetries('Uploading', refused.attempt, hint, refused.o)).rejects.toThrow('answered 401');
    expect(refused.calls()).toBe(1);
    const busy = service(new Answered(503), new Answered(503), new Answered(503), new Answered(503));
    await expect(withRetries('Uploading', busy.attempt, hint, busy.o)).rejects.toThrow('answered 503');
    expect(busy.calls()).toBe(3);
  });

  it('fails rather than wait longer than the longest wait honoured', async () => {
    const x = service(new Answered(429, '3600'));
    await expect(withRetries('Uploading', x.attempt, hint, { ...x.o, longestWaitMs: 60_000 })).rejects.toThrow(
      'answered 429',
    );
    expect(x.waits).toEqual([]);
  });
});
