import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1763683200000 implements MigrationInterface {
  name = 'Initial1763683200000';

  async up(q: QueryRunner): Promise<void> {
    for (const sql of UP) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'audit_log',
      'user_directories',
      'trusted_origins',
      'settings',
      'resources',
      'organization_identity_providers',
      'identity_providers',
      'sessions',
      'api_keys',
      'user_roles',
      'user_groups',
      'user_organizations',
      'roles',
      'groups',
      'users',
      'organizations',
    ])
      await q.query(`DROP TABLE IF EXISTS "${t}"`);
  }
}

const UP: string[] = [
  'CREATE TABLE "organizations" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "name" text, "displayName" text NOT NULL, "description" text, "themeId" varchar(36) NOT NULL, "allowNtlm" boolean NOT NULL DEFAULT (0), "allowJwt" boolean NOT NULL DEFAULT (0), "serviceAuth" boolean NOT NULL DEFAULT (1), "identityProviderId" varchar(36))',
  'CREATE TABLE "users" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "kind" varchar(16) NOT NULL DEFAULT (\'user\'), "firstName" text NOT NULL, "lastName" text NOT NULL, "email" text, "passwordHash" text, "domainAccount" text, "isActive" boolean NOT NULL DEFAULT (1), "sendNotification" boolean NOT NULL DEFAULT (0), "isoLanguage" text, "isTenantOwner" boolean NOT NULL DEFAULT (0), "isTenantAdmin" boolean NOT NULL DEFAULT (0), "createdBy" varchar(36), "modifiedBy" varchar(36))',
  'CREATE UNIQUE INDEX "IDX_users_email" ON "users" ("email")',
  'CREATE TABLE "user_organizations" ("userId" varchar(36) NOT NULL, "targetId" varchar(36) NOT NULL, CONSTRAINT "FK_11d4cd5202bd8914464f4bec379" FOREIGN KEY ("userId") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_ab50dd7387d6889a67388efcfe3" FOREIGN KEY ("targetId") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("userId", "targetId"))',
  'CREATE INDEX "IDX_user_organizations_target" ON "user_organizations" ("targetId")',
  'CREATE TABLE "user_groups" ("userId" varchar(36) NOT NULL, "targetId" varchar(36) NOT NULL, CONSTRAINT "FK_99d01ff7f143377c044f3d6c955" FOREIGN KEY ("userId") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_6578f48633c3039956961d44673" FOREIGN KEY ("targetId") REFERENCES "groups" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("userId", "targetId"))',
  'CREATE INDEX "IDX_user_groups_target" ON "user_groups" ("targetId")',
  'CREATE TABLE "user_roles" ("userId" varchar(36) NOT NULL, "targetId" varchar(36) NOT NULL, CONSTRAINT "FK_472b25323af01488f1f66a06b67" FOREIGN KEY ("userId") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_7a4f4b46186933854ccaf19c5d7" FOREIGN KEY ("targetId") REFERENCES "roles" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("userId", "targetId"))',
  'CREATE INDEX "IDX_user_roles_target" ON "user_roles" ("targetId")',
  'CREATE TABLE "groups" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "name" text NOT NULL, "description" text, "organizationId" varchar(36), "isActive" boolean NOT NULL DEFAULT (1), "type" varchar(16) NOT NULL DEFAULT (\'custom\'), CONSTRAINT "FK_76b7c20054f6c4c89fe317273d1" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION)',
  'CREATE TABLE "roles" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "name" text NOT NULL, "description" text, "allProjects" boolean NOT NULL DEFAULT (0), "projects" text NOT NULL, "permissions" text NOT NULL, "permissionsModifiedDate" datetime NOT NULL, "isActive" boolean NOT NULL DEFAULT (1), "type" varchar(16) NOT NULL DEFAULT (\'custom\'))',
  'CREATE TABLE "api_keys" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "userId" varchar(36) NOT NULL, "organizationId" varchar(36), "name" text NOT NULL, "description" text, "expiryDate" datetime NOT NULL, "keyHash" varchar(64) NOT NULL, "keyPrefix" varchar(16) NOT NULL, "lastUsedDate" datetime, CONSTRAINT "FK_6c2e267ae764a9413b863a29342" FOREIGN KEY ("userId") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
  'CREATE UNIQUE INDEX "IDX_api_keys_hash" ON "api_keys" ("keyHash")',
  'CREATE TABLE "sessions" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "userId" varchar(36) NOT NULL, "tokenHash" varchar(64) NOT NULL, "expiresAt" datetime NOT NULL, CONSTRAINT "FK_57de40bc620f456c7311aa3a1e6" FOREIGN KEY ("userId") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
  'CREATE UNIQUE INDEX "IDX_sessions_hash" ON "sessions" ("tokenHash")',
  'CREATE TABLE "identity_providers" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "name" text NOT NULL, "description" text, "type" text NOT NULL, "isActive" boolean NOT NULL DEFAULT (1), "signAuthnRequest" boolean NOT NULL DEFAULT (0), "entityID" text, "singleSignOnUrl" text, "certificatePublicKey" text, "singleLogoutUrl" text, "certificateFile" text, "buttonLabel" text, "clientID" text, "clientSecret" text, "authorizationEndpoint" text, "accessTokenEndpoint" text, "userinfoEndpoint" text, "logoutEndpoint" text, "postLogoutRedirectUrl" text)',
  'CREATE TABLE "organization_identity_providers" ("organizationId" varchar(36) NOT NULL, "identityProviderId" varchar(36) NOT NULL, CONSTRAINT "FK_b6e6c76c29b79ff61fd2c7935e1" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, CONSTRAINT "FK_c6efb82270be6b94f0523f3ff86" FOREIGN KEY ("identityProviderId") REFERENCES "identity_providers" ("id") ON DELETE CASCADE ON UPDATE NO ACTION, PRIMARY KEY ("organizationId", "identityProviderId"))',
  'CREATE TABLE "resources" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "name" text NOT NULL, "description" text, "type" text NOT NULL, "organizationId" varchar(36) NOT NULL, "url" text NOT NULL, "createdBy" varchar(36), CONSTRAINT "FK_72cf8eebf1eead51d77434d7836" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION)',
  'CREATE TABLE "settings" ("key" varchar(64) PRIMARY KEY NOT NULL, "value" text NOT NULL, "modifiedDate" datetime NOT NULL)',
  'CREATE TABLE "trusted_origins" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "name" text NOT NULL, "description" text, "address" text NOT NULL)',
  'CREATE TABLE "user_directories" ("id" varchar(36) PRIMARY KEY NOT NULL, "createdDate" datetime NOT NULL, "modifiedDate" datetime NOT NULL, "type" text NOT NULL, "name" text NOT NULL, "prefix" text, "userDirectoryName" text, "azureClientId" text, "azureTenantId" text, "azureClientSecret" text, "hostName" text, "port" integer, "userName" text, "password" text, "sendNotification" boolean NOT NULL DEFAULT (0), "defaultUserRole" varchar(36), "filter" text, "synchronization" text NOT NULL, "frequency" text, "frequencyTime" text, "timeZone" text, "isActive" boolean NOT NULL DEFAULT (1), "organizationId" varchar(36) NOT NULL, "lastStartedSync" datetime, "syncStatus" text, CONSTRAINT "FK_9362f34731f3e91383a261f3dfa" FOREIGN KEY ("organizationId") REFERENCES "organizations" ("id") ON DELETE RESTRICT ON UPDATE NO ACTION, CONSTRAINT "FK_80f59f9b61a7bd0545cb993f836" FOREIGN KEY ("defaultUserRole") REFERENCES "roles" ("id") ON DELETE SET NULL ON UPDATE NO ACTION)',
  'CREATE TABLE "audit_log" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "at" datetime NOT NULL, "userId" varchar(36), "credential" text, "operation" text NOT NULL, "targetId" text, "transport" varchar(8) NOT NULL)',
  'CREATE INDEX "IDX_audit_at" ON "audit_log" ("at")',
];
