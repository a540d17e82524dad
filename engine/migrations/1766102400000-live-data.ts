import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Data that stays fresh: the databases analytics apps load from (their passwords sealed), each app's
 * sources (a query on a connection; a connection in use is not deleted), and the history of reloads.
 */
export class LiveData1766102400000 implements MigrationInterface {
  name = 'LiveData1766102400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "data_connections" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "name" text NOT NULL, "description" text, "kind" varchar(16) NOT NULL, "host" text, "port" integer, "database" text, "username" text, "password" text, "tls" varchar(8) NOT NULL DEFAULT ('off'), "filePath" text)`,
    );
    await q.query(
      `CREATE TABLE "app_sources" ("id" varchar(36) PRIMARY KEY NOT NULL, "appId" varchar(36) NOT NULL, "name" text NOT NULL, "connectionId" varchar(36) NOT NULL, "query" text NOT NULL, "order" integer NOT NULL DEFAULT (0), FOREIGN KEY ("appId") REFERENCES "analytics_apps" ("id") ON DELETE CASCADE, FOREIGN KEY ("connectionId") REFERENCES "data_connections" ("id") ON DELETE RESTRICT)`,
    );
    await q.query('CREATE INDEX "IDX_app_sources_app" ON "app_sources" ("appId")');
    await q.query(
      `CREATE TABLE "app_reloads" ("id" varchar(36) PRIMARY KEY NOT NULL, "appId" varchar(36) NOT NULL, "trigger" varchar(16) NOT NULL, "status" varchar(16) NOT NULL, "startedAt" datetime NOT NULL, "endedAt" datetime, "rows" integer, "message" text, "startedBy" varchar(36), FOREIGN KEY ("appId") REFERENCES "analytics_apps" ("id") ON DELETE CASCADE)`,
    );
    await q.query('CREATE INDEX "IDX_app_reloads_app" ON "app_reloads" ("appId", "startedAt")');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['app_reloads', 'app_sources', 'data_connections']) await q.query(`DROP TABLE "${t}"`);
  }
}
