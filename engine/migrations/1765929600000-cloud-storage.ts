import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Storage services on cloud drives (OneDrive, SharePoint): the account connected (its name, shown),
 * its tokens sealed like other secrets, and for SharePoint the site's address and its document
 * library.
 */
export class CloudStorage1765929600000 implements MigrationInterface {
  name = 'CloudStorage1765929600000';

  async up(q: QueryRunner): Promise<void> {
    for (const c of ['account', 'oauth', 'siteUrl', 'library'])
      await q.query(`ALTER TABLE "storage_services" ADD COLUMN "${c}" text`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const c of ['library', 'siteUrl', 'oauth', 'account'])
      await q.query(`ALTER TABLE "storage_services" DROP COLUMN "${c}"`);
  }
}
