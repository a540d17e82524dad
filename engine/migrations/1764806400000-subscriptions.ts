import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Subscriptions, issue 9: each owns a task marked with its id (so task lists leave it out). The
 * task goes when its subscription goes and the other way round (a project's deletion takes both).
 */
export class Subscriptions1764806400000 implements MigrationInterface {
  name = 'Subscriptions1764806400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE "tasks" ADD COLUMN "subscriptionId" varchar(36)');
    await q.query(
      'CREATE TABLE "subscriptions" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "userId" varchar(36) NOT NULL, "taskId" varchar(36) NOT NULL, "name" text, "description" text, "type" varchar(16) NOT NULL, "triggerType" varchar(16) NOT NULL, "subscribeTo" text, "reports" text NOT NULL, "chart" text, "email" text NOT NULL, "isActive" boolean NOT NULL DEFAULT (1), FOREIGN KEY ("userId") REFERENCES "users" ("id") ON DELETE CASCADE, FOREIGN KEY ("taskId") REFERENCES "tasks" ("id") ON DELETE CASCADE)',
    );
    await q.query('CREATE INDEX "IDX_subscriptions_user" ON "subscriptions" ("userId")');
    await q.query('CREATE INDEX "IDX_tasks_subscription" ON "tasks" ("subscriptionId")');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS "subscriptions"');
    await q.query('DROP INDEX IF EXISTS "IDX_tasks_subscription"');
    await q.query('ALTER TABLE "tasks" DROP COLUMN "subscriptionId"');
  }
}
