import { EntitySchema } from 'typeorm';
import { baseColumns, flag, ref, text, type BaseRow } from '../core/entity-base.js';
import { boundByOrganization } from '../core/organization-boundary.js';

export interface UsedField {
  name: string;
  order: number;
  appId: string;
}
export interface UsedSheet {
  sheetId: string;
  sheetName: string;
  showSelection: boolean;
  groupName: string;
  order: number;
}
export interface SynchronizationInfo {
  defaultFolderUrl: string | null;
  defaultFolderId: string | null;
  analyticsSenseServer: string | null;
  analyticsSenseAdminUser: string | null;
  schedule: Record<string, unknown> | null;
}

/** The record of an analytics app (set A 2.10); its data lives with the provider, under `appId`. */
export interface AnalyticsAppRow extends BaseRow {
  appId: string;
  provider: string;
  name: string;
  description: string | null;
  folderId: string;
  folderPath: string;
  stream: string | null;
  mashupTemplate: string | null;
  allowAnalyticsSenseApp: boolean;
  allowMashup: boolean;
  defaultOpen: string;
  templateTitle: string | null;
  templateDescription: string | null;
  themeId: string | null;
  organizationId: string | null;
  usedFields: UsedField[];
  usedSheets: UsedSheet[];
  synchronization: SynchronizationInfo | null;
}

export const AnalyticsApp = new EntitySchema<AnalyticsAppRow>({
  name: 'AnalyticsApp',
  tableName: 'analytics_apps',
  columns: {
    ...baseColumns,
    appId: text(false),
    provider: { type: 'varchar', length: 16, default: 'embedded' },
    name: text(false),
    description: text(),
    folderId: ref(false),
    folderPath: text(false),
    stream: text(),
    mashupTemplate: text(),
    allowAnalyticsSenseApp: flag(),
    allowMashup: flag(),
    defaultOpen: text(false),
    templateTitle: text(),
    templateDescription: text(),
    themeId: text(),
    organizationId: ref(),
    usedFields: { type: 'simple-json' },
    usedSheets: { type: 'simple-json' },
    synchronization: { type: 'simple-json', nullable: true },
  },
  indices: [{ name: 'IDX_analytics_apps_appId', columns: ['appId'], unique: true }],
  foreignKeys: [
    { target: 'Organization', columnNames: ['organizationId'], referencedColumnNames: ['id'], onDelete: 'SET NULL' },
  ],
});

export interface OrganizationAnalyticsAppRow {
  organizationId: string;
  analyticsAppId: string;
}

export const OrganizationAnalyticsApp = new EntitySchema<OrganizationAnalyticsAppRow>({
  name: 'OrganizationAnalyticsApp',
  tableName: 'organization_analytics_apps',
  columns: {
    organizationId: { type: 'varchar', length: 36, primary: true },
    analyticsAppId: { type: 'varchar', length: 36, primary: true },
  },
  foreignKeys: [
    { target: 'Organization', columnNames: ['organizationId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
    { target: 'AnalyticsApp', columnNames: ['analyticsAppId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
  ],
});

// An app belongs to its organization and to those it is shared with; an app of none is shared by all.
boundByOrganization(
  AnalyticsApp,
  (x) =>
    `${x}."organizationId" IN (:...orgs) OR ${x}.id IN (SELECT bo."analyticsAppId" FROM organization_analytics_apps bo WHERE bo."organizationId" IN (:...orgs))` +
    ` OR (${x}."organizationId" IS NULL AND ${x}.id NOT IN (SELECT bn."analyticsAppId" FROM organization_analytics_apps bn))`,
);
