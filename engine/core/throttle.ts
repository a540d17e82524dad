import { retryDelay } from './jobs/backoff.js';
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
    const delay = retryDelay(s.count - this.rule.free + 1, this.rule);
    return Math.max(0, s.last + delay - this.now());
  }

  /** A failure now, or (`at`) one recorded earlier and heard again (a restart replaying the database). */
  fail(key: string, at = this.now()): void {
    const s = this.current(key) ?? { count: 0, last: 0 };
    this.state.set(key, { count: s.count + 1, last: Math.max(s.last, at) });
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

/** Sign-in: five free tries per account from one address, then 1 s, 2 s, 4 s … up to a minute; an address gets fifty. */
export const ACCOUNT_AT_ADDRESS_RULE: ThrottleRule = { free: 5, baseMs: 1000, maxMs: 60_000, forgetMs: 15 * 60_000 };
export const ADDRESS_RULE: ThrottleRule = { free: 50, baseMs: 1000, maxMs: 60_000, forgetMs: 15 * 60_000 };
/** An account guessed at from many addresses: twenty free failures in all, then growing delays for unknown addresses. */
export const ACCOUNT_RULE: ThrottleRule = { free: 20, baseMs: 1000, maxMs: 60_000, forgetMs: 60 * 60_000 };

/**
 * Sign-in guessing bounded three ways, without letting anyone lock the rightful user out:
 * - per account *and* address: one guesser slows down on the account they guess at, and only from
 *   where they guess (a wrong password from elsewhere never delays the owner at their own desk);
 * - per address: one place guessing many accounts slows down;
 * - per account across addresses: a guesser spreading over many addresses slows down too, but an
 *   address the account signed in from successfully (recently) is not held by that count.
 */
export class SignInGuard {
  private readonly accountAtAddress: Throttle;
  private readonly address: Throttle;
  private readonly account: Throttle;
  /** Addresses each account signed in from, with when (bounded: the oldest are forgotten first). */
  private readonly known = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {
    this.accountAtAddress = new Throttle(ACCOUNT_AT_ADDRESS_RULE, now);
    this.address = new Throttle(ADDRESS_RULE, now);
    this.account = new Throttle(ACCOUNT_RULE, now);
  }

  private static pair = (account: string, address: string) => `${account}\u0000${address}`;

  private isKnown(account: string, address: string): boolean {
    const at = this.known.get(SignInGuard.pair(account, address));
    return at !== undefined && this.now() - at < KNOWN_ADDRESS_MS;
  }

  /** Milliseconds the caller must wait before this try is even checked, or 0. */
  retryAfter(account: string, address: string): number {
    return Math.max(
      this.accountAtAddress.retryAfter(SignInGuard.pair(account, address)),
      this.address.retryAfter(address),
      this.isKnown(account, address) ? 0 : this.account.retryAfter(account),
    );
  }

  /**
   * Told of each failure and success here: servers sharing a database pass them to each other
   * (`heard`), so guesses spread over N servers are counted as one server would count them.
   */
  tell?: (outcome: SignInOutcome, account: string, address: string) => void;

  fail(account: string, address: string): void {
    this.record('fail', account, address);
    this.tell?.('fail', account, address);
  }

  succeed(account: string, address: string): void {
    this.record('succeed', account, address);
    this.tell?.('succeed', account, address);
  }

  /** A failure or success another server saw, or (`at`) one read back from the database at start. */
  heard(outcome: SignInOutcome, account: string, address: string, at?: number): void {
    this.record(outcome, account, address, at);
  }

  private record(outcome: SignInOutcome, account: string, address: string, at = this.now()): void {
    if (outcome === 'fail') {
      this.accountAtAddress.fail(SignInGuard.pair(account, address), at);
      this.address.fail(address, at);
      this.account.fail(account, at);
      return;
    }
    const key = SignInGuard.pair(account, address);
    this.accountAtAddress.succeed(key);
    this.known.delete(key);
    this.known.set(key, at);
    if (this.known.size > 10_000) this.known.delete(this.known.keys().next().value!);
  }
}

export type SignInOutcome = 'fail' | 'succeed';

/** How long a successful sign-in keeps an address known to its account. */
export const KNOWN_ADDRESS_MS = 30 * 86_400_000;
/** Bad bearer tokens from one address (a valid credential is never refused because of them). */
export const TOKEN_RULE: ThrottleRule = { free: 30, baseMs: 500, maxMs: 30_000, forgetMs: 5 * 60_000 };
