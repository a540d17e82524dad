import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Conditions with their rules, and requests (one row per execution), issue 8. */
export class ConditionsRequests1764288000000 implements MigrationInterface {
  name = 'ConditionsRequests1764288000000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of UP) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['requests', 'condition_rules', 'conditions']) await q.query(`DROP TABLE IF EXISTS "${t}"`);
  }
}

const UP: string[] = [
  'CREATE TABLE "conditions" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "projectId" varchar(36) NOT NULL, "name" text NOT NULL, "description" text, "isActive" boolean NOT NULL DEFAULT (1), CONSTRAINT "FK_7f08dd0eac7471c9dde363cacf0" FOREIGN KEY ("projectId") REFERENCES "projects" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
  'CREATE INDEX "IDX_conditions_project" ON "conditions" ("projectId") ',
  'CREATE TABLE "condition_rules" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "conditionId" varchar(36) NOT NULL, "name" text NOT NULL, "connectionId" varchar(36) NOT NULL, "values" text NOT NULL, CONSTRAINT "FK_08b7ee08f8db8c5e193b9112895" FOREIGN KEY ("conditionId") REFERENCES "conditions" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_2300a1435e31a86ae10fa0185c6" FOREIGN KEY ("connectionId") REFERENCES "connections" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
  'CREATE INDEX "IDX_condition_rules_condition" ON "condition_rules" ("conditionId") ',
  'CREATE TABLE "requests" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "kind" varchar(16) NOT NULL, "title" text NOT NULL, "projectId" varchar(36), "taskId" varchar(36), "reportId" varchar(36), "triggerId" varchar(36), "scheduledFor" datetime, "catchUp" boolean NOT NULL DEFAULT (0), "status" varchar(12) NOT NULL, "priority" integer NOT NULL DEFAULT (0), "execution" varchar(10) NOT NULL DEFAULT (\'Parallel\'), "config" text, "outputFormats" text NOT NULL DEFAULT (\'\'), "progressDone" integer NOT NULL DEFAULT (0), "progressTotal" integer NOT NULL DEFAULT (0), "files" text NOT NULL, "message" text, "createdBy" varchar(36), "startedDate" datetime, "endedDate" datetime)',
  'CREATE INDEX "IDX_requests_status" ON "requests" ("status", "priority", "createdDate") ',
  'CREATE INDEX "IDX_requests_task" ON "requests" ("taskId") ',
  'CREATE UNIQUE INDEX "UQ_requests_slot" ON "requests" ("triggerId", "scheduledFor") ',
];
