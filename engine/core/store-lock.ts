import type { DataSource } from 'typeorm';

/**
 * Runs a write to a store while no other engine writes to it. On SQLite, one file has one writer
 * and the engines sharing a folder are serialized by SQLite itself; the in-process write queue
 * (`write-queue.ts`) is then all a handler's check-then-write needs. Several servers on one
 * PostgreSQL database need the same guarantee between them.
 */
export type StoreLock = <T>(store: string, fn: () => Promise<T>) => Promise<T>;

/**
 * PostgreSQL's session advisory lock, one per store, held on a connection of its own while the
 * write runs (its statements use the pool's other connections). A node that dies holding it drops
 * its connection, and PostgreSQL lets the lock go with it: no lease to expire, no stale owner.
 */
export function advisoryStoreLock(ds: DataSource): StoreLock {
  return async (store, fn) => {
    const key = `broadsheet:${store}`;
    const runner = ds.createQueryRunner();
    await runner.connect();
    let broken: Error | undefined;
    try {
      await runner.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
      try {
        return await fn();
      } finally {
        // A lock that could not be given back leaves with its connection, which is closed for it.
        await runner.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch((e: Error) => {
          broken = e;
        });
      }
    } finally {
      // pg's pool closes a connection given back with an error instead of lending it again.
      await (runner as unknown as { releasePostgresConnection(e?: Error): Promise<void> }).releasePostgresConnection(
        broken,
      );
    }
  };
}
