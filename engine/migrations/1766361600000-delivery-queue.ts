import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deliveries kept to be tried again (issue 57): a run's delivery to a folder, FTP, SFTP, WebDAV or
 * a cloud drive that failed for a passing cause, as rows of the one job kernel; a run's are removed
 * with it.
 */
export class DeliveryQueue1766361600000 implements MigrationInterface {
  name = 'DeliveryQueue1766361600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE TABLE "deliveries" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "requestId" varchar(36) NOT NULL, "taskReportId" varchar(36), "storageServiceId" varchar(36) NOT NULL, "destination" text NOT NULL, "path" text NOT NULL, "variable" text, "files" text NOT NULL, "status" varchar(10) NOT NULL, "attempts" integer NOT NULL DEFAULT (0), "nextAttemptAt" datetime NOT NULL, "giveUpAt" datetime NOT NULL, "lastError" text, "deliveredAt" datetime, "claimedBy" varchar(64), "leaseUntil" datetime, FOREIGN KEY ("requestId") REFERENCES "requests" ("id") ON DELETE CASCADE)`,
    );
    await q.query('CREATE INDEX "IDX_deliveries_due" ON "deliveries" ("status", "nextAttemptAt") ');
    await q.query('CREATE INDEX "IDX_deliveries_request" ON "deliveries" ("requestId") ');
    await q.query('CREATE INDEX "IDX_deliveries_lease" ON "deliveries" ("status", "leaseUntil") ');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE "deliveries"');
  }
}
