import type { MigrationInterface, QueryRunner } from 'typeorm';

/** An identity provider may create people on their first sign-in (off unless turned on). */
export class ProviderProvisioning1765670400000 implements MigrationInterface {
  name = 'ProviderProvisioning1765670400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "identity_providers" ADD COLUMN "provision" boolean NOT NULL DEFAULT (0)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "identity_providers" DROP COLUMN "provision"');
  }
}
