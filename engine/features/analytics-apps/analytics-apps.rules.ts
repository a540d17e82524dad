import { keptRead, RememberedReads } from '../../core/kept-reads.js';
import { lazySchema } from '../../core/lazy-schema.js';
import { In } from 'typeorm';
import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { conflict, notFound } from '../../core/errors.js';
import { findOr404, requireAll } from '../../core/rows.js';
import { TEXT_MAX, v } from '../../core/validation.js';
import { Organization } from '../../model/organizations.entity.js';
import { AnalyticsApp, OrganizationAnalyticsApp, type AnalyticsAppRow } from '../../model/analytics-apps.entity.js';
import { pageOf, type ListQuery, type ListSpec } from '../../core/list-query.js';
import { withinOrganizations } from '../../core/organization-boundary.js';

// Set A 2.10, synchronization info
const ScheduleObject = z.record(
  v.str(100),
  z.union([v.str(), z.number(), z.boolean(), z.null(), z.array(z.union([v.str(), z.number()])).max(100)]),
);
export const SynchronizationV1 = lazySchema(() =>
  z.object({
    defaultFolderUrl: v.nstr(),
    defaultFolderId: v.nuuid(),
    analyticsSenseServer: v.nstr(),
    analyticsSenseAdminUser: v.nstr(),
    schedule: ScheduleObject.nullable().optional(),
  }),
);
export type SynchronizationFields = z.output<typeof SynchronizationV1>;

/** Apps not filed in a folder live in the root folder. */
export const ROOT_FOLDER_ID = '00000000-0000-0000-0000-000000000000';

// Set A 2.10
export const AnalyticsAppV1 = lazySchema(() =>
  z.object({
    appId: v
      .text()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, { message: 'must be lower-case letters, digits and dashes (up to 64)' }),
    name: v.text(),
    description: v.nstr(),
    folderId: v.uuid(),
    folderPath: v.text(TEXT_MAX.text),
    stream: v.nstr(),
    mashupTemplate: v.nstr(),
    allowAnalyticsSenseApp: v.bool(),
    allowMashup: v.bool(),
    defaultOpen: v.text(),
    templateTitle: v.nstr(),
    templateDescription: v.nstr(),
    themeId: v.nstr(),
    organizationId: v.nuuid(),
    usedFields: z
      .array(z.object({ name: v.str(TEXT_MAX.name), order: v.int(), appId: v.str(64) }))
      .max(1000)
      .nullable()
      .optional(),
    usedSheets: z
      .array(
        z.object({
          sheetId: v.str(64),
          sheetName: v.str(TEXT_MAX.name),
          showSelection: z.boolean(),
          groupName: v.str(TEXT_MAX.name),
          order: v.int(),
        }),
      )
      .max(1000)
      .nullable()
      .optional(),
  }),
);
export type AnalyticsAppFields = z.output<typeof AnalyticsAppV1>;

export const LIST_ANALYTICS_APPS: ListSpec = {
  sort: {
    Name: 'LOWER(a.name)',
    Stream: 'LOWER(a.stream)',
    FolderPath: 'LOWER(a."folderPath")',
    MashupTemplate: 'LOWER(a."mashupTemplate")',
  },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'a.name', stream: 'a.stream', mashup_template: 'a."mashupTemplate"' },
  uuid: { folder_id: 'a."folderId"' },
};

export function analyticsAppDto(a: AnalyticsAppRow) {
  return {
    id: a.id,
    appId: a.appId,
    provider: a.provider,
    name: a.name,
    description: a.description,
    folderId: a.folderId,
    folderPath: a.folderPath,
    stream: a.stream,
    mashupTemplate: a.mashupTemplate,
    allowAnalyticsSenseApp: a.allowAnalyticsSenseApp,
    allowMashup: a.allowMashup,
    defaultOpen: a.defaultOpen,
    templateTitle: a.templateTitle,
    templateDescription: a.templateDescription,
    themeId: a.themeId,
    organizationId: a.organizationId,
    usedFields: a.usedFields,
    usedSheets: a.usedSheets,
    synchronization: a.synchronization,
    createdDate: iso(a.createdDate),
    modifiedDate: iso(a.modifiedDate),
  };
}

/** Registers an app; with the embedded provider an app that does not exist yet is created, empty. */
export async function saveAnalyticsApp(ctx: OpContext, id: string | null, f: AnalyticsAppFields) {
  if (f.organizationId) await findOr404(ctx, Organization, f.organizationId, 'Organization');
  const repo = ctx.db.getRepository(AnalyticsApp);
  const current = id ? await findOr404(ctx, AnalyticsApp, id, 'Analytics app') : null;
  const taken = await repo.findOneBy({ appId: f.appId });
  if (taken && taken.id !== id)
    throw conflict(`The app id "${f.appId}" is already registered`, [
      { field: 'body.appId', message: 'is already registered' },
    ]);
  if (current && current.appId !== f.appId)
    throw conflict('The app id of a registered app cannot change', [{ field: 'body.appId', message: 'cannot change' }]);
  if (!(await ctx.embedded.exists(f.appId))) await ctx.embedded.createApp(f.appId, f.name, f.description ?? null);
  const row: AnalyticsAppRow = {
    ...(current ?? { ...newBase(ctx.now()), provider: 'embedded', synchronization: null }),
    ...f,
    description: f.description ?? null,
    stream: f.stream ?? null,
    mashupTemplate: f.mashupTemplate ?? null,
    templateTitle: f.templateTitle ?? null,
    templateDescription: f.templateDescription ?? null,
    themeId: f.themeId ?? null,
    organizationId: f.organizationId ?? null,
    usedFields: f.usedFields ?? current?.usedFields ?? [],
    usedSheets: f.usedSheets ?? current?.usedSheets ?? [],
    modifiedDate: ctx.now(),
  };
  await repo.save(row);
  await ctx.embedded.updateMeta(f.appId, (m) => {
    m.name = row.name;
    m.description = row.description;
  });
  return analyticsAppDto(row);
}

/** Provider app ids by registered id, remembered until the database changes (a deletion included). */
const providerIds = new WeakMap<object, RememberedReads<string | undefined>>();

/** The provider's app id of a registered app. */
export async function providerAppId(ctx: OpContext, analyticsAppId: string): Promise<string> {
  // The one column through a kept statement, not the entity, and remembered while nothing is
  // written: every per-value evaluation asks this first, and its trip to the database's thread was
  // a fifth of a one-customer KPI's time over HTTP.
  let remembered = providerIds.get(ctx.db);
  if (!remembered) providerIds.set(ctx.db, (remembered = new RememberedReads()));
  const appId = await remembered.get(ctx.db, analyticsAppId, async () => {
    const [app] = await keptRead<{ appId: string }>(ctx.db, 'SELECT "appId" FROM analytics_apps WHERE id = ?', [
      analyticsAppId,
    ]);
    return app?.appId;
  });
  if (!appId) throw notFound(`Analytics app ${analyticsAppId}`);
  return appId;
}

/** Links apps to an organization; apps already linked stay linked once. */
export async function linkAppsToOrganization(ctx: OpContext, organizationId: string, appIds: string[]) {
  await findOr404(ctx, Organization, organizationId, 'Organization');
  await requireAll(ctx, AnalyticsApp, appIds, 'Analytics app');
  const unique = [...new Set(appIds)];
  if (unique.length)
    await ctx.db
      .createQueryBuilder()
      .insert()
      .into(OrganizationAnalyticsApp)
      .values(unique.map((a) => ({ organizationId, analyticsAppId: a })))
      .orIgnore()
      .execute();
  return { linked: unique.length };
}

export async function unlinkAppsFromOrganization(ctx: OpContext, organizationId: string, appIds: string[]) {
  await findOr404(ctx, Organization, organizationId, 'Organization');
  await requireAll(ctx, AnalyticsApp, appIds, 'Analytics app');
  if (appIds.length)
    await ctx.db.getRepository(OrganizationAnalyticsApp).delete({ organizationId, analyticsAppId: In(appIds) });
  return { unlinked: new Set(appIds).size };
}

/** The apps of a folder (or of the root folder), their names containing a text when given. */
export async function appsInFolder(
  ctx: OpContext,
  query: { ofRoot?: string; folderId?: string | null; name?: string | null },
) {
  const folder = query.ofRoot === 'true' ? ROOT_FOLDER_ID : query.folderId;
  const qb = withinOrganizations(
    ctx,
    ctx.db.getRepository(AnalyticsApp).createQueryBuilder('a'),
    AnalyticsApp,
    'a',
  ).orderBy('LOWER(a.name)', 'ASC');
  if (folder) qb.andWhere('a."folderId" = :folder', { folder });
  if (query.name)
    qb.andWhere("LOWER(a.name) LIKE :name ESCAPE '\\'", {
      name: `%${query.name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
    });
  return (await qb.getMany()).map(analyticsAppDto);
}

/** Where and when an app is synchronized from an analytics server. */
export async function updateSynchronization(ctx: OpContext, id: string, body: SynchronizationFields) {
  const app = await findOr404(ctx, AnalyticsApp, id, 'Analytics app');
  app.synchronization = {
    defaultFolderUrl: body.defaultFolderUrl ?? null,
    defaultFolderId: body.defaultFolderId ?? null,
    analyticsSenseServer: body.analyticsSenseServer ?? null,
    analyticsSenseAdminUser: body.analyticsSenseAdminUser ?? null,
    schedule: body.schedule ?? null,
  };
  app.modifiedDate = ctx.now();
  await ctx.db.getRepository(AnalyticsApp).save(app);
  return analyticsAppDto(app);
}

/** The apps linked to an organization, one page. */
export async function listOrganizationApps(ctx: OpContext, organizationId: string, spec: ListSpec, list: ListQuery) {
  await findOr404(ctx, Organization, organizationId, 'Organization');
  const qb = ctx.db
    .getRepository(AnalyticsApp)
    .createQueryBuilder('a')
    .where('a.id IN (SELECT "analyticsAppId" FROM organization_analytics_apps WHERE "organizationId" = :org)', {
      org: organizationId,
    });
  return pageOf(qb, spec, list, 'a.id', analyticsAppDto);
}
