import { EntitySchema } from 'typeorm';
import { baseColumns, flag, int, ref, text, when, type BaseRow } from '../core/entity-base.js';
import { boundByOrganization } from '../core/organization-boundary.js';

/** The one hub configuration row (set A 2.6); its id is fixed so `v1.hub.updateConfiguration` can name it. */
export const HUB_CONFIGURATION_ID = '6f1d2c3a-0000-4000-8000-000000000001';
/** The hub's root folder: files published without a folder land here; it cannot be deleted. */
export const HUB_ROOT_FOLDER_ID = '6f1d2c3a-0000-4000-8000-000000000002';

export interface HubConfigurationRow extends BaseRow {
  fromEmail: string;
  fromName: string;
  customEmailFooter: string | null;
  hideSubsciptionLink: boolean;
}

export const HubConfiguration = new EntitySchema<HubConfigurationRow>({
  name: 'HubConfiguration',
  tableName: 'hub_configuration',
  columns: {
    ...baseColumns,
    fromEmail: text(false),
    fromName: text(false),
    customEmailFooter: text(),
    hideSubsciptionLink: flag(),
  },
});

/** A folder of the hub (set A 2.7): `location` is its full path, `parentUrl` its parent's. */
export interface HubFolderRow extends BaseRow {
  parentId: string | null;
  name: string;
  parentUrl: string;
  location: string;
}

export const HubFolder = new EntitySchema<HubFolderRow>({
  name: 'HubFolder',
  tableName: 'hub_folders',
  columns: { ...baseColumns, parentId: ref(), name: text(false), parentUrl: text(false), location: text(false) },
  indices: [{ name: 'IDX_hub_folders_location', columns: ['location'], unique: true }],
});

/**
 * "single": a report without iteration; "iteration": one iteration value's file, seen by every
 * recipient with `seeInHub`; "dedicated": one iteration value's file seen only by the users its
 * authorized-user variable named.
 */
export const HUB_FILE_KINDS = ['single', 'iteration', 'dedicated'] as const;
export type HubFileKind = (typeof HUB_FILE_KINDS)[number];

/**
 * A published file: what one task report publishes for one iteration value in one format. Each run
 * adds an occurrence; the file shows its latest.
 */
export interface HubFileRow extends BaseRow {
  taskId: string;
  taskReportId: string;
  reportId: string;
  reportName: string;
  hubFolderId: string;
  kind: HubFileKind;
  /** The iteration values, joined with U+001F; empty for a single file. */
  iterationKey: string;
  name: string;
  extension: string;
  typeMime: string;
  size: number;
  latestOccurrenceId: string | null;
}

export const HubFile = new EntitySchema<HubFileRow>({
  name: 'HubFile',
  tableName: 'hub_files',
  columns: {
    ...baseColumns,
    taskId: ref(false),
    taskReportId: ref(false),
    reportId: ref(false),
    reportName: text(false),
    hubFolderId: ref(false),
    kind: { type: 'varchar', length: 10 },
    iterationKey: text(false),
    name: text(false),
    extension: { type: 'varchar', length: 10 },
    typeMime: text(false),
    size: int(false),
    latestOccurrenceId: ref(),
  },
  indices: [
    { name: 'UQ_hub_files_key', columns: ['taskReportId', 'iterationKey', 'extension'], unique: true },
    { name: 'IDX_hub_files_task', columns: ['taskId'] },
    { name: 'IDX_hub_files_report', columns: ['reportId'] },
  ],
});

// A file belongs to the organization of the project whose task published it.
boundByOrganization(
  HubFile,
  (x) =>
    `${x}."taskId" IN (SELECT bt.id FROM tasks bt JOIN projects bp ON bp.id = bt."projectId" WHERE bp."organizationId" IN (:...orgs))`,
);

/** One run's copy of a published file, kept at `files/hub/<fileId>/<id>.<extension>`. */
export interface HubOccurrenceRow extends BaseRow {
  fileId: string;
  requestId: string | null;
  name: string;
  extension: string;
  typeMime: string;
  size: number;
}

export const HubOccurrence = new EntitySchema<HubOccurrenceRow>({
  name: 'HubOccurrence',
  tableName: 'hub_file_occurrences',
  columns: {
    ...baseColumns,
    fileId: ref(false),
    requestId: ref(),
    name: text(false),
    extension: { type: 'varchar', length: 10 },
    typeMime: text(false),
    size: int(false),
  },
  foreignKeys: [{ target: 'HubFile', columnNames: ['fileId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
  indices: [
    { name: 'IDX_hub_occurrences_file', columns: ['fileId', 'createdDate'] },
    { name: 'IDX_hub_occurrences_request', columns: ['requestId'] },
  ],
});

/** A user a dedicated file is for (from the iteration's authorized-user variable). */
export interface HubFileUserRow {
  fileId: string;
  userId: string;
}

export const HubFileUser = new EntitySchema<HubFileUserRow>({
  name: 'HubFileUser',
  tableName: 'hub_file_users',
  columns: {
    fileId: { type: 'varchar', length: 36, primary: true },
    userId: { type: 'varchar', length: 36, primary: true },
  },
  foreignKeys: [
    { target: 'HubFile', columnNames: ['fileId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
    { target: 'User', columnNames: ['userId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
  ],
  indices: [{ name: 'IDX_hub_file_users_user', columns: ['userId'] }],
});

/** A star a user put on a file. */
export interface HubFavoriteRow {
  fileId: string;
  userId: string;
  starredDate: Date;
}

export const HubFavorite = new EntitySchema<HubFavoriteRow>({
  name: 'HubFavorite',
  tableName: 'hub_favorites',
  columns: {
    fileId: { type: 'varchar', length: 36, primary: true },
    userId: { type: 'varchar', length: 36, primary: true },
    starredDate: when(false),
  },
  foreignKeys: [
    { target: 'HubFile', columnNames: ['fileId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
    { target: 'User', columnNames: ['userId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
  ],
});

/** "viewed" by a user (preview or download) or "added" by a run (no user); recent files read these. */
export interface HubEventRow {
  id: string;
  fileId: string;
  userId: string | null;
  type: 'viewed' | 'added';
  date: Date;
}

export const HubEvent = new EntitySchema<HubEventRow>({
  name: 'HubEvent',
  tableName: 'hub_file_events',
  columns: {
    id: { type: 'varchar', length: 36, primary: true },
    fileId: ref(false),
    userId: ref(),
    type: { type: 'varchar', length: 8 },
    date: when(false),
  },
  foreignKeys: [{ target: 'HubFile', columnNames: ['fileId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
  indices: [{ name: 'IDX_hub_events_date', columns: ['date'] }],
});
