import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Mail servers and the persisted outbox, issue 9. */
export class MailOutbox1764374400000 implements MigrationInterface {
  name = 'MailOutbox1764374400000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of UP) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['outbox', 'mail_servers']) await q.query(`DROP TABLE IF EXISTS "${t}"`);
  }
}

const UP: string[] = [
  'CREATE TABLE "mail_servers" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "name" text NOT NULL, "description" text, "fromAddress" text, "fromName" text NOT NULL, "emailPrefix" text, "hostName" text NOT NULL, "smtpPort" integer NOT NULL, "ssl" boolean NOT NULL DEFAULT (0), "userName" text, "password" text, "testEmail" text)',
  'CREATE TABLE "outbox" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "requestId" varchar(36), "mailServerId" varchar(36) NOT NULL, "messageId" text NOT NULL, "from" text NOT NULL, "to" text NOT NULL, "cc" text NOT NULL, "bcc" text NOT NULL, "subject" text NOT NULL, "text" text, "html" text, "attachments" text NOT NULL, "status" varchar(10) NOT NULL, "attempts" integer NOT NULL DEFAULT (0), "nextAttemptAt" datetime NOT NULL, "lastError" text, "accepted" text NOT NULL, "rejected" text NOT NULL, "uncertain" boolean NOT NULL DEFAULT (0), "sentAt" datetime, CONSTRAINT "UQ_outbox_message_id" UNIQUE ("messageId"))',
  'CREATE INDEX "IDX_outbox_due" ON "outbox" ("status", "nextAttemptAt") ',
  'CREATE INDEX "IDX_outbox_request" ON "outbox" ("requestId") ',
];
