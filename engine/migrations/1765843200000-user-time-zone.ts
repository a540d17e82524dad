import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A person's own time zone (their profile): a task's schedule starts in it, and times shown to them
 * are read in it. Null means the zone of the screen they sign in from.
 */
export class UserTimeZone1765843200000 implements MigrationInterface {
  name = 'UserTimeZone1765843200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "users" ADD COLUMN "timeZone" text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "users" DROP COLUMN "timeZone"');
  }
}
