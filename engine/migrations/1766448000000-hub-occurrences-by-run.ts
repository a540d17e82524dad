import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Hub occurrences found by their run: a publish first looks for what an earlier attempt at the
 * same run published (to replace it, never add to it), and without this index that look read
 * every occurrence of the task report's files — a fifth of a 500-file publish (the bench).
 */
export class HubOccurrencesByRun1766448000000 implements MigrationInterface {
  name = 'HubOccurrencesByRun1766448000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX IF NOT EXISTS "IDX_hub_occurrences_request" ON "hub_file_occurrences" ("requestId")');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS "IDX_hub_occurrences_request"');
  }
}
