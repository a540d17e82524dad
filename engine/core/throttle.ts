/**
 * Growing delays after failed credential checks, per key (an account, an address). The first
 * `free` failures cost nothing; each one after that doubles the wait, up to `maxMs`, so a guesser
 * slows to a crawl while the rightful user waits at most `maxMs` and is told how long
 * (Retry-After). A success clears the key; failures older than `forgetMs` are forgotten.
 */
export interface ThrottleRule {
  free: number;
  baseMs: number;
  maxMs: number;
  forgetMs: number;
}

export class Throttle {
  private readonly state = new Map<string, { count: number; last: number }>();

  constructor(
    private readonly rule: ThrottleRule,
    private readonly now: () => number = Date.now,
  ) {}

  /** Milliseconds until the key may try again, or 0. */
  retryAfter(key: string): number {
    const s = this.current(key);
    if (!s || s.count < this.rule.free) return 0;
    const delay = Math.min(this.rule.maxMs, this.rule.baseMs * 2 ** (s.count - this.rule.free));
    return Math.max(0, s.last + delay - this.now());
  }

  fail(key: string): void {
    const s = this.current(key) ?? { count: 0, last: 0 };
    this.state.set(key, { count: s.count + 1, last: this.now() });
    if (this.state.size > 10_000) this.prune();
  }

  succeed(key: string): void {
    this.state.delete(key);
  }

  private current(key: string) {
    const s = this.state.get(key);
    if (s && this.now() - s.last > this.rule.forgetMs) {
      this.state.delete(key);
      return undefined;
    }
    return s;
  }

  private prune(): void {
    for (const key of [...this.state.keys()]) this.current(key);
  }
}

/** Sign-in: five free tries per account, then 1 s, 2 s, 4 s … up to a minute; an address gets fifty. */
export const ACCOUNT_RULE: ThrottleRule = { free: 5, baseMs: 1000, maxMs: 60_000, forgetMs: 15 * 60_000 };
export const ADDRESS_RULE: ThrottleRule = { free: 50, baseMs: 1000, maxMs: 60_000, forgetMs: 15 * 60_000 };
/** Bad bearer tokens from one address (a valid credential is never refused because of them). */
export const TOKEN_RULE: ThrottleRule = { free: 30, baseMs: 500, maxMs: 30_000, forgetMs: 5 * 60_000 };
