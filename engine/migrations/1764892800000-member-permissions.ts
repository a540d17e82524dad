import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Set B member permissions on projects, reports, filters, conditions and tasks, issue 10. */
export class MemberPermissions1764892800000 implements MigrationInterface {
  name = 'MemberPermissions1764892800000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      'CREATE TABLE "member_permissions" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "objectType" varchar(16) NOT NULL, "objectId" varchar(36) NOT NULL, "projectId" varchar(36) NOT NULL, "memberId" varchar(36) NOT NULL, "memberType" varchar(8) NOT NULL, "permissions" text NOT NULL, CONSTRAINT "UQ_member_permission" UNIQUE ("objectId", "memberId"), FOREIGN KEY ("projectId") REFERENCES "projects" ("id") ON DELETE CASCADE)',
    );
    await q.query('CREATE INDEX "IDX_member_permissions_member" ON "member_permissions" ("memberId", "objectType")');
    // A list in permissions mode reads each row's project and id: from these, not from the rows
    // (a report's row holds its whole document).
    for (const t of CONTENT) await q.query(`CREATE INDEX "IDX_${t}_project_id" ON "${t}" ("projectId", "id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS "member_permissions"');
    for (const t of CONTENT) await q.query(`DROP INDEX IF EXISTS "IDX_${t}_project_id"`);
  }
}

const CONTENT = ['reports', 'filters', 'conditions', 'tasks'];
