import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The lists people page through in their own order, read from an index instead of sorted whole at
 * each page: runs newest first (the monitoring screen), users by full name, hub files by name. The
 * expressions are the lists' own sort expressions, so SQLite walks the index for the page.
 */
export class ListOrderIndexes1765411200000 implements MigrationInterface {
  name = 'ListOrderIndexes1765411200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX "IDX_requests_created" ON "requests" ("createdDate", "id")');
    await q.query('CREATE INDEX "IDX_requests_project" ON "requests" ("projectId")');
    await q.query(`CREATE INDEX "IDX_users_full_name" ON "users" (LOWER("firstName" || ' ' || "lastName"), "id")`);
    await q.query('CREATE INDEX "IDX_hub_files_name" ON "hub_files" (LOWER("name"), "id")');
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of ['IDX_requests_created', 'IDX_requests_project', 'IDX_users_full_name', 'IDX_hub_files_name'])
      await q.query(`DROP INDEX IF EXISTS "${index}"`);
  }
}
