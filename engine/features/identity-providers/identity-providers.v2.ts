import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { OAUTH_PROVIDER_TYPES } from '../../core/enumerations.js';
import { saveIdentityProvider } from './identity-providers.rules.js';
import { IdentityProviderResult } from './identity-providers.results.js';

// Set B 2.7 (OAuth-style)
const common = {
  name: v.text(),
  description: v.nstr(),
  clientID: v.text(),
  authorizationEndpoint: v.url(),
  accessTokenEndpoint: v.url(),
  userinfoEndpoint: v.url(),
  logoutEndpoint: v.nurl(),
  postLogoutRedirectUrl: v.nurl(),
  /**
   * Beyond set B: the OpenID issuer (https://login.example.com/realm). With it the ID token is
   * verified against the issuer's published keys; without it, who signed in comes from userinfo.
   */
  issuer: v.nurl(),
  /** Off: nobody signs in through it (its record stays). */
  isActive: v.obool(),
  /** On: a person the provider vouches for and nobody here has becomes a Hub user of its organization. */
  provision: v.obool(),
  /** Beyond set B: the scopes to ask for, space-separated (`openid email profile` when left out). */
  scopes: z
    .string()
    .trim()
    .max(500)
    .regex(/^[\x21\x23-\x5B\x5D-\x7E]+( [\x21\x23-\x5B\x5D-\x7E]+)*$/, 'must be scope names separated by spaces')
    .nullable()
    .optional(),
};
const CreateV2 = lazySchema(() => z.object({ ...common, type: v.oneOf(OAUTH_PROVIDER_TYPES), clientSecret: v.text() }));
// On update the secret may be omitted or null: the stored one is kept.
const UpdateV2 = lazySchema(() => z.object({ ...common, clientSecret: v.nstr() }));

export const identityProvidersV2 = [
  defineOp({
    id: 'v2.identityProviders.create',
    summary: 'Create identity provider',
    http: { method: 'POST', path: '/api/v2/identity-providers' },
    permission: 'editSettings',
    objects: { 'body.clientID': 'none' },
    tenantWide: 'An identity provider',
    input: { body: CreateV2 },
    result: IdentityProviderResult,
    handler: (ctx, { body: { issuer, ...body } }) =>
      saveIdentityProvider(ctx, null, { ...body, entityID: issuer }, 'body.issuer'),
  }),
  defineOp({
    id: 'v2.identityProviders.update',
    summary: 'Update identity provider',
    http: { method: 'PUT', path: '/api/v2/identity-providers/{id}' },
    permission: 'editSettings',
    objects: { 'body.clientID': 'none', 'params.id': 'identityProvider' },
    tenantWide: 'An identity provider',
    input: { params: idParam, body: UpdateV2 },
    result: IdentityProviderResult,
    handler: (ctx, { params, body: { issuer, ...body } }) =>
      saveIdentityProvider(ctx, params.id, { ...body, entityID: issuer }, 'body.issuer'),
  }),
] as const;
