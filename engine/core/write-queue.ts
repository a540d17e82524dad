import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource } from 'typeorm';
import type { StoreLock } from './store-lock.js';

/** A store's turn being taken, and by the turns around it: while `active`, writes from within it run in it. */
interface Turn {
  store: string;
  active: boolean;
  outer: Turn | undefined;
}

/**
 * One queue of writes per store. The main database has one writer (SQLite), so its writes run one
 * at a time; an analytics app's data file is another store with its own queue, so a long import
 * into it never holds up a group being created. Long writes to one store are cut into chunks, each
 * queued on its own, so short writes slip in between.
 */
export class WriteQueues {
  private readonly tails = new Map<string, Promise<unknown>>();
  private readonly turns = new AsyncLocalStorage<Turn>();

  /** `across` holds other engines off a store while this one writes (servers sharing PostgreSQL). */
  constructor(private readonly across?: StoreLock) {}

  /**
   * Runs `fn` in `store`'s turn. A write asked for from within that turn (a transaction opened in
   * it) is part of it: it runs at once instead of waiting behind the turn it is in, forever.
   */
  run<T>(store: string, fn: () => Promise<T>): Promise<T> {
    if (this.holds(store)) return fn();
    const tail = this.tails.get(store) ?? Promise.resolve();
    const across = this.across;
    const inTurn = () => {
      const turn: Turn = { store, active: true, outer: this.turns.getStore() };
      // Work left floating by the turn that outlives it waits its own turn again.
      return this.turns.run(turn, fn).finally(() => (turn.active = false));
    };
    const write = across ? () => across(store, inTurn) : inTurn;
    const run = tail.then(write, write);
    // Forget an idle store's tail so the map does not grow with every app ever written.
    const forget = () => {
      if (this.tails.get(store) === settled) this.tails.delete(store);
    };
    const settled: Promise<void> = run.then(forget, forget);
    this.tails.set(store, settled);
    return run;
  }

  private holds(store: string): boolean {
    for (let t = this.turns.getStore(); t; t = t.outer) if (t.active && t.store === store) return true;
    return false;
  }

  /** Waits for every queued write (engine shutdown). */
  async drain(): Promise<void> {
    while (this.tails.size) await Promise.all([...this.tails.values()]);
  }
}

export const MAIN_STORE = 'main';

/**
 * SQLite has one connection, shared by every transaction TypeORM opens on it: two opened at once
 * are one transaction, and one's rollback takes the other's writes with it (a clean stop's
 * hand-back was lost that way to the first start's demo content). So on SQLite every transaction
 * takes the main store's turn; one opened within a turn is part of it.
 */
export function transactionsTakeTurns(db: DataSource, queues: WriteQueues): void {
  const manager = db.manager;
  const transaction = manager.transaction.bind(manager) as (...args: unknown[]) => Promise<unknown>;
  manager.transaction = ((...args: unknown[]) =>
    queues.run(MAIN_STORE, () => transaction(...args))) as typeof manager.transaction;
}
