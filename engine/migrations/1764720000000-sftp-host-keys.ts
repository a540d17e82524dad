import type { MigrationInterface, QueryRunner } from 'typeorm';

/** SFTP services pin their server's host key on first use, issue 9. */
export class SftpHostKeys1764720000000 implements MigrationInterface {
  name = 'SftpHostKeys1764720000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "storage_services" ADD COLUMN "hostKey" text');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "storage_services" DROP COLUMN "hostKey"');
  }
}
