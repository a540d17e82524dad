import { EntitySchema } from 'typeorm';
import { baseColumns, flag, int, ref, text, when, type BaseRow } from '../core/entity-base.js';
import { boundByOrganization } from '../core/organization-boundary.js';

export interface UserDirectoryRow extends BaseRow {
  type: string;
  name: string;
  prefix: string | null;
  userDirectoryName: string | null;
  azureClientId: string | null;
  azureTenantId: string | null;
  /** Sealed; never returned. */
  azureClientSecret: string | null;
  hostName: string | null;
  port: number | null;
  userName: string | null;
  /** Sealed; never returned. */
  password: string | null;
  sendNotification: boolean;
  defaultUserRole: string | null;
  filter: string | null;
  synchronization: string;
  frequency: string | null;
  frequencyTime: string | null;
  timeZone: string | null;
  isActive: boolean;
  organizationId: string;
  lastStartedSync: Date | null;
  /** The scheduler's stored next synchronization (null: manual, inactive or not yet computed). */
  nextFireTime: Date | null;
  /** The latest slot the scheduler has handled. */
  lastScheduledFor: Date | null;
  syncStatus: string | null;
}

export const UserDirectory = new EntitySchema<UserDirectoryRow>({
  name: 'UserDirectory',
  tableName: 'user_directories',
  columns: {
    ...baseColumns,
    type: text(false),
    name: text(false),
    prefix: text(),
    userDirectoryName: text(),
    azureClientId: text(),
    azureTenantId: text(),
    azureClientSecret: text(),
    hostName: text(),
    port: int(),
    userName: text(),
    password: text(),
    sendNotification: flag(),
    defaultUserRole: ref(),
    filter: text(),
    synchronization: text(false),
    frequency: text(),
    frequencyTime: text(),
    timeZone: text(),
    isActive: flag(true),
    organizationId: ref(false),
    lastStartedSync: when(),
    nextFireTime: when(),
    lastScheduledFor: when(),
    syncStatus: text(),
  },
  foreignKeys: [
    { target: 'Organization', columnNames: ['organizationId'], referencedColumnNames: ['id'], onDelete: 'RESTRICT' },
    { target: 'Role', columnNames: ['defaultUserRole'], referencedColumnNames: ['id'], onDelete: 'SET NULL' },
  ],
});

boundByOrganization(UserDirectory, (x) => `${x}."organizationId" IN (:...orgs)`);
