import type { StoreLock } from './store-lock.js';

/**
 * One queue of writes per store. The main database has one writer (SQLite), so its writes run one
 * at a time; an analytics app's data file is another store with its own queue, so a long import
 * into it never holds up a group being created. Long writes to one store are cut into chunks, each
 * queued on its own, so short writes slip in between.
 */
export class WriteQueues {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** `across` holds other engines off a store while this one writes (servers sharing PostgreSQL). */
  constructor(private readonly across?: StoreLock) {}

  run<T>(store: string, fn: () => Promise<T>): Promise<T> {
    const tail = this.tails.get(store) ?? Promise.resolve();
    const across = this.across;
    const write = across ? () => across(store, fn) : fn;
    const run = tail.then(write, write);
    // Forget an idle store's tail so the map does not grow with every app ever written.
    const forget = () => {
      if (this.tails.get(store) === settled) this.tails.delete(store);
    };
    const settled: Promise<void> = run.then(forget, forget);
    this.tails.set(store, settled);
    return run;
  }

  /** Waits for every queued write (engine shutdown). */
  async drain(): Promise<void> {
    while (this.tails.size) await Promise.all([...this.tails.values()]);
  }
}

export const MAIN_STORE = 'main';
