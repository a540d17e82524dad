import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Data connections and storages belong to an organization (issue 55): an administrator of one
 * organization neither sees nor changes another's, nor sends its stored passwords anywhere. What
 * existed before belonged to every organization; it is given to the oldest one (on most
 * installations the only one), and a tenant administrator moves it where it belongs. The built-in
 * group "All users" belongs to no organization, as it is everyone's.
 */
export class OrganizationWalls1766275200000 implements MigrationInterface {
  name = 'OrganizationWalls1766275200000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['data_connections', 'storage_services']) {
      await q.query(`ALTER TABLE "${table}" ADD COLUMN "organizationId" varchar(36)`);
      await q.query(
        `UPDATE "${table}" SET "organizationId" = (SELECT o.id FROM organizations o ORDER BY o."createdDate", o.id LIMIT 1)`,
      );
    }
    // Sign-in as strict as the standards: a JWT provider's audience, an OpenID provider's scopes.
    await q.query('ALTER TABLE "identity_providers" ADD COLUMN "audience" text');
    await q.query('ALTER TABLE "identity_providers" ADD COLUMN "scopes" text');
    // "All users" is everyone's: it was the first organization's, so another organization's people
    // saw it among their groups and named it in their tasks.
    await q.query(`UPDATE "groups" SET "organizationId" = NULL WHERE "type" = 'system'`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['data_connections', 'storage_services'])
      await q.query(`ALTER TABLE "${table}" DROP COLUMN "organizationId"`);
    for (const c of ['scopes', 'audience']) await q.query(`ALTER TABLE "identity_providers" DROP COLUMN "${c}"`);
  }
}
