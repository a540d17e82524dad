import { z } from 'zod';
import { Sort } from '../../render/document.js';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const AnalyticsAppResult = lazySchema(() =>
  z.object({
    id: z.string(),
    appId: z.string(),
    provider: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    folderId: z.string(),
    folderPath: z.string(),
    stream: z.string().nullable(),
    mashupTemplate: z.string().nullable(),
    allowAnalyticsSenseApp: z.boolean(),
    allowMashup: z.boolean(),
    defaultOpen: z.string(),
    templateTitle: z.string().nullable(),
    templateDescription: z.string().nullable(),
    themeId: z.string().nullable(),
    organizationId: z.string().nullable(),
    usedFields: z.array(z.object({ name: z.string(), order: z.number(), appId: z.string() })),
    usedSheets: z.array(
      z.object({
        sheetId: z.string(),
        sheetName: z.string(),
        showSelection: z.boolean(),
        groupName: z.string(),
        order: z.number(),
      }),
    ),
    synchronization: z
      .object({
        defaultFolderUrl: z.string().nullable(),
        defaultFolderId: z.string().nullable(),
        analyticsSenseServer: z.string().nullable(),
        analyticsSenseAdminUser: z.string().nullable(),
        schedule: z.record(z.string(), z.unknown()).nullable(),
      })
      .nullable(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
  }),
);

export const AnalyticsAppsListByFolderResult = lazySchema(() => z.array(AnalyticsAppResult));

export const OrganizationsLinkAnalyticsAppsResult = lazySchema(() => z.object({ linked: z.number() }));

export const OrganizationsUnlinkAnalyticsAppsResult = lazySchema(() => z.object({ unlinked: z.number() }));

export const AnalyticsGetResult = lazySchema(() =>
  z.object({
    appId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    fields: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        type: z.enum(['date', 'decimal', 'integer', 'text']),
        distinctCount: z.number(),
      }),
    ),
    variables: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        definition: z.string(),
        description: z.string().nullable().optional(),
      }),
    ),
    charts: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        type: z.enum(['line', 'bar', 'pie', 'combo', 'table']),
        dimensions: z.array(z.string()),
        measures: z.array(z.object({ label: z.string(), expression: z.string() })),
        sort: Sort.nullable().optional(),
        limit: z.number().nullable().optional(),
      }),
    ),
    bookmarks: z.array(
      z.object({ id: z.string(), name: z.string(), selections: z.record(z.string(), z.array(z.string())) }),
    ),
    sheets: z.array(z.object({ id: z.string(), name: z.string(), chartIds: z.array(z.string()) })),
    rowCount: z.number(),
    reloadedAt: z.string().nullable(),
    source: z.string().nullable(),
  }),
);

export const AnalyticsFieldValuesResult = lazySchema(() =>
  z.array(z.object({ value: z.union([z.string(), z.number()]).nullable(), count: z.number() })),
);

export const AnalyticsEvaluateResult = lazySchema(() =>
  z.object({ value: z.union([z.string(), z.number()]).nullable() }),
);

export const AnalyticsChartDataResult = lazySchema(() =>
  z.object({
    dimensions: z.array(z.string()),
    measures: z.array(z.string()),
    rows: z.array(z.array(z.union([z.string(), z.number()]).nullable())),
  }),
);

export const AnalyticsChartPictureResult = lazySchema(() => z.object({ svg: z.string() }));
