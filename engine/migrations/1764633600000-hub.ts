import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The hub: its configuration, folders, published files with their occurrences, stars and events, issue 9. */
export class Hub1764633600000 implements MigrationInterface {
  name = 'Hub1764633600000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of UP) await q.query(sql);
    const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
    await q.query('INSERT INTO "hub_configuration" VALUES (?, ?, ?, ?, ?, NULL, 0)', [
      '6f1d2c3a-0000-4000-8000-000000000001',
      now,
      now,
      'hub@broadsheet.local',
      'Broadsheet hub',
    ]);
    await q.query('INSERT INTO "hub_folders" VALUES (?, ?, ?, NULL, ?, ?, ?)', [
      '6f1d2c3a-0000-4000-8000-000000000002',
      now,
      now,
      'Hub',
      '/',
      '/',
    ]);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'hub_file_events',
      'hub_favorites',
      'hub_file_users',
      'hub_file_occurrences',
      'hub_files',
      'hub_folders',
      'hub_configuration',
    ])
      await q.query(`DROP TABLE IF EXISTS "${t}"`);
  }
}

const BASE = '"id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL';
const UP: string[] = [
  `CREATE TABLE "hub_configuration" (${BASE}, "fromEmail" text NOT NULL, "fromName" text NOT NULL, "customEmailFooter" text, "hideSubsciptionLink" boolean NOT NULL DEFAULT (0))`,
  `CREATE TABLE "hub_folders" (${BASE}, "parentId" varchar(36), "name" text NOT NULL, "parentUrl" text NOT NULL, "location" text NOT NULL)`,
  'CREATE UNIQUE INDEX "IDX_hub_folders_location" ON "hub_folders" ("location")',
  `CREATE TABLE "hub_files" (${BASE}, "taskId" varchar(36) NOT NULL, "taskReportId" varchar(36) NOT NULL, "reportId" varchar(36) NOT NULL, "reportName" text NOT NULL, "hubFolderId" varchar(36) NOT NULL, "kind" varchar(10) NOT NULL, "iterationKey" text NOT NULL, "name" text NOT NULL, "extension" varchar(10) NOT NULL, "typeMime" text NOT NULL, "size" integer NOT NULL, "latestOccurrenceId" varchar(36))`,
  'CREATE UNIQUE INDEX "UQ_hub_files_key" ON "hub_files" ("taskReportId", "iterationKey", "extension")',
  'CREATE INDEX "IDX_hub_files_task" ON "hub_files" ("taskId")',
  'CREATE INDEX "IDX_hub_files_report" ON "hub_files" ("reportId")',
  `CREATE TABLE "hub_file_occurrences" (${BASE}, "fileId" varchar(36) NOT NULL, "requestId" varchar(36), "name" text NOT NULL, "extension" varchar(10) NOT NULL, "typeMime" text NOT NULL, "size" integer NOT NULL, FOREIGN KEY ("fileId") REFERENCES "hub_files" ("id") ON DELETE CASCADE)`,
  'CREATE INDEX "IDX_hub_occurrences_file" ON "hub_file_occurrences" ("fileId", "createdDate")',
  'CREATE TABLE "hub_file_users" ("fileId" varchar(36) NOT NULL, "userId" varchar(36) NOT NULL, PRIMARY KEY ("fileId", "userId"), FOREIGN KEY ("fileId") REFERENCES "hub_files" ("id") ON DELETE CASCADE, FOREIGN KEY ("userId") REFERENCES "users" ("id") ON DELETE CASCADE)',
  'CREATE INDEX "IDX_hub_file_users_user" ON "hub_file_users" ("userId")',
  'CREATE TABLE "hub_favorites" ("fileId" varchar(36) NOT NULL, "userId" varchar(36) NOT NULL, "starredDate" datetime NOT NULL, PRIMARY KEY ("fileId", "userId"), FOREIGN KEY ("fileId") REFERENCES "hub_files" ("id") ON DELETE CASCADE, FOREIGN KEY ("userId") REFERENCES "users" ("id") ON DELETE CASCADE)',
  'CREATE TABLE "hub_file_events" ("id" varchar(36) PRIMARY KEY NOT NULL, "fileId" varchar(36) NOT NULL, "userId" varchar(36), "type" varchar(8) NOT NULL, "date" datetime NOT NULL, FOREIGN KEY ("fileId") REFERENCES "hub_files" ("id") ON DELETE CASCADE)',
  'CREATE INDEX "IDX_hub_events_date" ON "hub_file_events" ("date")',
];
