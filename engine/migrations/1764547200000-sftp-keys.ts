import type { MigrationInterface, QueryRunner } from 'typeorm';

/** SFTP storage services sign in with a private key as well as a password, issue 9. */
export class SftpKeys1764547200000 implements MigrationInterface {
  name = 'SftpKeys1764547200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "storage_services" ADD COLUMN "privateKey" text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "storage_services" DROP COLUMN "privateKey"');
  }
}
