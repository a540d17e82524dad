import { z } from 'zod';
import { withSetBIdsSchema } from '../../core/set-b-names.js';
import { OrganizationResult } from './organizations.rules.js';

// What the operations answer in `data` (for a list: one item). The API document gives these as JSON Schema,
// the conformance suite checks answers against them, and the catalogue checks at compile time that each
// handler's answer fits its schema.

export const OrganizationsListMembersResult = z.object({ id: z.string(), type: z.string(), name: z.string(), email: z.string().nullable(), createdDate: z.string().nullable() });

export const OrganizationsUpdateAuthenticationResult = z.object({
  id: z.string(),
  allowNtlm: z.boolean(),
  allowJwt: z.boolean(),
  serviceAuth: z.boolean(),
  identityProvider: z.string().nullable(),
  identityProviders: z.array(z.object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    isAactive: z.boolean(),
    createdDate: z.string().nullable(),
  })),
});

/** Set B's organization: the theme also under set B's name `themeID`. */
export const OrganizationBResult = withSetBIdsSchema(OrganizationResult, 'themeId');
