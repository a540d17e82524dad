import type { MigrationInterface, QueryRunner } from 'typeorm';

/** One-time tickets of the company sign-in (OpenID state, SAML request ids, hand-offs to the page). */
export class SsoTickets1765584000000 implements MigrationInterface {
  name = 'SsoTickets1765584000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'CREATE TABLE "sso_tickets" ("keyHash" varchar(64) PRIMARY KEY NOT NULL, "kind" varchar(16) NOT NULL, "data" text NOT NULL, "expiresAt" datetime NOT NULL)',
    );
    await q.query('CREATE INDEX "IDX_sso_tickets_expires" ON "sso_tickets" ("expiresAt")');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE "sso_tickets"');
  }
}
