import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Directories saved by releases that kept their synchronization as text they never acted on
 * ("Hourly") would start connecting with the stored password after an upgrade, unasked. Behaviour a
 * release did not have starts only when a person turns it on: every directory this release's
 * scheduler has never synchronized on its own is set to Manual, and its status says so.
 */
export class DirectorySchedulesAsked1765152000000 implements MigrationInterface {
  name = 'DirectorySchedulesAsked1765152000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE "user_directories"
         SET "syncStatus" = 'Set to Manual by the upgrade (it said ' || "synchronization" || ', which earlier releases never acted on): choose a schedule to synchronize on one',
             "synchronization" = 'Manual'
       WHERE "synchronization" <> 'Manual'
         AND "id" NOT IN (SELECT "directoryId" FROM "directory_syncs" WHERE "trigger" = 'schedule')`,
    );
  }

  async down(): Promise<void> {
    // What a person had not turned on stays off: nothing to restore.
  }
}
