import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A project being imported is written in chunks (so short writes are not held up) and stays
 * hidden until its last chunk is in; a crash mid-import leaves one flagged, removed at start.
 */
export class ProjectImportState1764115200000 implements MigrationInterface {
  name = 'ProjectImportState1764115200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "projects" ADD COLUMN "importing" boolean NOT NULL DEFAULT (0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "projects" DROP COLUMN "importing"`);
  }
}
