import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { pageOf, type ListSpec, pageOfEntity } from '../../core/list-query.js';
import { findOr404 } from '../../core/rows.js';
import { Organization } from '../organizations/organizations.entity.js';
import { AnalyticsApp } from './analytics-apps.entity.js';
import { AnalyticsAppV1, analyticsAppDto, linkAppsToOrganization, LIST_ANALYTICS_APPS, ROOT_FOLDER_ID, saveAnalyticsApp, unlinkAppsFromOrganization } from './analytics-apps.rules.js';

const ScheduleObject = z.record(v.str(100), z.union([v.str(), z.number(), z.boolean(), z.null(), z.array(z.union([v.str(), z.number()])).max(100)]));
const SynchronizationV1 = z.object({
  defaultFolderUrl: v.nstr(),
  defaultFolderId: v.nuuid(),
  analyticsSenseServer: v.nstr(),
  analyticsSenseAdminUser: v.nstr(),
  schedule: ScheduleObject.nullable().optional(),
});
const ByFolderQuery = z.object({
  folderId: v.uuid().optional(),
  name: z.string().max(200).optional(),
  ofRoot: z.enum(['true', 'false']).optional(),
});
const LIST_ORG_APPS: ListSpec = {
  sort: { Name: 'LOWER(a.name)', Stream: 'LOWER(a.stream)' },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'a.name' },
};

export const analyticsAppsV1 = [
  defineOp({
    id: 'v1.analyticsApps.create',
    summary: 'Create (register) an analytics app; the embedded provider creates it empty when new',
    http: { method: 'POST', path: '/api/v1/analytics-apps' },
    permission: 'createSystem',
    input: { body: AnalyticsAppV1 },
    handler: (ctx, { body }) => saveAnalyticsApp(ctx, null, body),
  }),
  defineOp({
    id: 'v1.analyticsApps.list',
    summary: 'List analytics apps',
    http: { method: 'GET', path: '/api/v1/analytics-apps' },
    permission: 'viewProject',
    list: LIST_ANALYTICS_APPS,
    handler: (ctx, { list }) => pageOfEntity(ctx.db, AnalyticsApp, 'a', LIST_ANALYTICS_APPS, list, analyticsAppDto),
  }),
  defineOp({
    id: 'v1.analyticsApps.update',
    summary: 'Update analytics app',
    http: { method: 'PUT', path: '/api/v1/analytics-apps/{id}' },
    permission: 'editSystem',
    input: { params: idParam, body: AnalyticsAppV1 },
    handler: (ctx, { params, body }) => saveAnalyticsApp(ctx, params.id, body),
  }),
  defineOp({
    id: 'v1.analyticsApps.listByFolder',
    summary: 'List apps of a folder, or of the root folder',
    http: { method: 'GET', path: '/api/v1/analytics-apps/folder' },
    permission: 'viewProject',
    input: { query: ByFolderQuery },
    handler: async (ctx, { query }) => {
      const folder = query.ofRoot === 'true' ? ROOT_FOLDER_ID : query.folderId;
      const qb = ctx.db.getRepository(AnalyticsApp).createQueryBuilder('a').orderBy('LOWER(a.name)', 'ASC');
      if (folder) qb.andWhere('a.folderId = :folder', { folder });
      if (query.name) qb.andWhere("LOWER(a.name) LIKE :name ESCAPE '\\'", { name: `%${query.name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` });
      return (await qb.getMany()).map(analyticsAppDto);
    },
  }),
  defineOp({
    id: 'v1.analyticsApps.updateSynchronization',
    summary: 'Update synchronization info of an analytics app',
    http: { method: 'PUT', path: '/api/v1/analytics-apps/{id}/synchronization' },
    permission: 'editSystem',
    input: { params: idParam, body: SynchronizationV1 },
    handler: async (ctx, { params, body }) => {
      const app = await findOr404(ctx, AnalyticsApp, params.id, 'Analytics app');
      app.synchronization = {
        defaultFolderUrl: body.defaultFolderUrl ?? null, defaultFolderId: body.defaultFolderId ?? null,
        analyticsSenseServer: body.analyticsSenseServer ?? null, analyticsSenseAdminUser: body.analyticsSenseAdminUser ?? null, schedule: body.schedule ?? null,
      };
      app.modifiedDate = ctx.now();
      await ctx.db.getRepository(AnalyticsApp).save(app);
      return analyticsAppDto(app);
    },
  }),
  defineOp({
    id: 'v1.organizations.listAnalyticsApps',
    summary: 'List analytics apps of an organization',
    http: { method: 'GET', path: '/api/v1/organizations/{id}/analytics-apps' },
    permission: 'viewSystem',
    input: { params: idParam },
    list: LIST_ORG_APPS,
    handler: async (ctx, { params, list }) => {
      await findOr404(ctx, Organization, params.id, 'Organization');
      const qb = ctx.db.getRepository(AnalyticsApp).createQueryBuilder('a').where('a.id IN (SELECT analyticsAppId FROM organization_analytics_apps WHERE organizationId = :org)', { org: params.id });
      return pageOf(qb, LIST_ORG_APPS, list, 'a.id', analyticsAppDto);
    },
  }),
  defineOp({
    id: 'v1.organizations.linkAnalyticsApps',
    summary: 'Link analytics apps to an organization (already linked apps are unaffected)',
    http: { method: 'POST', path: '/api/v1/organizations/{id}/analytics-apps' },
    permission: 'editSystem',
    input: { params: idParam, body: v.uuidList() },
    handler: (ctx, { params, body }) => linkAppsToOrganization(ctx, params.id, body),
  }),
  defineOp({
    id: 'v1.organizations.unlinkAnalyticsApps',
    summary: 'Unlink analytics apps from an organization',
    http: { method: 'DELETE', path: '/api/v1/organizations/{id}/analytics-apps' },
    permission: 'editSystem',
    input: { params: idParam, body: v.uuidList() },
    handler: (ctx, { params, body }) => unlinkAppsFromOrganization(ctx, params.id, body),
  }),
] as const;
