import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { type ListSpec, pageOfEntity } from '../../core/list-query.js';
import { AnalyticsApp } from '../../model/analytics-apps.entity.js';
import {
  AnalyticsAppV1,
  analyticsAppDto,
  linkAppsToOrganization,
  LIST_ANALYTICS_APPS,
  saveAnalyticsApp,
  unlinkAppsFromOrganization,
  appsInFolder,
  updateSynchronization,
  listOrganizationApps,
  SynchronizationV1,
} from './analytics-apps.rules.js';
import {
  AnalyticsAppResult,
  AnalyticsAppsListByFolderResult,
  OrganizationsLinkAnalyticsAppsResult,
  OrganizationsUnlinkAnalyticsAppsResult,
} from './analytics-apps.results.js';

const ByFolderQuery = lazySchema(() =>
  z.object({
    folderId: v.uuid().optional(),
    name: z.string().max(200).optional(),
    ofRoot: z.enum(['true', 'false']).optional(),
  }),
);
const LIST_ORG_APPS: ListSpec = {
  sort: { Name: 'LOWER(a.name)', Stream: 'LOWER(a.stream)' },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'a.name' },
};

/** The ids an app record's body names: its organization; the rest are the provider's, not stored objects. */
const APP_RECORD_OBJECTS = {
  'body.appId': 'none',
  'body.folderId': 'none',
  'body.organizationId': 'organization',
  'body.themeId': 'none',
  'body.usedFields[].appId': 'none',
  'body.usedSheets[].sheetId': 'none',
} as const;

export const analyticsAppsV1 = [
  defineOp({
    id: 'v1.analyticsApps.create',
    summary: 'Create (register) an analytics app; the embedded provider creates it empty when new',
    http: { method: 'POST', path: '/api/v1/analytics-apps' },
    permission: 'createSystem',
    objects: APP_RECORD_OBJECTS,
    input: { body: AnalyticsAppV1 },
    result: AnalyticsAppResult,
    handler: (ctx, { body }) => saveAnalyticsApp(ctx, null, body),
  }),
  defineOp({
    id: 'v1.analyticsApps.list',
    summary: 'List analytics apps',
    http: { method: 'GET', path: '/api/v1/analytics-apps' },
    permission: 'viewProject',
    list: LIST_ANALYTICS_APPS,
    result: AnalyticsAppResult,
    handler: (ctx, { list }) => pageOfEntity(ctx, AnalyticsApp, 'a', LIST_ANALYTICS_APPS, list, analyticsAppDto),
  }),
  defineOp({
    id: 'v1.analyticsApps.update',
    summary: 'Update analytics app',
    http: { method: 'PUT', path: '/api/v1/analytics-apps/{id}' },
    permission: 'editSystem',
    objects: { ...APP_RECORD_OBJECTS, 'params.id': 'analyticsApp' },
    input: { params: idParam, body: AnalyticsAppV1 },
    result: AnalyticsAppResult,
    handler: (ctx, { params, body }) => saveAnalyticsApp(ctx, params.id, body),
  }),
  defineOp({
    id: 'v1.analyticsApps.listByFolder',
    summary: 'List apps of a folder, or of the root folder',
    http: { method: 'GET', path: '/api/v1/analytics-apps/folder' },
    permission: 'viewProject',
    objects: { 'query.folderId': 'none' },
    input: { query: ByFolderQuery },
    result: AnalyticsAppsListByFolderResult,
    handler: (ctx, { query }) => appsInFolder(ctx, query),
  }),
  defineOp({
    id: 'v1.analyticsApps.updateSynchronization',
    summary: 'Update synchronization info of an analytics app',
    http: { method: 'PUT', path: '/api/v1/analytics-apps/{id}/synchronization' },
    permission: 'editSystem',
    objects: { 'body.defaultFolderId': 'none', 'params.id': 'analyticsApp' },
    input: { params: idParam, body: SynchronizationV1 },
    result: AnalyticsAppResult,
    handler: (ctx, { params, body }) => updateSynchronization(ctx, params.id, body),
  }),
  defineOp({
    id: 'v1.organizations.listAnalyticsApps',
    summary: 'List analytics apps of an organization',
    http: { method: 'GET', path: '/api/v1/organizations/{id}/analytics-apps' },
    permission: 'viewSystem',
    objects: { 'params.id': 'organization' },
    input: { params: idParam },
    list: LIST_ORG_APPS,
    result: AnalyticsAppResult,
    handler: (ctx, { params, list }) => listOrganizationApps(ctx, params.id, LIST_ORG_APPS, list),
  }),
  defineOp({
    id: 'v1.organizations.linkAnalyticsApps',
    summary: 'Link analytics apps to an organization (already linked apps are unaffected)',
    http: { method: 'POST', path: '/api/v1/organizations/{id}/analytics-apps' },
    permission: 'editSystem',
    objects: { 'body[]': 'analyticsApp', 'params.id': 'organization' },
    input: { params: idParam, body: v.uuidList() },
    result: OrganizationsLinkAnalyticsAppsResult,
    handler: (ctx, { params, body }) => linkAppsToOrganization(ctx, params.id, body),
  }),
  defineOp({
    id: 'v1.organizations.unlinkAnalyticsApps',
    summary: 'Unlink analytics apps from an organization',
    http: { method: 'DELETE', path: '/api/v1/organizations/{id}/analytics-apps' },
    permission: 'editSystem',
    objects: { 'body[]': 'analyticsApp', 'params.id': 'organization' },
    input: { params: idParam, body: v.uuidList() },
    result: OrganizationsUnlinkAnalyticsAppsResult,
    handler: (ctx, { params, body }) => unlinkAppsFromOrganization(ctx, params.id, body),
  }),
] as const;
