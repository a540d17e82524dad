import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Analytics apps and their organizations, projects, connections, filters and reports (issue 3). */
export class ReportsFromData1763856000000 implements MigrationInterface {
  name = 'ReportsFromData1763856000000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of UP) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'reports',
      'filter_values',
      'filters',
      'connections',
      'projects',
      'organization_analytics_apps',
      'analytics_apps',
    ])
      await q.query(`DROP TABLE IF EXISTS "${t}"`);
  }
}

const UP: string[] = [
  'CREATE TABLE "analytics_apps" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "appId" text NOT NULL, "provider" varchar(16) NOT NULL DEFAULT (\'embedded\'), "name" text NOT NULL, "description" text, "folderId" varchar(36) NOT NULL, "folderPath" text NOT NULL, "stream" text, "mashupTemplate" text, "allowAnalyticsSenseApp" boolean NOT NULL DEFAULT (0), "allowMashup" boolean NOT NULL DEFAULT (0), "defaultOpen" text NOT NULL, "templateTitle" text, "templateDescription" text, "themeId" text, "organizationId" varchar(36), "usedFields" text NOT NULL, "usedSheets" text NOT NULL, "synchronization" text, CONSTRAINT "FK_089ba3c4500f1d234eb6918a7fc" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE SET NULL ON UPDATE NO ACTION)',
  'CREATE UNIQUE INDEX "IDX_analytics_apps_appId" ON "analytics_apps" ("appId")',
  'CREATE TABLE "organization_analytics_apps" ("organizationId" varchar(36) NOT NULL, "analyticsAppId" varchar(36) NOT NULL, CONSTRAINT "FK_62b77f985d3795f9bb148ee8b40" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_bba784b91945ab9201461f08603" FOREIGN KEY ("analyticsAppId") REFERENCES "analytics_apps" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("organizationId", "analyticsAppId"))',
  'CREATE TABLE "projects" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "name" text NOT NULL, "description" text, "organizationId" varchar(36) NOT NULL, "isActive" boolean NOT NULL DEFAULT (1), "permissionsMode" boolean NOT NULL DEFAULT (0), "createdBy" varchar(36), "modifiedBy" varchar(36), CONSTRAINT "FK_eec93fd979bdcf5a0141da324d6" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION)',
  'CREATE TABLE "connections" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "projectId" varchar(36) NOT NULL, "name" text NOT NULL, "analyticsAppId" varchar(36) NOT NULL, CONSTRAINT "FK_cacc34c5cb62ee716d93d9eeea4" FOREIGN KEY ("projectId") REFERENCES "projects" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_018b1d628b8430c9d2700cfb7d8" FOREIGN KEY ("analyticsAppId") REFERENCES "analytics_apps" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION)',
  'CREATE TABLE "filters" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "projectId" varchar(36) NOT NULL, "name" text NOT NULL, "description" text, CONSTRAINT "FK_68a8f7102da10f9bad0f9abd44e" FOREIGN KEY ("projectId") REFERENCES "projects" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
  'CREATE TABLE "filter_values" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "filterId" varchar(36) NOT NULL, "kind" varchar(16) NOT NULL, "targetId" varchar(36) NOT NULL, "fieldValues" text, "variableValue" text, "order" integer NOT NULL, CONSTRAINT "FK_d9075977ada0f260ffd7b271fe1" FOREIGN KEY ("filterId") REFERENCES "filters" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
  'CREATE TABLE "reports" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "projectId" varchar(36) NOT NULL, "connectionId" varchar(36), "name" text NOT NULL, "description" text, "type" varchar(16) NOT NULL, "isIteration" boolean NOT NULL DEFAULT (0), "iterationFields" text NOT NULL, "dynamicNameSeparator" text, "dynamicNames" text NOT NULL, "document" text NOT NULL, "filterIds" text NOT NULL, "createdBy" varchar(36), "modifiedBy" varchar(36), CONSTRAINT "FK_b123aed1a96e282b13ac2abcb31" FOREIGN KEY ("projectId") REFERENCES "projects" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_015c950407e002497f57bfb7a42" FOREIGN KEY ("connectionId") REFERENCES "connections" ("id") ON DELETE SET NULL ON UPDATE NO ACTION)',
];
