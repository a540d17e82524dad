import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reloads on a schedule: an app's reload schedule (the forms of a task's), and reloads as rows of the
 * one job kernel — queued per slot (unique by app and slot), claimed with a lease by one server.
 */
export class ReloadQueue1766188800000 implements MigrationInterface {
  name = 'ReloadQueue1766188800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "app_reloads" ADD COLUMN "scheduledFor" datetime');
    await q.query('ALTER TABLE "app_reloads" ADD COLUMN "claimedBy" varchar(64)');
    await q.query('ALTER TABLE "app_reloads" ADD COLUMN "leaseUntil" datetime');
    await q.query('ALTER TABLE "app_reloads" ADD COLUMN "attempts" integer NOT NULL DEFAULT (0)');
    await q.query('CREATE UNIQUE INDEX "UQ_app_reloads_slot" ON "app_reloads" ("appId", "scheduledFor")');
    await q.query('CREATE INDEX "IDX_app_reloads_lease" ON "app_reloads" ("status", "leaseUntil")');
    await q.query(
      `CREATE TABLE "app_reload_schedules" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "appId" varchar(36) NOT NULL, "isActive" boolean NOT NULL DEFAULT (1), "timeZone" text NOT NULL, "schedule" text NOT NULL, "startDate" datetime NOT NULL, "endDate" datetime, "lastScheduledFor" datetime, "nextFireTime" datetime, FOREIGN KEY ("appId") REFERENCES "analytics_apps" ("id") ON DELETE CASCADE)`,
    );
    await q.query('CREATE UNIQUE INDEX "UQ_app_reload_schedules_app" ON "app_reload_schedules" ("appId")');
    await q.query('CREATE INDEX "IDX_app_reload_schedules_next" ON "app_reload_schedules" ("nextFireTime")');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE "app_reload_schedules"');
    await q.query('DROP INDEX "IDX_app_reloads_lease"');
    await q.query('DROP INDEX "UQ_app_reloads_slot"');
    for (const c of ['attempts', 'leaseUntil', 'claimedBy', 'scheduledFor'])
      await q.query(`ALTER TABLE "app_reloads" DROP COLUMN "${c}"`);
  }
}
