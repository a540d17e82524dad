import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * User directory synchronization, issue 10: users and groups remember the directory they came from
 * (and their key there, which survives a rename); each sync is recorded with its counts and log.
 */
export class DirectorySync1765065600000 implements MigrationInterface {
  name = 'DirectorySync1765065600000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['users', 'groups']) {
      await q.query(`ALTER TABLE "${table}" ADD COLUMN "directoryId" varchar(36)`);
      await q.query(`ALTER TABLE "${table}" ADD COLUMN "directoryKey" text`);
      await q.query(`CREATE UNIQUE INDEX "IDX_${table}_directory" ON "${table}" ("directoryId", "directoryKey")`);
    }
    await q.query(
      'CREATE TABLE "directory_syncs" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "directoryId" varchar(36) NOT NULL, "trigger" varchar(16) NOT NULL, "status" varchar(16) NOT NULL, "endedAt" datetime, "created" integer NOT NULL DEFAULT (0), "updated" integer NOT NULL DEFAULT (0), "deactivated" integer NOT NULL DEFAULT (0), "groups" integer NOT NULL DEFAULT (0), "field" text, "message" text, "log" text NOT NULL DEFAULT (\'\'), FOREIGN KEY ("directoryId") REFERENCES "user_directories" ("id") ON DELETE CASCADE)',
    );
    await q.query('CREATE INDEX "IDX_directory_syncs_directory" ON "directory_syncs" ("directoryId", "createdDate")');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS "directory_syncs"');
    for (const table of ['users', 'groups']) {
      await q.query(`DROP INDEX IF EXISTS "IDX_${table}_directory"`);
      await q.query(`ALTER TABLE "${table}" DROP COLUMN "directoryKey"`);
      await q.query(`ALTER TABLE "${table}" DROP COLUMN "directoryId"`);
    }
  }
}
