import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Storage services (folders, FTP and FTPS) task reports deliver to, issue 9. */
export class StorageServices1764460800000 implements MigrationInterface {
  name = 'StorageServices1764460800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'CREATE TABLE "storage_services" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "name" text NOT NULL, "description" text, "type" varchar(10) NOT NULL, "host" text, "port" integer, "username" text, "password" text, "passiveMode" boolean NOT NULL DEFAULT (1), "rootPath" text, "isDefault" boolean NOT NULL DEFAULT (0))',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS "storage_services"');
  }
}
