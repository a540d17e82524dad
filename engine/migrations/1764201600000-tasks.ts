import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Tasks: their reports, recipients and triggers (schedules and external events), issue 8. */
export class Tasks1764201600000 implements MigrationInterface {
  name = 'Tasks1764201600000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of UP) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['task_triggers', 'task_recipients', 'task_reports', 'tasks'])
      await q.query(`DROP TABLE IF EXISTS "${t}"`);
  }
}

const UP: string[] = [
  'CREATE TABLE "tasks" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "projectId" varchar(36) NOT NULL, "name" text NOT NULL, "description" text, "isActive" boolean NOT NULL DEFAULT (1), "sendNotifications" boolean NOT NULL DEFAULT (0), "notifyIfError" boolean NOT NULL DEFAULT (0), "notifyIfWarning" boolean NOT NULL DEFAULT (0), "notifyIfSuccess" boolean NOT NULL DEFAULT (0), "notificationRecipients" text, "notificationCc" text, "notificationBcc" text, "testMode" boolean NOT NULL DEFAULT (0), "testModeRecipients" text, "email" text, "createdBy" varchar(36), "modifiedBy" varchar(36), CONSTRAINT "FK_e08fca67ca8966e6b9914bf2956" FOREIGN KEY ("projectId") REFERENCES "projects" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
  'CREATE TABLE "task_reports" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "taskId" varchar(36) NOT NULL, "reportId" varchar(36) NOT NULL, "format" varchar(32) NOT NULL, "options" text NOT NULL, "fileOpenPassword" text, "fileWritePassword" text, CONSTRAINT "FK_45390f5283ecbd0801c90f7f1d9" FOREIGN KEY ("taskId") REFERENCES "tasks" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_ccc8fe159a66a955a1ece88aade" FOREIGN KEY ("reportId") REFERENCES "reports" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
  'CREATE TABLE "task_recipients" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "taskId" varchar(36) NOT NULL, "recipientId" varchar(36) NOT NULL, "type" varchar(8) NOT NULL, "sendEmail" boolean NOT NULL DEFAULT (1), "seeInHub" boolean NOT NULL DEFAULT (1), CONSTRAINT "UQ_task_recipient" UNIQUE ("taskId", "recipientId"), CONSTRAINT "FK_1e579e49882f3ee6e9855d7bb62" FOREIGN KEY ("taskId") REFERENCES "tasks" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
  'CREATE TABLE "task_triggers" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "taskId" varchar(36) NOT NULL, "kind" varchar(16) NOT NULL, "name" text NOT NULL, "description" text, "isActive" boolean NOT NULL DEFAULT (1), "execution" text, "priority" integer, "timeZone" text, "schedule" text, "appId" text, "analyticsEvent" text, "startDate" datetime, "endDate" datetime, "lastFireTime" datetime, "lastScheduledFor" datetime, "nextFireTime" datetime, CONSTRAINT "FK_0569e7673e3bd478da08af7c9d5" FOREIGN KEY ("taskId") REFERENCES "tasks" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
  'CREATE INDEX "IDX_tasks_project" ON "tasks" ("projectId")',
  'CREATE INDEX "IDX_task_reports_task" ON "task_reports" ("taskId")',
  'CREATE INDEX "IDX_task_triggers_task" ON "task_triggers" ("taskId")',
  'CREATE INDEX "IDX_task_triggers_next" ON "task_triggers" ("nextFireTime")',
];
