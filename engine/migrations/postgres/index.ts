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

/**
 * SignInOutcomes1765497600000's twin, for databases whose first step came before it (a database
 * made since has the table from its first step already).
 */
export class PostgresSignInOutcomes1765497600000 implements MigrationInterface {
  name = 'PostgresSignInOutcomes1765497600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'CREATE TABLE IF NOT EXISTS "sign_in_outcomes" ("id" character varying(36) NOT NULL, "account" character varying(320) NOT NULL, "address" character varying(64) NOT NULL, "outcome" character varying(8) NOT NULL, "at" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_sign_in_outcomes" PRIMARY KEY ("id"))',
    );
    await q.query('CREATE INDEX IF NOT EXISTS "IDX_sign_in_outcomes_at" ON "sign_in_outcomes" ("at")');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS "sign_in_outcomes"');
  }
}

/** SsoTickets1765584000000's twin, for databases whose first step came before it. */
export class PostgresSsoTickets1765584000000 implements MigrationInterface {
  name = 'PostgresSsoTickets1765584000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'CREATE TABLE IF NOT EXISTS "sso_tickets" ("keyHash" character varying(64) NOT NULL, "kind" character varying(16) NOT NULL, "data" text NOT NULL, "expiresAt" TIMESTAMP WITH TIME ZONE NOT NULL, CONSTRAINT "PK_sso_tickets" PRIMARY KEY ("keyHash"))',
    );
    await q.query('CREATE INDEX IF NOT EXISTS "IDX_sso_tickets_expires" ON "sso_tickets" ("expiresAt")');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS "sso_tickets"');
  }
}

/** ProviderProvisioning1765670400000's twin, for databases whose first step came before it. */
export class PostgresProviderProvisioning1765670400000 implements MigrationInterface {
  name = 'PostgresProviderProvisioning1765670400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'ALTER TABLE "identity_providers" ADD COLUMN IF NOT EXISTS "provision" boolean NOT NULL DEFAULT false',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "identity_providers" DROP COLUMN IF EXISTS "provision"');
  }
}

/** SessionSignOut1765756800000's twin, for databases whose first step came before it. */
export class PostgresSessionSignOut1765756800000 implements MigrationInterface {
  name = 'PostgresSessionSignOut1765756800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "sessions" ADD COLUMN IF NOT EXISTS "providerId" character varying(36)');
    await q.query('ALTER TABLE "sessions" ADD COLUMN IF NOT EXISTS "providerSubject" text');
    await q.query('ALTER TABLE "sessions" ADD COLUMN IF NOT EXISTS "providerSession" text');
    await q.query('CREATE INDEX IF NOT EXISTS "IDX_sessions_provider" ON "sessions" ("providerId", "providerSubject")');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS "IDX_sessions_provider"');
    for (const c of ['providerSession', 'providerSubject', 'providerId'])
      await q.query(`ALTER TABLE "sessions" DROP COLUMN IF EXISTS "${c}"`);
  }
}

/** UserTimeZone1765843200000's twin, for databases whose first step came before it. */
export class PostgresUserTimeZone1765843200000 implements MigrationInterface {
  name = 'PostgresUserTimeZone1765843200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "users" ADD COLUMN IF NOT EXISTS "timeZone" text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "users" DROP COLUMN IF EXISTS "timeZone"');
  }
}

/** CloudStorage1765929600000's twin, for databases whose first step came before it. */
export class PostgresCloudStorage1765929600000 implements MigrationInterface {
  name = 'PostgresCloudStorage1765929600000';

  async up(q: QueryRunner): Promise<void> {
    for (const c of ['account', 'oauth', 'siteUrl', 'library'])
      await q.query(`ALTER TABLE "storage_services" ADD COLUMN IF NOT EXISTS "${c}" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const c of ['library', 'siteUrl', 'oauth', 'account'])
      await q.query(`ALTER TABLE "storage_services" DROP COLUMN IF EXISTS "${c}"`);
  }
}

/**
 * Storage types beyond ten letters (GoogleDrive): PostgreSQL holds a varchar to its length, so the
 * column is widened. SQLite keeps any length in a varchar, so this step has no SQLite twin.
 */
export class PostgresStorageTypeWidth1766016000000 implements MigrationInterface {
  name = 'PostgresStorageTypeWidth1766016000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "storage_services" ALTER COLUMN "type" TYPE character varying(16)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "storage_services" ALTER COLUMN "type" TYPE character varying(10)');
  }
}

/** PostgreSQL's migrations in the order they run; each later one is the twin of a SQLite migration, or a PostgreSQL-only step. */
export const POSTGRES_MIGRATIONS = [
  PostgresInitial1765411200000,
  PostgresSignInOutcomes1765497600000,
  PostgresSsoTickets1765584000000,
  PostgresProviderProvisioning1765670400000,
  PostgresSessionSignOut1765756800000,
  PostgresUserTimeZone1765843200000,
  PostgresCloudStorage1765929600000,
  PostgresStorageTypeWidth1766016000000,
];
