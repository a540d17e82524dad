import { z } from 'zod';
import { withSetBIdsSchema } from '../../core/set-b-names.js';
import { OrganizationResult } from './organizations.rules.js';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const OrganizationsListMembersResult = lazySchema(() =>
  z.object({
    id: z.string(),
    type: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    createdDate: z.string().nullable(),
  }),
);

export const OrganizationsUpdateAuthenticationResult = lazySchema(() =>
  z.object({
    id: z.string(),
    allowNtlm: z.boolean(),
    allowJwt: z.boolean(),
    serviceAuth: z.boolean(),
    identityProvider: z.string().nullable(),
    identityProviders: z.array(
      z.object({
        id: z.string(),
        name: z.string(),
        description: z.string().nullable(),
        isAactive: z.boolean(),
        createdDate: z.string().nullable(),
      }),
    ),
  }),
);

/** Set B's organization: the theme also under set B's name `themeID`. */
export const OrganizationBResult = lazySchema(() => withSetBIdsSchema(OrganizationResult, 'themeId'));
