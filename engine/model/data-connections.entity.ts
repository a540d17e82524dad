import { EntitySchema } from 'typeorm';
import { baseColumns, flag, int, ref, text, when, type BaseRow } from '../core/entity-base.js';
import { claimColumns, type ClaimColumns } from '../core/jobs/claims.js';
import type { StoredSchedule } from './tasks.entity.js';

import { DATA_CONNECTION_KINDS, RELOAD_STATUSES, TLS_MODES, type ReloadStatus } from '../core/enumerations.js';
import { boundByOrganization } from '../core/organization-boundary.js';

export { DATA_CONNECTION_KINDS, TLS_MODES };
export type DataConnectionKind = (typeof DATA_CONNECTION_KINDS)[number];
export type TlsMode = (typeof TLS_MODES)[number];

/**
 * A database analytics apps load their data from: a server (PostgreSQL, MySQL/MariaDB) by its host,
 * port, database and user, its password sealed like other secrets; or a SQLite file on this machine.
 */
export interface DataConnectionRow extends BaseRow {
  /** The organization whose apps or tasks may use it; only its people see or change it. */
  organizationId: string | null;
  name: string;
  description: string | null;
  kind: DataConnectionKind;
  /** A host name or address; a path (starting with /) is a Unix socket (MySQL) or its folder (PostgreSQL). */
  host: string | null;
  port: number | null;
  database: string | null;
  username: string | null;
  /** Sealed with the installation's key; never answered. */
  password: string | null;
  /** off: plain; require: encrypted, any certificate; verify: encrypted, the certificate checked. */
  tls: TlsMode;
  /** SQLite: the database file, opened read-only. */
  filePath: string | null;
}

export const DataConnection = new EntitySchema<DataConnectionRow>({
  name: 'DataConnection',
  tableName: 'data_connections',
  columns: {
    ...baseColumns,
    organizationId: ref(),
    name: text(false),
    description: text(),
    kind: { type: 'varchar', length: 16 },
    host: text(),
    port: int(),
    database: text(),
    username: text(),
    password: text(),
    tls: { type: 'varchar', length: 8, default: 'off' },
    filePath: text(),
  },
});

/** One table of an analytics app, loaded from a query on a data connection. */
export interface AppSourceRow {
  id: string;
  /** The analytics app's record. */
  appId: string;
  name: string;
  connectionId: string;
  query: string;
  order: number;
}

export const AppSource = new EntitySchema<AppSourceRow>({
  name: 'AppSource',
  tableName: 'app_sources',
  columns: {
    id: { type: 'varchar', length: 36, primary: true },
    appId: ref(false),
    name: text(false),
    connectionId: ref(false),
    query: text(false),
    order: { type: 'integer', default: 0 },
  },
  foreignKeys: [
    { target: 'AnalyticsApp', columnNames: ['appId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
    // A connection an app loads from is not deleted under it: the delete is refused, naming the app.
    { target: 'DataConnection', columnNames: ['connectionId'], referencedColumnNames: ['id'], onDelete: 'RESTRICT' },
  ],
  indices: [{ name: 'IDX_app_sources_app', columns: ['appId'] }],
});

export { RELOAD_STATUSES, type ReloadStatus };

/**
 * One reload of an app from its sources: when, how long, how many rows, and why it failed. A row of
 * the one job kernel: queued (a schedule's slot, keyed by app and slot so it loads once however many
 * servers fire it), claimed and run by one server, its lease renewed while it reads.
 */
export interface AppReloadRow extends ClaimColumns {
  id: string;
  appId: string;
  trigger: 'manual' | 'schedule';
  status: ReloadStatus;
  /** When it was queued, then when it started. */
  startedAt: Date;
  endedAt: Date | null;
  rows: number | null;
  message: string | null;
  startedBy: string | null;
  /** The slot a scheduled reload is for: with the app, the key that makes a slot load once. */
  scheduledFor: Date | null;
}

export const AppReload = new EntitySchema<AppReloadRow>({
  name: 'AppReload',
  tableName: 'app_reloads',
  columns: {
    id: { type: 'varchar', length: 36, primary: true },
    appId: ref(false),
    trigger: { type: 'varchar', length: 16 },
    status: { type: 'varchar', length: 16 },
    startedAt: when(false),
    endedAt: when(),
    rows: int(),
    message: text(),
    startedBy: ref(),
    scheduledFor: when(),
    ...claimColumns,
    attempts: { ...int(false), default: 0 },
  },
  foreignKeys: [{ target: 'AnalyticsApp', columnNames: ['appId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
  indices: [
    { name: 'IDX_app_reloads_app', columns: ['appId', 'startedAt'] },
    { name: 'UQ_app_reloads_slot', columns: ['appId', 'scheduledFor'], unique: true },
    { name: 'IDX_app_reloads_lease', columns: ['status', 'leaseUntil'] },
  ],
});

/**
 * When an app reloads by itself: a schedule of the same forms as a task's (and the same fire-time
 * rule, DST included), one per app. The one scheduler keeps its next fire time.
 */
export interface AppReloadScheduleRow extends BaseRow {
  appId: string;
  isActive: boolean;
  timeZone: string;
  schedule: StoredSchedule;
  startDate: Date;
  endDate: Date | null;
  lastScheduledFor: Date | null;
  nextFireTime: Date | null;
}

export const AppReloadSchedule = new EntitySchema<AppReloadScheduleRow>({
  name: 'AppReloadSchedule',
  tableName: 'app_reload_schedules',
  columns: {
    ...baseColumns,
    appId: ref(false),
    isActive: flag(true),
    timeZone: text(false),
    schedule: { type: 'simple-json' },
    startDate: when(false),
    endDate: when(),
    lastScheduledFor: when(),
    nextFireTime: when(),
  },
  foreignKeys: [{ target: 'AnalyticsApp', columnNames: ['appId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
  indices: [
    { name: 'UQ_app_reload_schedules_app', columns: ['appId'], unique: true },
    { name: 'IDX_app_reload_schedules_next', columns: ['nextFireTime'] },
  ],
});

// A data connection or a storage belongs to one organization (its passwords go only where it says).
boundByOrganization(DataConnection, (x) => `${x}."organizationId" IN (:...orgs)`);
