import type { MigrationInterface, QueryRunner } from 'typeorm';
import { POSTGRES_INITIAL } from './initial.generated.js';

/** PostgreSQL's first step: what SQLite's first migrations build, at once (initial.generated.ts). */
export class PostgresInitial1765411200000 implements MigrationInterface {
  name = 'PostgresInitial1765411200000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of POSTGRES_INITIAL.statements) await q.query(sql);
  }

  async down(): Promise<void> {
    throw new Error('The first step of a database is not undone: drop the database instead');
  }
}

/** PostgreSQL's migrations in the order they run; each later one is the twin of a SQLite migration. */
export const POSTGRES_MIGRATIONS = [PostgresInitial1765411200000];
