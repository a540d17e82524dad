import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A session a company sign-in made remembers whom the provider signed in (SAML's NameID and
 * SessionIndex), so signing out here can end the provider's session too, and the provider's own
 * logout request can end the sessions it names.
 */
export class SessionSignOut1765756800000 implements MigrationInterface {
  name = 'SessionSignOut1765756800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "sessions" ADD COLUMN "providerId" varchar(36)');
    await q.query('ALTER TABLE "sessions" ADD COLUMN "providerSubject" text');
    await q.query('ALTER TABLE "sessions" ADD COLUMN "providerSession" text');
    await q.query('CREATE INDEX "IDX_sessions_provider" ON "sessions" ("providerId", "providerSubject")');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX "IDX_sessions_provider"');
    for (const c of ['providerSession', 'providerSubject', 'providerId'])
      await q.query(`ALTER TABLE "sessions" DROP COLUMN "${c}"`);
  }
}
