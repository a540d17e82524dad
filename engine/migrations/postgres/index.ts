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

/** LiveData1766102400000's twin, for databases whose first step came before it. */
export class PostgresLiveData1766102400000 implements MigrationInterface {
  name = 'PostgresLiveData1766102400000';

  async up(q: QueryRunner): Promise<void> {
    const [{ existed }] = await q.query("SELECT to_regclass('data_connections') IS NOT NULL AS existed");
    await q.query(
      'CREATE TABLE IF NOT EXISTS "data_connections" ("id" character varying(36) NOT NULL, "createdDate" TIMESTAMP WITH TIME ZONE NOT NULL, "modifiedDate" TIMESTAMP WITH TIME ZONE NOT NULL, "name" text NOT NULL, "description" text, "kind" character varying(16) NOT NULL, "host" text, "port" integer, "database" text, "username" text, "password" text, "tls" character varying(8) NOT NULL DEFAULT \'off\', "filePath" text, CONSTRAINT "PK_6c690afa0c8425bb416561f16d5" PRIMARY KEY ("id"))',
    );
    await q.query(
      'CREATE TABLE IF NOT EXISTS "app_sources" ("id" character varying(36) NOT NULL, "appId" character varying(36) NOT NULL, "name" text NOT NULL, "connectionId" character varying(36) NOT NULL, "query" text NOT NULL, "order" integer NOT NULL DEFAULT \'0\', CONSTRAINT "PK_2ddc80204b9ea65126644330017" PRIMARY KEY ("id"))',
    );
    await q.query('CREATE INDEX IF NOT EXISTS "IDX_app_sources_app" ON "app_sources" ("appId") ');
    await q.query(
      'CREATE TABLE IF NOT EXISTS "app_reloads" ("id" character varying(36) NOT NULL, "appId" character varying(36) NOT NULL, "trigger" character varying(16) NOT NULL, "status" character varying(16) NOT NULL, "startedAt" TIMESTAMP WITH TIME ZONE NOT NULL, "endedAt" TIMESTAMP WITH TIME ZONE, "rows" integer, "message" text, "startedBy" character varying(36), CONSTRAINT "PK_6108c11568824279416600e4dd9" PRIMARY KEY ("id"))',
    );
    await q.query('CREATE INDEX IF NOT EXISTS "IDX_app_reloads_app" ON "app_reloads" ("appId", "startedAt") ');
    // The keys come with the tables: a database made since has both from its first step.
    if (!existed) {
      await q.query(
        'ALTER TABLE "app_sources" ADD CONSTRAINT "FK_bd3c7aa34b03470c7ff5d195e98" FOREIGN KEY ("appId") REFERENCES "analytics_apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
      );
      await q.query(
        'ALTER TABLE "app_sources" ADD CONSTRAINT "FK_8dd46550eacea094a3ef5af33c5" FOREIGN KEY ("connectionId") REFERENCES "data_connections"("id") ON DELETE RESTRICT ON UPDATE NO ACTION',
      );
      await q.query(
        'ALTER TABLE "app_reloads" ADD CONSTRAINT "FK_d45e76d69d6a7eb07cee5a4cce8" FOREIGN KEY ("appId") REFERENCES "analytics_apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['app_reloads', 'app_sources', 'data_connections']) await q.query(`DROP TABLE IF EXISTS "${t}"`);
  }
}

/** ReloadQueue1766188800000's twin, for databases whose first step came before it. */
export class PostgresReloadQueue1766188800000 implements MigrationInterface {
  name = 'PostgresReloadQueue1766188800000';

  async up(q: QueryRunner): Promise<void> {
    const [{ existed }] = await q.query("SELECT to_regclass('app_reload_schedules') IS NOT NULL AS existed");
    const columns = [
      '"scheduledFor" TIMESTAMP WITH TIME ZONE',
      '"claimedBy" character varying(64)',
      '"leaseUntil" TIMESTAMP WITH TIME ZONE',
      '"attempts" integer NOT NULL DEFAULT \'0\'',
    ];
    for (const c of columns) await q.query(`ALTER TABLE "app_reloads" ADD COLUMN IF NOT EXISTS ${c}`);
    await q.query(
      'CREATE UNIQUE INDEX IF NOT EXISTS "UQ_app_reloads_slot" ON "app_reloads" ("appId", "scheduledFor") ',
    );
    await q.query('CREATE INDEX IF NOT EXISTS "IDX_app_reloads_lease" ON "app_reloads" ("status", "leaseUntil") ');
    await q.query(
      'CREATE TABLE IF NOT EXISTS "app_reload_schedules" ("id" character varying(36) NOT NULL, "createdDate" TIMESTAMP WITH TIME ZONE NOT NULL, "modifiedDate" TIMESTAMP WITH TIME ZONE NOT NULL, "appId" character varying(36) NOT NULL, "isActive" boolean NOT NULL DEFAULT true, "timeZone" text NOT NULL, "schedule" text NOT NULL, "startDate" TIMESTAMP WITH TIME ZONE NOT NULL, "endDate" TIMESTAMP WITH TIME ZONE, "lastScheduledFor" TIMESTAMP WITH TIME ZONE, "nextFireTime" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_7e3a80c0d669edad11813b85cd8" PRIMARY KEY ("id"))',
    );
    await q.query(
      'CREATE UNIQUE INDEX IF NOT EXISTS "UQ_app_reload_schedules_app" ON "app_reload_schedules" ("appId") ',
    );
    await q.query(
      'CREATE INDEX IF NOT EXISTS "IDX_app_reload_schedules_next" ON "app_reload_schedules" ("nextFireTime") ',
    );
    if (!existed)
      await q.query(
        'ALTER TABLE "app_reload_schedules" ADD CONSTRAINT "FK_821509af6d7bd509b5077f255e4" FOREIGN KEY ("appId") REFERENCES "analytics_apps"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
      );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS "app_reload_schedules"');
    await q.query('DROP INDEX IF EXISTS "IDX_app_reloads_lease"');
    await q.query('DROP INDEX IF EXISTS "UQ_app_reloads_slot"');
    for (const c of ['attempts', 'leaseUntil', 'claimedBy', 'scheduledFor'])
      await q.query(`ALTER TABLE "app_reloads" DROP COLUMN IF EXISTS "${c}"`);
  }
}

/** OrganizationWalls1766275200000's twin. */
export class PostgresOrganizationWalls1766275200000 implements MigrationInterface {
  name = 'PostgresOrganizationWalls1766275200000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['data_connections', 'storage_services']) {
      await q.query(`ALTER TABLE "${table}" ADD COLUMN IF NOT EXISTS "organizationId" character varying(36)`);
      await q.query(
        `UPDATE "${table}" SET "organizationId" = (SELECT o.id FROM organizations o ORDER BY o."createdDate", o.id LIMIT 1) WHERE "organizationId" IS NULL`,
      );
    }
    await q.query(`UPDATE "groups" SET "organizationId" = NULL WHERE "type" = 'system'`);
    await q.query('ALTER TABLE "identity_providers" ADD COLUMN IF NOT EXISTS "audience" text');
    await q.query('ALTER TABLE "identity_providers" ADD COLUMN IF NOT EXISTS "scopes" text');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['data_connections', 'storage_services'])
      await q.query(`ALTER TABLE "${table}" DROP COLUMN IF EXISTS "organizationId"`);
    for (const c of ['scopes', 'audience'])
      await q.query(`ALTER TABLE "identity_providers" DROP COLUMN IF EXISTS "${c}"`);
  }
}

/**
 * PostgreSQL's hand-written migrations in the order they run: each later one the twin of a SQLite
 * migration, or a PostgreSQL-only step. Those written once for both follow them (../index.ts).
 */
export const POSTGRES_HAND_WRITTEN = [
  PostgresInitial1765411200000,
  PostgresSignInOutcomes1765497600000,
  PostgresSsoTickets1765584000000,
  PostgresProviderProvisioning1765670400000,
  PostgresSessionSignOut1765756800000,
  PostgresUserTimeZone1765843200000,
  PostgresCloudStorage1765929600000,
  PostgresStorageTypeWidth1766016000000,
  PostgresLiveData1766102400000,
  PostgresReloadQueue1766188800000,
  PostgresOrganizationWalls1766275200000,
];
