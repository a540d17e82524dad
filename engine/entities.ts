import { AuditEntry } from './core/audit.entity.js';
import { Organization } from './features/organizations/organizations.entity.js';
import { User, UserGroup, UserOrganization, UserRole } from './features/users/users.entity.js';
import { Group } from './features/groups/groups.entity.js';
import { Role } from './features/roles/roles.entity.js';
import { ApiKey } from './features/api-keys/api-keys.entity.js';
import { Session } from './features/auth/sessions.entity.js';
import { SignInOutcome } from './features/auth/sign-in-outcomes.entity.js';
import { SsoTicket } from './features/sso/sso-tickets.entity.js';
import {
  IdentityProvider,
  OrganizationIdentityProvider,
} from './features/identity-providers/identity-providers.entity.js';
import { Resource } from './features/resources/resources.entity.js';
import { Setting } from './features/settings/settings.entity.js';
import { TrustedOrigin } from './features/trusted-origins/trusted-origins.entity.js';
import { UserDirectory } from './features/user-directories/user-directories.entity.js';
import { AnalyticsApp, OrganizationAnalyticsApp } from './features/analytics-apps/analytics-apps.entity.js';
import { Project } from './features/projects/projects.entity.js';
import { Connection } from './features/connections/connections.entity.js';
import { Filter, FilterValue } from './features/filters/filters.entity.js';
import { Report } from './features/reports/reports.entity.js';
import { ReportTemplate } from './features/reports/report-template.entity.js';
import { Task, TaskRecipient, TaskReport, TaskTrigger } from './features/tasks/tasks.entity.js';
import { Condition, ConditionRule } from './features/conditions/conditions.entity.js';
import { Request } from './features/requests/requests.entity.js';
import { MailServer, Outbox } from './features/mail/mail.entity.js';
import { StorageService } from './features/storage/storage.entity.js';
import {
  HubConfiguration,
  HubEvent,
  HubFavorite,
  HubFile,
  HubFileUser,
  HubFolder,
  HubOccurrence,
} from './features/hub/hub.entity.js';
import { Subscription } from './features/subscriptions/subscriptions.entity.js';
import { MemberPermission } from './features/members/members.entity.js';
import { Invitation } from './features/users/invitations.entity.js';
import { DirectorySync } from './features/user-directories/directory-syncs.entity.js';

/** Every entity the data source knows, in one list. */
export const ENTITIES = [
  Organization,
  User,
  UserOrganization,
  UserGroup,
  UserRole,
  Group,
  Role,
  ApiKey,
  Session,
  SignInOutcome,
  SsoTicket,
  IdentityProvider,
  OrganizationIdentityProvider,
  Resource,
  Setting,
  TrustedOrigin,
  UserDirectory,
  AuditEntry,
  AnalyticsApp,
  OrganizationAnalyticsApp,
  Project,
  Connection,
  Filter,
  FilterValue,
  Report,
  ReportTemplate,
  Task,
  TaskReport,
  TaskRecipient,
  TaskTrigger,
  Condition,
  ConditionRule,
  Request,
  MailServer,
  Outbox,
  StorageService,
  HubConfiguration,
  HubFolder,
  HubFile,
  HubOccurrence,
  HubFileUser,
  HubFavorite,
  HubEvent,
  Subscription,
  MemberPermission,
  Invitation,
  DirectorySync,
];
