import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { findOr404 } from '../../core/rows.js';
import { AnalyticsApp } from '../../model/analytics-apps.entity.js';
import { RELOAD_STATUSES } from '../../model/data-connections.entity.js';
import { defineOp } from '../../ops/op.js';
import { v } from '../../core/validation.js';
import { appSources, PreviewInput, previewSource, setAppSources, SourcesInput } from './app-sources.rules.js';
import { reloadNow } from './reload-now.js';
import { RecentReloadsQuery, recentReloads } from './recent-reloads.js';
import { ReloadScheduleInput, setReloadSchedule } from './reload-schedule.rules.js';

const appParam = lazySchema(() => z.object({ id: v.uuid() }));
const path = (suffix: string) => `/api/app/analytics/{id}${suffix}`;

const ReloadResult = lazySchema(() =>
  z.object({
    id: z.string(),
    trigger: z.string(),
    status: z.enum(RELOAD_STATUSES),
    startedAt: z.string(),
    endedAt: z.string().nullable(),
    durationMs: z.number().nullable(),
    rows: z.number().nullable(),
    message: z.string().nullable(),
    scheduledFor: z.string().nullable(),
  }),
);
const nullableNumber = z.number().nullable();
const RecentReloadsResult = lazySchema(() => z.array(ReloadResult.extend({ appId: z.string(), appName: z.string() })));
const ScheduleResult = lazySchema(() =>
  z.object({
    isActive: z.boolean(),
    timeZone: z.string(),
    frequency: z.string(),
    day: nullableNumber,
    month: nullableNumber,
    atHour: nullableNumber,
    atMinut: nullableNumber,
    everyHours: nullableNumber,
    fromHour: nullableNumber,
    fromMinut: nullableNumber,
    toHour: nullableNumber,
    toMinut: nullableNumber,
    weeklyDays: z.string().nullable(),
    startDate: z.string(),
    endDate: z.string().nullable(),
    nextFireTime: z.string().nullable(),
    summary: z.string().nullable(),
    nextRuns: z.array(z.string()),
  }),
);
const SourcesResult = lazySchema(() =>
  z.object({
    sources: z.array(z.object({ name: z.string(), connectionId: z.string(), query: z.string() })),
    reloads: z.array(ReloadResult),
    schedule: ScheduleResult.nullable(),
  }),
);

export const appDataOps = [
  defineOp({
    id: 'app.analytics.listReloads',
    summary:
      'The latest reloads of the apps the caller sees, newest first, each with its app: how it was started, how long it took, its rows, why it failed',
    http: { method: 'GET', path: '/api/app/analytics/reloads' },
    permission: 'viewProject',
    input: { query: RecentReloadsQuery },
    result: RecentReloadsResult,
    handler: (ctx, { query }) => recentReloads(ctx, query),
  }),
  defineOp({
    id: 'app.analytics.getSources',
    summary: "An app's sources (queries on data connections) and its last reloads",
    http: { method: 'GET', path: path('/sources') },
    permission: 'viewProject',
    objects: { 'params.id': 'analyticsApp' },
    input: { params: appParam },
    result: SourcesResult,
    handler: (ctx, { params }) => appSources(ctx, params.id),
  }),
  defineOp({
    id: 'app.analytics.setSources',
    summary: "Set where an app's data comes from: a query on a data connection, loaded by each reload",
    http: { method: 'PUT', path: path('/sources') },
    permission: 'updateProject',
    objects: { 'body.sources[].connectionId': 'dataConnection', 'params.id': 'analyticsApp' },
    input: { params: appParam, body: SourcesInput },
    result: SourcesResult,
    handler: (ctx, { params, body }) => setAppSources(ctx, params.id, body),
  }),
  defineOp({
    id: 'app.analytics.reload',
    summary:
      "Reload an app from its sources now: rows streamed from the database into a new version of the app's data (the data before stays if it fails); progress events while it loads",
    http: { method: 'POST', path: path('/reload') },
    permission: 'updateProject',
    objects: { 'params.id': 'analyticsApp' },
    // Reading the source takes no lock: the reload queue keeps one reload per app, and the new data
    // is written in the app's own queue (reload.ts), not held for the whole read.
    writes: 'chunked',
    input: { params: appParam },
    result: ReloadResult,
    handler: (ctx, { params }) => reloadNow(ctx, params.id),
  }),
  defineOp({
    id: 'app.analytics.previewSource',
    summary: "The first 100 rows a source's query answers on a data connection, to check it before a reload",
    http: { method: 'POST', path: path('/sources/preview') },
    permission: 'updateProject',
    objects: { 'body.connectionId': 'dataConnection', 'params.id': 'analyticsApp' },
    readOnly: true,
    input: { params: appParam, body: PreviewInput },
    result: z.object({ columns: z.array(z.string()), rows: z.array(z.array(z.string().nullable())) }),
    handler: (ctx, { params, body }) => previewSource(ctx, params.id, body),
  }),
  defineOp({
    id: 'app.analytics.cancelReload',
    summary:
      "Stop an app's reload while it reads its source, on whichever server reads it, and drop its queued ones: the data before it stays",
    http: { method: 'POST', path: path('/reload/cancel') },
    permission: 'updateProject',
    objects: { 'params.id': 'analyticsApp' },
    input: { params: appParam },
    result: z.object({ cancelled: z.boolean() }),
    handler: async (ctx, { params }) => {
      await findOr404(ctx, AnalyticsApp, params.id, 'Analytics app');
      return { cancelled: await ctx.reloads.cancel(params.id) };
    },
  }),
  defineOp({
    id: 'app.analytics.setReloadSchedule',
    summary:
      "When an app reloads by itself: the forms of a task's schedule (once, hourly, daily, weekly, monthly, yearly) in a time zone; isActive false turns it off",
    http: { method: 'PUT', path: path('/reload-schedule') },
    permission: 'updateProject',
    objects: { 'params.id': 'analyticsApp' },
    input: { params: appParam, body: ReloadScheduleInput },
    result: ScheduleResult,
    handler: async (ctx, { params, body }) => (await setReloadSchedule(ctx, params.id, body))!,
  }),
] as const;
