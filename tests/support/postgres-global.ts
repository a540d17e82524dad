// The `postgres` project's global setup: one PostgreSQL cluster for the run, its socket handed to
// the test workers (each server makes its own database there: tests/support/test-database.ts).
import type { TestProject } from 'vitest/node';
import { startPostgres, type TestPostgres } from './postgres.js';

let cluster: TestPostgres | undefined;

export async function setup(project: TestProject) {
  cluster = await startPostgres();
  project.provide('postgresSocket', cluster.socketDir);
}

export async function teardown() {
  await cluster?.close();
}
