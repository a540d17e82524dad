import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { createOrganization, setOrganizationAuthentication, updateOrganization } from './organizations.rules.js';
import { OrganizationBResult, OrganizationsUpdateAuthenticationResult } from './organizations.results.js';
import { withSetBIds } from '../../core/set-b-names.js';

// Set B 2.8
const CreateV2 = lazySchema(() =>
  z.object({ name: v.nstr(), displayName: v.text(), description: v.nstr(), themeID: v.uuid() }),
);
const UpdateV2 = lazySchema(() => z.object({ displayName: v.text(), description: v.nstr(), themeID: v.uuid() }));
// The interface names the flag `<service>Auth` and says the reference spells it `qalyptusAuth`:
// both spellings are accepted, one is required.
const AuthenticationV2 = z
  .object({ serviceAuth: v.obool(), qalyptusAuth: v.obool(), identityProvider: v.nuuid() })
  .superRefine((b, c) => {
    if (b.serviceAuth === undefined && b.qalyptusAuth === undefined)
      c.addIssue({ code: 'custom', path: ['serviceAuth'], message: 'is required' });
  });

export const organizationsV2 = [
  defineOp({
    id: 'v2.organizations.create',
    summary: 'Create organization',
    http: { method: 'POST', path: '/api/v2/organizations' },
    permission: 'createSystem',
    objects: { 'body.themeID': 'none' },
    input: { body: CreateV2 },
    result: OrganizationBResult,
    handler: async (ctx, { body }) =>
      withSetBIds(await createOrganization(ctx, { ...body, themeId: body.themeID }), 'themeId'),
  }),
  defineOp({
    id: 'v2.organizations.update',
    summary: 'Update organization',
    http: { method: 'PUT', path: '/api/v2/organizations/{id}' },
    permission: 'editSystem',
    objects: { 'body.themeID': 'none', 'params.id': 'organization' },
    input: { params: idParam, body: UpdateV2 },
    result: OrganizationBResult,
    handler: async (ctx, { params, body }) =>
      withSetBIds(
        await updateOrganization(ctx, params.id, {
          displayName: body.displayName,
          description: body.description,
          themeId: body.themeID,
        }),
        'themeId',
      ),
  }),
  defineOp({
    id: 'v2.organizations.updateAuthentication',
    summary: 'Update authentication settings of an organization',
    http: { method: 'PUT', path: '/api/v2/organizations/{id}/authentication' },
    permission: 'editSystem',
    objects: { 'body.identityProvider': 'identityProvider', 'params.id': 'organization' },
    input: { params: idParam, body: AuthenticationV2 },
    result: OrganizationsUpdateAuthenticationResult,
    handler: (ctx, { params, body }) =>
      setOrganizationAuthentication(ctx, params.id, {
        serviceAuth: body.serviceAuth ?? body.qalyptusAuth,
        identityProviderId: body.identityProvider,
      }),
  }),
] as const;
