import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Expression indexes matching the user list's default sort (full name, case-insensitive) and the
 * e-mail sort, so a page out of many thousand users is read in index order instead of sorted.
 */
export class UserListIndexes1763769600000 implements MigrationInterface {
  name = 'UserListIndexes1763769600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX "IDX_users_fullname_nocase" ON "users" (LOWER("firstName" || ' ' || "lastName"))`);
    await q.query(`CREATE INDEX "IDX_users_email_nocase" ON "users" (LOWER("email"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX "IDX_users_email_nocase"');
    await q.query('DROP INDEX "IDX_users_fullname_nocase"');
  }
}
