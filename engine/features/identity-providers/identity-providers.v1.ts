import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, TEXT_MAX, v } from '../../core/validation.js';
import { pageOfEntity } from '../../core/list-query.js';
import { countWhere, deleteByIds, refuseIfReferenced, requireAll } from '../../core/rows.js';
import { SAML_PROVIDER_TYPES } from '../../core/enumerations.js';
import { IdentityProvider } from '../../model/identity-providers.entity.js';
import { identityProviderDto, LIST_IDENTITY_PROVIDERS, saveIdentityProvider } from './identity-providers.rules.js';
import { IdentityProviderResult } from './identity-providers.results.js';
import { DeletedResult } from '../common.results.js';

// Set A 2.8 (SAML-style)
const IdentityProviderV1 = lazySchema(() =>
  z.object({
    name: v.text(),
    description: v.nstr(),
    signAuthnRequest: v.obool(),
    entityID: v.nstr(),
    singleSignOnUrl: v.nurl(),
    type: v.oneOf(SAML_PROVIDER_TYPES),
    certificatePublicKey: v.nstr(TEXT_MAX.long),
    singleLogoutUrl: v.nurl(),
    certificateFile: v.nstr(TEXT_MAX.long),
    buttonLabel: v.nstr(),
    /** Off: nobody signs in through it (its record stays). */
    isActive: v.obool(),
    /** On: a person the provider vouches for and nobody here has becomes a Hub user of its organization. */
    provision: v.obool(),
    /** JWT: the audience (`aud`) tokens must name, such as the embedding portal's client id; required to sign in. */
    audience: v.nstr(),
  }),
);

export const identityProvidersV1 = [
  defineOp({
    id: 'v1.identityProviders.list',
    summary: 'List identity providers',
    http: { method: 'GET', path: '/api/v1/identity-providers' },
    permission: 'viewSettings',
    list: LIST_IDENTITY_PROVIDERS,
    result: IdentityProviderResult,
    handler: (ctx, { list }) =>
      pageOfEntity(ctx, IdentityProvider, 'p', LIST_IDENTITY_PROVIDERS, list, identityProviderDto),
  }),
  defineOp({
    id: 'v1.identityProviders.delete',
    summary: 'Delete identity providers',
    http: { method: 'DELETE', path: '/api/v1/identity-providers' },
    permission: 'editSettings',
    objects: { 'body[]': 'identityProvider' },
    tenantWide: 'An identity provider',
    input: { body: v.uuidList() },
    result: DeletedResult,
    handler: async (ctx, { body }) => {
      for (const p of await requireAll(ctx, IdentityProvider, body, 'Identity provider')) {
        refuseIfReferenced(`Identity provider "${p.name}"`, [
          {
            what: 'organization(s)',
            count: await countWhere(
              ctx,
              'SELECT COUNT(*) AS n FROM organizations WHERE "identityProviderId" = ? OR id IN (SELECT "organizationId" FROM organization_identity_providers WHERE "identityProviderId" = ?)',
              [p.id, p.id],
            ),
          },
        ]);
      }
      return deleteByIds(ctx, IdentityProvider, body, 'Identity provider');
    },
  }),
  defineOp({
    id: 'v1.identityProviders.create',
    summary: 'Add identity provider',
    http: { method: 'POST', path: '/api/v1/identity-providers' },
    permission: 'editSettings',
    objects: { 'body.entityID': 'none' },
    tenantWide: 'An identity provider',
    input: { body: IdentityProviderV1 },
    result: IdentityProviderResult,
    handler: (ctx, { body }) => saveIdentityProvider(ctx, null, body),
  }),
  defineOp({
    id: 'v1.identityProviders.update',
    summary: 'Update identity provider',
    http: { method: 'PUT', path: '/api/v1/identity-providers/{id}' },
    permission: 'editSettings',
    objects: { 'body.entityID': 'none', 'params.id': 'identityProvider' },
    tenantWide: 'An identity provider',
    input: { params: idParam, body: IdentityProviderV1 },
    result: IdentityProviderResult,
    handler: (ctx, { params, body }) => saveIdentityProvider(ctx, params.id, body),
  }),
] as const;
