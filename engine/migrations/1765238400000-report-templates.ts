import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Template reports, issue 24: a report built from the designer's own Word, Excel, PowerPoint or HTML
 * file names it (`templateFile`), and the file lives in its own table (a list of reports never reads
 * the bytes).
 */
export class ReportTemplates1765238400000 implements MigrationInterface {
  name = 'ReportTemplates1765238400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "reports" ADD COLUMN "templateFile" text');
    await q.query(
      'CREATE TABLE "report_templates" ("reportId" varchar(36) PRIMARY KEY NOT NULL, "fileName" text NOT NULL, "data" blob NOT NULL, "size" integer NOT NULL, "sha256" varchar(64) NOT NULL, "version" integer NOT NULL, "modifiedDate" datetime NOT NULL, "modifiedBy" varchar(36), FOREIGN KEY ("reportId") REFERENCES "reports" ("id") ON DELETE CASCADE)',
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS "report_templates"');
    await q.query('ALTER TABLE "reports" DROP COLUMN "templateFile"');
  }
}
