import type { MigrationInterface, QueryRunner } from 'typeorm';

/** One-time invitations of set B's user lifecycle, issue 10. */
export class Invitations1764979200000 implements MigrationInterface {
  name = 'Invitations1764979200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'CREATE TABLE "invitations" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "userId" varchar(36) NOT NULL, "tokenHash" varchar(64) NOT NULL, "expiresAt" datetime NOT NULL, "usedAt" datetime, CONSTRAINT "UQ_invitations_token" UNIQUE ("tokenHash"), FOREIGN KEY ("userId") REFERENCES "users" ("id") ON DELETE CASCADE)',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS "invitations"');
  }
}
