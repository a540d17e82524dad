import { z } from 'zod';
import { defineOp } from '../../../ops/op.js';
import { idParam, v } from '../../../core/validation.js';
import { findOr404 } from '../../../core/rows.js';
import { badInput } from '../../../core/errors.js';
import { StorageService } from '../../../model/storage.entity.js';
import { readSetting, writeSetting } from '../../settings/settings.rules.js';
import { isCloud } from '../storage.rules.js';
import { microsoftAuthorizationUrl } from './microsoft.js';

const MicrosoftApp = z.object({
  clientId: z.string().trim().uuid('is not an application (client) id: a GUID from the app registration'),
  tenant: z
    .string()
    .trim()
    .max(100)
    .regex(/^[A-Za-z0-9.-]{1,100}$/, 'is not a tenant: its id, its domain (contoso.onmicrosoft.com), or organizations'),
  /** Left out to keep the one saved; null to remove it (a public client with PKCE alone). */
  clientSecret: z.string().max(1000).nullable().optional(),
});

const CloudAppsResult = z.object({
  microsoft: z.object({ clientId: z.string(), tenant: z.string(), hasSecret: z.boolean() }).nullable(),
});

export const cloudOps = [
  defineOp({
    id: 'app.settings.getCloudApps',
    summary: 'The app registrations cloud drives are connected through (secrets never answered)',
    http: { method: 'GET', path: '/api/app/settings/cloud-apps' },
    permission: 'viewSettings',
    result: CloudAppsResult,
    handler: async (ctx) => {
      const app = await readSetting(ctx, 'microsoftApp');
      return { microsoft: app ? { clientId: app.clientId, tenant: app.tenant, hasSecret: !!app.clientSecret } : null };
    },
  }),
  defineOp({
    id: 'app.settings.setCloudApps',
    summary: 'Enter the Microsoft app registration OneDrive and SharePoint storage connect through',
    http: { method: 'PUT', path: '/api/app/settings/cloud-apps' },
    permission: 'editSettings',
    tenantWide: 'The cloud drives’ app registrations',
    input: { body: z.object({ microsoft: MicrosoftApp }) },
    result: CloudAppsResult,
    handler: async (ctx, { body }) => {
      const current = await readSetting(ctx, 'microsoftApp');
      const m = body.microsoft;
      const saved = {
        clientId: m.clientId,
        tenant: m.tenant,
        clientSecret: ctx.secrets.sealOrKeep(m.clientSecret, current?.clientSecret ?? null),
      };
      await writeSetting(ctx, 'microsoftApp', saved);
      return { microsoft: { clientId: saved.clientId, tenant: saved.tenant, hasSecret: !!saved.clientSecret } };
    },
  }),
  defineOp({
    id: 'app.storageServices.connect',
    summary: "Start connecting a cloud drive storage service to an account: the provider's sign-in page to open",
    http: { method: 'POST', path: '/api/app/storage-services/{id}/connect' },
    permission: 'editSettings',
    input: { params: idParam },
    result: z.object({ authorizationUrl: v.text(2000) }),
    handler: async (ctx, { params }) => {
      const row = await findOr404(ctx, StorageService, params.id, 'Storage service');
      if (!isCloud(row.type))
        throw badInput(`A ${row.type} storage service signs in with its own user name, not an account`, [
          { field: 'params.id', message: 'is not a cloud drive' },
        ]);
      return { authorizationUrl: await microsoftAuthorizationUrl(ctx, row) };
    },
  }),
] as const;
