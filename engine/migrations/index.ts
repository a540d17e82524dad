import { Initial1763683200000 } from './1763683200000-initial.js';
import { UserListIndexes1763769600000 } from './1763769600000-user-list-indexes.js';
import { ReportsFromData1763856000000 } from './1763856000000-reports-from-data.js';
import { ProjectImportState1764115200000 } from './1764115200000-project-import-state.js';
import { Tasks1764201600000 } from './1764201600000-tasks.js';
import { ConditionsRequests1764288000000 } from './1764288000000-conditions-requests.js';
import { MailOutbox1764374400000 } from './1764374400000-mail-outbox.js';
import { StorageServices1764460800000 } from './1764460800000-storage-services.js';
import { SftpKeys1764547200000 } from './1764547200000-sftp-keys.js';
import { Hub1764633600000 } from './1764633600000-hub.js';
import { SftpHostKeys1764720000000 } from './1764720000000-sftp-host-keys.js';
import { Subscriptions1764806400000 } from './1764806400000-subscriptions.js';
import { MemberPermissions1764892800000 } from './1764892800000-member-permissions.js';
import { Invitations1764979200000 } from './1764979200000-invitations.js';
import { DirectorySync1765065600000 } from './1765065600000-directory-sync.js';
import { DirectorySchedulesAsked1765152000000 } from './1765152000000-directory-schedules-asked.js';
import { ReportTemplates1765238400000 } from './1765238400000-report-templates.js';
import { JobLeases1765324800000 } from './1765324800000-job-leases.js';
import { ListOrderIndexes1765411200000 } from './1765411200000-list-order-indexes.js';
import { SignInOutcomes1765497600000 } from './1765497600000-sign-in-outcomes.js';
import { SsoTickets1765584000000 } from './1765584000000-sso-tickets.js';
import { ProviderProvisioning1765670400000 } from './1765670400000-provider-provisioning.js';
import { SessionSignOut1765756800000 } from './1765756800000-session-sign-out.js';
import { UserTimeZone1765843200000 } from './1765843200000-user-time-zone.js';
import { CloudStorage1765929600000 } from './1765929600000-cloud-storage.js';
import { LiveData1766102400000 } from './1766102400000-live-data.js';
import { ReloadQueue1766188800000 } from './1766188800000-reload-queue.js';
import { OrganizationWalls1766275200000 } from './1766275200000-organization-walls.js';
import { DeliveryQueue1766361600000, PostgresDeliveryQueue1766361600000 } from './1766361600000-delivery-queue.js';
import {
  HubOccurrencesByRun1766448000000,
  PostgresHubOccurrencesByRun1766448000000,
} from './1766448000000-hub-occurrences-by-run.js';
import { POSTGRES_HAND_WRITTEN } from './postgres/index.js';

/**
 * Migrations in the order they run; append, never reorder or edit a released one. A new one is
 * written once for both databases with `portableMigration` (portable.ts) and joins both lists.
 */
export const MIGRATIONS = [
  Initial1763683200000,
  UserListIndexes1763769600000,
  ReportsFromData1763856000000,
  ProjectImportState1764115200000,
  Tasks1764201600000,
  ConditionsRequests1764288000000,
  MailOutbox1764374400000,
  StorageServices1764460800000,
  SftpKeys1764547200000,
  Hub1764633600000,
  SftpHostKeys1764720000000,
  Subscriptions1764806400000,
  MemberPermissions1764892800000,
  Invitations1764979200000,
  DirectorySync1765065600000,
  DirectorySchedulesAsked1765152000000,
  ReportTemplates1765238400000,
  JobLeases1765324800000,
  ListOrderIndexes1765411200000,
  SignInOutcomes1765497600000,
  SsoTickets1765584000000,
  ProviderProvisioning1765670400000,
  SessionSignOut1765756800000,
  UserTimeZone1765843200000,
  CloudStorage1765929600000,
  LiveData1766102400000,
  ReloadQueue1766188800000,
  OrganizationWalls1766275200000,
  DeliveryQueue1766361600000,
  HubOccurrencesByRun1766448000000,
];

/**
 * PostgreSQL's migrations in the order they run: the hand-written twins (postgres/index.ts), then
 * those written once for both databases (portable.ts), from DeliveryQueue on.
 */
export const POSTGRES_MIGRATIONS = [
  ...POSTGRES_HAND_WRITTEN,
  PostgresDeliveryQueue1766361600000,
  PostgresHubOccurrencesByRun1766448000000,
];
