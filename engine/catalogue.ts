import { apiKeysV1 } from './features/api-keys/api-keys.v1.js';
import { apiKeysV2 } from './features/api-keys/api-keys.v2.js';
import { authApp } from './features/auth/auth.app.js';
import { ssoApp } from './features/sso/sso.app.js';
import { groupsV1 } from './features/groups/groups.v1.js';
import { groupsV2 } from './features/groups/groups.v2.js';
import { identityProvidersV1 } from './features/identity-providers/identity-providers.v1.js';
import { identityProvidersV2 } from './features/identity-providers/identity-providers.v2.js';
import { organizationsV1 } from './features/organizations/organizations.v1.js';
import { organizationsV2 } from './features/organizations/organizations.v2.js';
import { organizationsApp } from './features/organizations/organizations.app.js';
import { resourcesV1 } from './features/resources/resources.v1.js';
import { rolesV1 } from './features/roles/roles.v1.js';
import { settingsApp, settingsV1 } from './features/settings/settings.v1.js';
import { setupApp } from './features/setup/setup.app.js';
import { trustedOriginsV1 } from './features/trusted-origins/trusted-origins.v1.js';
import { userDirectoriesV1 } from './features/user-directories/user-directories.v1.js';
import { userDirectoriesApp } from './features/user-directories/user-directories.app.js';
import { usersV1 } from './features/users/users.v1.js';
import { usersV2 } from './features/users/users.v2.js';
import { analyticsAppsV1 } from './features/analytics-apps/analytics-apps.v1.js';
import { analyticsContentApp } from './features/analytics-apps/analytics-content.app.js';
import { projectsApp } from './features/projects/projects.app.js';
import { projectsV1 } from './features/projects/projects.v1.js';
import { projectsV2 } from './features/projects/projects.v2.js';
import { connectionsApp } from './features/connections/connections.app.js';
import { filtersV2 } from './features/filters/filters.v2.js';
import { tasksV1 } from './features/tasks/tasks.v1.js';
import { tasksV2 } from './features/tasks/tasks.v2.js';
import { conditionsV1 } from './features/conditions/conditions.v1.js';
import { conditionsV2 } from './features/conditions/conditions.v2.js';
import { requestsOps } from './features/requests/requests.ops.js';
import { tasksApp } from './features/tasks/tasks.app.js';
import { mailServersV1 } from './features/mail/mail-servers.v1.js';
import { runsApp } from './features/runs/runs.app.js';
import { outboxApp } from './features/mail/outbox.app.js';
import { deliveriesApp } from './features/runs/deliver/deliveries.app.js';
import { storageOps } from './features/storage/storage.ops.js';
import { cloudOps } from './features/storage/cloud/cloud.ops.js';
import { dataConnectionOps } from './features/data-connections/data-connections.ops.js';
import { appDataOps } from './features/app-data/app-data.ops.js';
import { membersV2 } from './features/members/members.v2.js';
import { userLifecycleV2 } from './features/users/user-lifecycle.v2.js';
import { subscriptionsV1 } from './features/subscriptions/subscriptions.v1.js';
import { hubOps } from './features/hub/hub.ops.js';
import { filtersApp } from './features/filters/filters.app.js';
import { reportsV1 } from './features/reports/reports.v1.js';
import { reportsV2 } from './features/reports/reports.v2.js';
import { reportsApp } from './features/reports/reports.app.js';
import { reportTemplatesApp } from './features/reports/report-templates.app.js';
import { backupsApp } from './features/backups/backups.app.js';
import type { z } from 'zod';
import type { OpCallInput, OpResult, OpResultSchema } from './ops/op.js';
import type { Page } from './core/envelope.js';
import type { FileResult } from './core/file-result.js';
import type { WireFile } from './wire.js';

/** Every operation, registered in one place; routes, OpenAPI, IPC and the renderer's client derive from it. */
export const OPERATIONS = [
  ...authApp,
  ...ssoApp,
  ...setupApp,
  ...apiKeysV1,
  ...apiKeysV2,
  ...groupsV1,
  ...groupsV2,
  ...identityProvidersV1,
  ...identityProvidersV2,
  ...organizationsV1,
  ...organizationsV2,
  ...organizationsApp,
  ...resourcesV1,
  ...rolesV1,
  ...settingsV1,
  ...settingsApp,
  ...trustedOriginsV1,
  ...usersV1,
  ...usersV2,
  ...userDirectoriesV1,
  ...userDirectoriesApp,
  ...analyticsAppsV1,
  ...analyticsContentApp,
  ...projectsV1,
  ...projectsV2,
  ...projectsApp,
  ...connectionsApp,
  ...filtersV2,
  ...filtersApp,
  ...reportsV1,
  ...reportsV2,
  ...reportsApp,
  ...reportTemplatesApp,
  ...tasksV1,
  ...tasksV2,
  ...conditionsV1,
  ...conditionsV2,
  ...requestsOps,
  ...tasksApp,
  ...mailServersV1,
  ...runsApp,
  ...outboxApp,
  ...deliveriesApp,
  ...storageOps,
  ...cloudOps,
  ...dataConnectionOps,
  ...appDataOps,
  ...hubOps,
  ...subscriptionsV1,
  ...membersV2,
  ...userLifecycleV2,
  ...backupsApp,
] as const;

type Ops = (typeof OPERATIONS)[number];
export type OpId = Ops['id'];
export type OpById<Id extends OpId> = Extract<Ops, { id: Id }>;
/** What the renderer passes for an operation, and what it gets back: derived, never written twice. */
export type InputOf<Id extends OpId> = OpCallInput<OpById<Id>>;
/** What a handler's answer becomes on the wire: a page's rows as the data, a file as base64. */
type OnWire<R> = R extends Page<infer T> ? T[] : R extends FileResult ? WireFile : R;
/** What a value becomes through JSON: a date its ISO text. */
type Jsonified<T> = T extends Date
  ? string
  : T extends readonly (infer U)[]
    ? Jsonified<U>[]
    : T extends object
      ? { [K in keyof T]: Jsonified<T[K]> }
      : T;
type Schema<Id extends OpId> = OpResultSchema<OpById<Id>>;
/** The operations that answer a page of rows (the common list parameters). */
export type ListOpId = { [K in OpId]: OpResult<OpById<K>> extends Page<unknown> ? K : never }[OpId];
/** What the declared result schema says `data` holds (a list operation's schema is one row). */
type Declared<Id extends OpId> =
  Schema<Id> extends z.ZodType ? (Id extends ListOpId ? z.output<Schema<Id>>[] : z.output<Schema<Id>>) : never;
/**
 * The answer's type as the client sees it: the declared schema's output, so the document and the
 * client's types come from one source; the handler's own type where an operation declares none (files).
 */
export type ResultOf<Id extends OpId> = Schema<Id> extends z.ZodType ? Declared<Id> : OnWire<OpResult<OpById<Id>>>;
export type RowOf<Id extends ListOpId> = ResultOf<Id> extends (infer T)[] ? T : never;
/**
 * The operations whose handler answers something its declared schema does not allow: none, or
 * the line below stops compiling and names them.
 */
type ResultDrift = {
  [K in OpId]: Schema<K> extends z.ZodType
    ? Jsonified<OnWire<OpResult<OpById<K>>>> extends Declared<K>
      ? never
      : K
    : never;
}[OpId];
export const resultsFitTheirSchemas: [ResultDrift] extends [never] ? true : { drift: ResultDrift } = true;
/** The body an operation takes. */
export type BodyOf<Id extends OpId> = Exclude<InputOf<Id>['body'], undefined>;
/** The operations that delete by a list of ids in the body. */
export type DeleteByIdsOpId = {
  [K in OpId]: BodyOf<K> extends string[] ? (string[] extends BodyOf<K> ? K : never) : never;
}[OpId];
