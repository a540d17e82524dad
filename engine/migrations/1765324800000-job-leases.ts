import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The job kernel: requests, outbox messages and directory syncs are claimed with an owner and a
 * lease (so engines sharing a data folder never take each other's live work, and recovery touches
 * only lapsed leases), attempts are counted at the claim, and directories keep their next
 * synchronization like schedule triggers, a slot keyed once by (directory, scheduled-for).
 */
export class JobLeases1765324800000 implements MigrationInterface {
  name = 'JobLeases1765324800000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['requests', 'outbox', 'directory_syncs']) {
      await q.query(`ALTER TABLE "${table}" ADD COLUMN "claimedBy" varchar(64)`);
      await q.query(`ALTER TABLE "${table}" ADD COLUMN "leaseUntil" datetime`);
      await q.query(`CREATE INDEX "IDX_${table}_lease" ON "${table}" ("status", "leaseUntil")`);
    }
    await q.query('ALTER TABLE "requests" ADD COLUMN "attempts" integer NOT NULL DEFAULT (0)');
    await q.query('ALTER TABLE "directory_syncs" ADD COLUMN "attempts" integer NOT NULL DEFAULT (0)');
    await q.query('ALTER TABLE "directory_syncs" ADD COLUMN "scheduledFor" datetime');
    await q.query('CREATE UNIQUE INDEX "UQ_directory_syncs_slot" ON "directory_syncs" ("directoryId", "scheduledFor")');
    await q.query('ALTER TABLE "user_directories" ADD COLUMN "nextFireTime" datetime');
    await q.query('ALTER TABLE "user_directories" ADD COLUMN "lastScheduledFor" datetime');
    // Requests and syncs running when the last release stopped were claimed once.
    await q.query(`UPDATE "requests" SET "attempts" = 1 WHERE "status" = 'running'`);
    await q.query(`UPDATE "directory_syncs" SET "attempts" = 1 WHERE "status" = 'running'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS "UQ_directory_syncs_slot"');
    for (const table of ['requests', 'outbox', 'directory_syncs']) {
      await q.query(`DROP INDEX IF EXISTS "IDX_${table}_lease"`);
      await q.query(`ALTER TABLE "${table}" DROP COLUMN "claimedBy"`);
      await q.query(`ALTER TABLE "${table}" DROP COLUMN "leaseUntil"`);
    }
    await q.query('ALTER TABLE "requests" DROP COLUMN "attempts"');
    await q.query('ALTER TABLE "directory_syncs" DROP COLUMN "attempts"');
    await q.query('ALTER TABLE "directory_syncs" DROP COLUMN "scheduledFor"');
    await q.query('ALTER TABLE "user_directories" DROP COLUMN "nextFireTime"');
    await q.query('ALTER TABLE "user_directories" DROP COLUMN "lastScheduledFor"');
  }
}
