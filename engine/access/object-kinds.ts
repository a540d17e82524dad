import type { EntitySchema, ObjectLiteral } from 'typeorm';
import { AnalyticsApp } from '../model/analytics-apps.entity.js';
import { ApiKey } from '../model/api-keys.entity.js';
import { Condition, ConditionRule } from '../model/conditions.entity.js';
import { Connection } from '../model/connections.entity.js';
import { DataConnection } from '../model/data-connections.entity.js';
import { Filter } from '../model/filters.entity.js';
import { Group } from '../model/groups.entity.js';
import { HubFile } from '../model/hub.entity.js';
import { Outbox } from '../model/mail.entity.js';
import { Delivery } from '../model/deliveries.entity.js';
import { MemberPermission } from '../model/members.entity.js';
import { Organization } from '../model/organizations.entity.js';
import { Project } from '../model/projects.entity.js';
import { Report } from '../model/reports.entity.js';
import { Request } from '../model/requests.entity.js';
import { Resource } from '../model/resources.entity.js';
import { StorageService } from '../model/storage.entity.js';
import { Subscription } from '../model/subscriptions.entity.js';
import { Task, TaskRecipient, TaskReport, TaskTrigger } from '../model/tasks.entity.js';
import { UserDirectory } from '../model/user-directories.entity.js';
import { User } from '../model/users.entity.js';
import { isBounded } from '../core/organization-boundary.js';

// The kinds of object an operation's input may name by id, in one place. An operation declares, for
// each id it takes, which kind it is (`objects` in defineOp), and the dispatcher refuses an object
// of another organization (404, its existence not confirmed) before the handler runs. A new
// operation that takes an id and declares nothing fails the catalogue's test; a kind is either
// bounded by organization (its entity says how, with `boundByOrganization`) or listed below as
// tenant-wide, shared by every organization and guarded by `tenantWide` on the operations that
// change it (docs/DECISIONS.md, "Walls by construction").

/** Kinds that belong to organizations: each names its entity, which says how its rows belong. */
export const ORGANIZATION_KINDS = {
  organization: { entity: Organization, what: 'Organization' },
  user: { entity: User, what: 'User' },
  recipient: { entity: User, what: 'Recipient' },
  group: { entity: Group, what: 'Group' },
  apiKey: { entity: ApiKey, what: 'API key' },
  resource: { entity: Resource, what: 'Resource' },
  userDirectory: { entity: UserDirectory, what: 'User directory' },
  analyticsApp: { entity: AnalyticsApp, what: 'Analytics app' },
  dataConnection: { entity: DataConnection, what: 'Data connection' },
  storageService: { entity: StorageService, what: 'Storage service' },
  project: { entity: Project, what: 'Project' },
  connection: { entity: Connection, what: 'Connection' },
  report: { entity: Report, what: 'Report' },
  filter: { entity: Filter, what: 'Filter' },
  condition: { entity: Condition, what: 'Condition' },
  conditionRule: { entity: ConditionRule, what: 'Condition rule' },
  task: { entity: Task, what: 'Task' },
  taskReport: { entity: TaskReport, what: 'Task report' },
  taskRecipient: { entity: TaskRecipient, what: 'Task recipient' },
  taskTrigger: { entity: TaskTrigger, what: 'Trigger' },
  memberPermission: { entity: MemberPermission, what: 'Member permission' },
  request: { entity: Request, what: 'Request' },
  mail: { entity: Outbox, what: 'Mail' },
  delivery: { entity: Delivery, what: 'Delivery' },
  hubFile: { entity: HubFile, what: 'File' },
  subscription: { entity: Subscription, what: 'Subscription' },
} satisfies Record<string, { entity: EntitySchema<any>; what: string }>;

/**
 * Kinds every organization shares: one mail server, one sign-in setup, one set of roles and hub
 * folders for the whole installation. Reading them needs only the operation's permission; changing
 * them, a tenant administrator (the operation says `tenantWide`).
 */
export const TENANT_WIDE_KINDS = [
  'role',
  'mailServer',
  'identityProvider',
  'trustedOrigin',
  'hubFolder',
  'hubConfiguration',
  'backup',
] as const;

export type OrganizationKind = keyof typeof ORGANIZATION_KINDS;
export type TenantWideKind = (typeof TENANT_WIDE_KINDS)[number];
/** `none`: the input looks like an id but names no stored object (an item inside an app's metadata, a file extension). */
export type ObjectKind = OrganizationKind | TenantWideKind | 'none';

/**
 * An operation's ids and their kinds: keys are paths into its input (`params.id`, `body.projectId`,
 * `body[]` for a list of ids, `body.organizations[].id` for ids inside a list of objects); a value
 * of several kinds names an id that may be any of them (a recipient user or group).
 */
export type ObjectRefs = Readonly<Record<string, ObjectKind | readonly ObjectKind[]>>;

export const isOrganizationKind = (k: ObjectKind): k is OrganizationKind => k in ORGANIZATION_KINDS;

/** The entities behind the organization kinds: each must be bounded, or the wall has a gap. */
export function unboundedKinds(): string[] {
  return Object.entries(ORGANIZATION_KINDS)
    .filter(([, k]) => !isBounded(k.entity as EntitySchema<ObjectLiteral>))
    .map(([name]) => name);
}
