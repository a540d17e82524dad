import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const IdentityProviderResult = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    type: z.string(),
    isActive: z.boolean(),
    signAuthnRequest: z.boolean(),
    provision: z.boolean(),
    entityID: z.string().nullable(),
    singleSignOnUrl: z.string().nullable(),
    certificatePublicKey: z.string().nullable(),
    singleLogoutUrl: z.string().nullable(),
    certificateFile: z.string().nullable(),
    buttonLabel: z.string().nullable(),
    clientID: z.string().nullable(),
    hasClientSecret: z.boolean(),
    authorizationEndpoint: z.string().nullable(),
    accessTokenEndpoint: z.string().nullable(),
    userinfoEndpoint: z.string().nullable(),
    logoutEndpoint: z.string().nullable(),
    postLogoutRedirectUrl: z.string().nullable(),
    audience: z.string().nullable(),
    scopes: z.string().nullable(),
    createdDate: z.string().nullable(),
    modifiedDate: z.string().nullable(),
  }),
);
