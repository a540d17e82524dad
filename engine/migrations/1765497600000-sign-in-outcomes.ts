import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Sign-in outcomes kept for the throttle, so it holds across restarts and servers. */
export class SignInOutcomes1765497600000 implements MigrationInterface {
  name = 'SignInOutcomes1765497600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'CREATE TABLE "sign_in_outcomes" ("id" varchar(36) PRIMARY KEY NOT NULL, "account" varchar(320) NOT NULL, "address" varchar(64) NOT NULL, "outcome" varchar(8) NOT NULL, "at" datetime NOT NULL)',
    );
    await q.query('CREATE INDEX "IDX_sign_in_outcomes_at" ON "sign_in_outcomes" ("at")');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE "sign_in_outcomes"');
  }
}
