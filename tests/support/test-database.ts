// Where a test server keeps its data. By default the data folder's SQLite file; in the `postgres`
// project (vitest.config.ts) each server gets a database of its own in the PostgreSQL cluster that
// project started (tests/support/postgres-global.ts), dropped when the server stops.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { PG_USER } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder holding the test cluster's socket; empty when the suite runs on SQLite. */
    postgresSocket: string;
  }
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export const postgresSocket = (): string => {
  try {
    return inject('postgresSocket') ?? '';
  } catch {
    return ''; // outside a vitest worker (a child process): SQLite
  }
};

/** The URL of a database made for one engine, on the given cluster's socket. */
export const postgresUrl = (socketDir: string, database: string) =>
  `postgresql://${PG_USER}@localhost/${database}?host=${encodeURIComponent(socketDir)}`;

async function onCluster<T>(socketDir: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ host: socketDir, user: PG_USER, database: 'broadsheet' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh database for one test engine when the suite runs on PostgreSQL; undefined on SQLite. */
export async function testDatabase(): Promise<TestDatabase | undefined> {
  const socketDir = postgresSocket();
  if (!socketDir) return undefined;
  const name = `bs_${randomBytes(6).toString('hex')}`;
  await onCluster(socketDir, (c) => c.query(`CREATE DATABASE ${name}`));
  return {
    url: postgresUrl(socketDir, name),
    drop: () => onCluster(socketDir, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}
