import { lazySchema } from '../../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../../ops/op.js';
import { idParam, v } from '../../../core/validation.js';
import { findOr404 } from '../../../core/rows.js';
import { badInput } from '../../../core/errors.js';
import { LOOPBACK_CALLBACK } from '../../../core/loopback-callback.js';
import { StorageService } from '../../../model/storage.entity.js';
import { readSetting, writeSetting } from '../../settings/settings.rules.js';
import { CALLBACK_PATH, CloudError } from './cloud-account.js';
import { connectUrl, finishConnect, isCloud } from './providers.js';

/** Left out to keep the one saved; null to remove it. */
const secret = z.string().max(1000).nullable().optional();

const MicrosoftApp = lazySchema(() =>
  z.object({
    clientId: z.string().trim().uuid('is not an application (client) id: a GUID from the app registration'),
    tenant: z
      .string()
      .trim()
      .max(100)
      .regex(
        /^[A-Za-z0-9.-]{1,100}$/,
        'is not a tenant: its id, its domain (contoso.onmicrosoft.com), or organizations',
      ),
    /** Null for a public client with PKCE alone. */
    clientSecret: secret,
  }),
);
const GoogleApp = lazySchema(() =>
  z.object({
    clientId: z
      .string()
      .trim()
      .max(200)
      .regex(
        /^[\w.-]+\.apps\.googleusercontent\.com$/,
        'is not an OAuth client id: it ends in .apps.googleusercontent.com',
      ),
    clientSecret: secret,
  }),
);
const DropboxApp = lazySchema(() =>
  z.object({
    clientId: z
      .string()
      .trim()
      .max(100)
      .regex(/^[a-z0-9]{5,40}$/i, "is not an app key: the letters and digits on the app's Settings page at Dropbox"),
    clientSecret: secret,
  }),
);

const CloudAppsInput = lazySchema(() =>
  z
    .object({ microsoft: MicrosoftApp.optional(), google: GoogleApp.optional(), dropbox: DropboxApp.optional() })
    .refine((b) => b.microsoft || b.google || b.dropbox, 'names the Microsoft, Google or Dropbox app to save'),
);
const Registered = lazySchema(() => z.object({ clientId: z.string(), hasSecret: z.boolean() }));
const CloudAppsResult = lazySchema(() =>
  z.object({
    microsoft: Registered.extend({ tenant: z.string() }).nullable(),
    google: Registered.nullable(),
    dropbox: Registered.nullable(),
  }),
);

/** A registration as the screen sees it: the secret only as "there is one". */
const shown = (app: { clientId: string; clientSecret: string | null } | null) =>
  app ? { clientId: app.clientId, hasSecret: !!app.clientSecret } : null;

async function cloudApps(ctx: Parameters<typeof readSetting>[0]) {
  const [m, g, d] = await Promise.all([
    readSetting(ctx, 'microsoftApp'),
    readSetting(ctx, 'googleApp'),
    readSetting(ctx, 'dropboxApp'),
  ]);
  return { microsoft: m ? { ...shown(m)!, tenant: m.tenant } : null, google: shown(g), dropbox: shown(d) };
}

const ConnectBody = z
  .object({
    /** The desktop's loopback listener (RFC 8252); left out, the browser comes back to this server. */
    redirectUri: z.string().max(100).regex(LOOPBACK_CALLBACK, 'must be http://127.0.0.1:<port>/callback').optional(),
  })
  .optional();

export const cloudOps = [
  defineOp({
    id: 'app.settings.getCloudApps',
    summary: 'The app registrations cloud drives are connected through (secrets never answered)',
    http: { method: 'GET', path: '/api/app/settings/cloud-apps' },
    permission: 'viewSettings',
    result: CloudAppsResult,
    handler: (ctx) => cloudApps(ctx),
  }),
  defineOp({
    id: 'app.settings.setCloudApps',
    summary: 'Enter the app registrations (Microsoft, Google, Dropbox) cloud drive storage connects through',
    http: { method: 'PUT', path: '/api/app/settings/cloud-apps' },
    permission: 'editSettings',
    objects: { 'body.dropbox.clientId': 'none', 'body.google.clientId': 'none', 'body.microsoft.clientId': 'none' },
    tenantWide: 'The cloud drives’ app registrations',
    input: {
      body: CloudAppsInput,
    },
    result: CloudAppsResult,
    handler: async (ctx, { body }) => {
      const keep = (given: string | null | undefined, saved: { clientSecret: string | null } | null) =>
        ctx.secrets.sealOrKeep(given, saved?.clientSecret ?? null);
      if (body.microsoft) {
        const m = body.microsoft;
        const current = await readSetting(ctx, 'microsoftApp');
        await writeSetting(ctx, 'microsoftApp', {
          clientId: m.clientId,
          tenant: m.tenant,
          clientSecret: keep(m.clientSecret, current),
        });
      }
      if (body.google) {
        const current = await readSetting(ctx, 'googleApp');
        const clientSecret = keep(body.google.clientSecret, current);
        // Google's token endpoint takes no code without the client's secret, PKCE or not.
        if (!clientSecret)
          throw badInput('A Google OAuth client needs its secret', [
            { field: 'body.google.clientSecret', message: 'is required: the client secret shown with the client id' },
          ]);
        await writeSetting(ctx, 'googleApp', { clientId: body.google.clientId, clientSecret });
      }
      if (body.dropbox) {
        const current = await readSetting(ctx, 'dropboxApp');
        await writeSetting(ctx, 'dropboxApp', {
          clientId: body.dropbox.clientId,
          clientSecret: keep(body.dropbox.clientSecret, current),
        });
      }
      return cloudApps(ctx);
    },
  }),
  defineOp({
    id: 'app.storageServices.connect',
    summary: "Start connecting a cloud drive storage service to an account: the provider's sign-in page to open",
    http: { method: 'POST', path: '/api/app/storage-services/{id}/connect' },
    permission: 'editSettings',
    objects: { 'params.id': 'storageService' },
    input: { params: idParam, body: ConnectBody },
    result: z.object({ authorizationUrl: v.text(2000) }),
    handler: async (ctx, { params, body }) => {
      const row = await findOr404(ctx, StorageService, params.id, 'Storage service');
      if (!isCloud(row.type))
        throw badInput(`A ${row.type} storage service signs in with its own user name, not an account`, [
          { field: 'params.id', message: 'is not a cloud drive' },
        ]);
      if (!body?.redirectUri && !ctx.address.http) throw new Error('The engine has no address to come back to yet');
      const redirectUri = body?.redirectUri ?? `${ctx.address.http}${CALLBACK_PATH}`;
      return { authorizationUrl: await connectUrl(ctx, row, redirectUri) };
    },
  }),
  defineOp({
    id: 'app.storageServices.finishConnect',
    summary: "Finish connecting a cloud drive from the provider's answer at the desktop's loopback address",
    http: { method: 'POST', path: '/api/app/storage-services/connect/finish' },
    permission: 'editSettings',
    input: {
      body: z.object({ callbackUrl: z.string().max(4000).regex(LOOPBACK_CALLBACK, 'is not the loopback callback') }),
    },
    result: z.object({ id: v.uuid() }),
    handler: async (ctx, { body }) => {
      const q = new URL(body.callbackUrl).searchParams;
      const [code, state, error] = [q.get('code'), q.get('state'), q.get('error')];
      if (error || !code || !state)
        throw badInput(`The provider did not connect the account${error ? ` (${error.slice(0, 100)})` : ''}`, [
          { field: 'body.callbackUrl', message: 'carries no authorization code: the sign-in was declined' },
        ]);
      try {
        return { id: await finishConnect(ctx, code, state) };
      } catch (e) {
        if (!(e instanceof CloudError)) throw e;
        throw badInput(`The account was not connected: ${e.message}`, [
          { field: 'body.callbackUrl', message: e.message },
        ]);
      }
    },
  }),
] as const;
