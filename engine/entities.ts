import { AuditEntry } from './core/audit.entity.js';
import { Organization } from './model/organizations.entity.js';
import { User, UserGroup, UserOrganization, UserRole } from './model/users.entity.js';
import { Group } from './model/groups.entity.js';
import { Role } from './model/roles.entity.js';
import { ApiKey } from './model/api-keys.entity.js';
import { Session } from './model/sessions.entity.js';
import { SignInOutcome } from './model/sign-in-outcomes.entity.js';
import { SsoTicket } from './model/sso-tickets.entity.js';
import { IdentityProvider, OrganizationIdentityProvider } from './model/identity-providers.entity.js';
import { Resource } from './model/resources.entity.js';
import { Setting } from './model/settings.entity.js';
import { TrustedOrigin } from './model/trusted-origins.entity.js';
import { UserDirectory } from './model/user-directories.entity.js';
import { AnalyticsApp, OrganizationAnalyticsApp } from './model/analytics-apps.entity.js';
import { Project } from './model/projects.entity.js';
import { Connection } from './model/connections.entity.js';
import { Filter, FilterValue } from './model/filters.entity.js';
import { Report } from './model/reports.entity.js';
import { ReportTemplate } from './model/report-template.entity.js';
import { Task, TaskRecipient, TaskReport, TaskTrigger } from './model/tasks.entity.js';
import { Condition, ConditionRule } from './model/conditions.entity.js';
import { Request } from './model/requests.entity.js';
import { MailServer, Outbox } from './model/mail.entity.js';
import { Delivery } from './model/deliveries.entity.js';
import { StorageService } from './model/storage.entity.js';
import { AppReload, AppReloadSchedule, AppSource, DataConnection } from './model/data-connections.entity.js';
import {
  HubConfiguration,
  HubEvent,
  HubFavorite,
  HubFile,
  HubFileUser,
  HubFolder,
  HubOccurrence,
} from './model/hub.entity.js';
import { Subscription } from './model/subscriptions.entity.js';
import { MemberPermission } from './model/members.entity.js';
import { Invitation } from './model/invitations.entity.js';
import { DirectorySync } from './model/directory-syncs.entity.js';

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
  Delivery,
  StorageService,
  DataConnection,
  AppSource,
  AppReload,
  AppReloadSchedule,
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
