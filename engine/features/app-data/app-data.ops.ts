import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { v } from '../../core/validation.js';
import { appSources, setAppSources, SourcesInput } from './app-sources.rules.js';
import { reloadApp } from './reload.js';
import { APP_STORE } from '../analytics-apps/app-store.js';

const appParam = z.object({ id: v.uuid() });
const path = (suffix: string) => `/api/app/analytics/{id}${suffix}`;

const ReloadResult = z.object({
  id: z.string(),
  trigger: z.string(),
  status: z.enum(['running', 'completed', 'failed']),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  rows: z.number().nullable(),
  message: z.string().nullable(),
});
const SourcesResult = z.object({
  sources: z.array(z.object({ name: z.string(), connectionId: z.string(), query: z.string() })),
  reloads: z.array(ReloadResult),
});

export const appDataOps = [
  defineOp({
    id: 'app.analytics.getSources',
    summary: "An app's sources (queries on data connections) and its last reloads",
    http: { method: 'GET', path: path('/sources') },
    permission: 'viewProject',
    input: { params: appParam },
    result: SourcesResult,
    handler: (ctx, { params }) => appSources(ctx, params.id),
  }),
  defineOp({
    id: 'app.analytics.setSources',
    summary: "Set where an app's data comes from: a query on a data connection, loaded by each reload",
    http: { method: 'PUT', path: path('/sources') },
    permission: 'updateProject',
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
    writes: APP_STORE,
    input: { params: appParam },
    result: ReloadResult,
    handler: (ctx, { params }) => reloadApp(ctx, params.id, 'manual'),
  }),
] as const;
