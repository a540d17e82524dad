// Where a test server keeps its data. By default the data folder's SQLite file; in the `postgres`
// project (vitest.config.ts) each server gets a database of its own in the PostgreSQL cluster that
// project started (tests/support/postgres-global.ts), dropped when the server stops.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { PG_USER, postgresUrl } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding the test cluster's socket; empty when the suite runs on SQLite. */
    postgresSocket: string;
  }
}

export interface TestDatabase {
  url: string;
  /** Lets it go: dropped once no engine uses it, unless its folder is kept for a later engine. */
  drop(keep?: boolean): Promise<void>;
}

export const postgresSocket = (): string => {
  try {
    return inject('postgresSocket') ?? '';
  } catch {
    return ''; // outside a vitest worker (a child process): SQLite
  }
};

async function onCluster<T>(socketDir: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ host: socketDir, user: PG_USER, database: 'broadsheet' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * The databases of data folders, so that what shares a folder on SQLite shares a database here: an
 * engine restarted on its folder, two engines on one folder, an engine in a child process. Dropped
 * when the last engine using it lets it go.
 */
const byFolder = new Map<string, { database: TestDatabase; users: number }>();

/** The database of a data folder when the suite runs on PostgreSQL (made at first); undefined on SQLite. */
export async function testDatabase(dataDir: string): Promise<TestDatabase | undefined> {
  const socketDir = postgresSocket();
  if (!socketDir) return undefined;
  const known = byFolder.get(dataDir);
  if (known) {
    known.users++;
    return known.database;
  }
  const name = `bs_${randomBytes(6).toString('hex')}`;
  await onCluster(socketDir, (c) => c.query(`CREATE DATABASE ${name}`));
  const entry = {
    users: 1,
    database: {
      url: postgresUrl(socketDir, name),
      async drop(keep = false) {
        if (--entry.users > 0 || keep) return;
        byFolder.delete(dataDir);
        await onCluster(socketDir, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      },
    },
  };
  byFolder.set(dataDir, entry);
  return entry.database;
}

/** The URL of the database a folder's engine uses, for an engine in a child process (none on SQLite). */
export const folderDatabaseUrl = (dataDir: string): string | undefined => byFolder.get(dataDir)?.database.url;
