import { z } from 'zod';

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

export const OrganizationsCreateResult = z.object({
  id: z.string(),
  name: z.string().nullable(),
  displayName: z.string(),
  description: z.string().nullable(),
  themeId: z.string(),
  allowNtlm: z.boolean(),
  allowJwt: z.boolean(),
  serviceAuth: z.boolean(),
  identityProviderId: z.string().nullable(),
  createdDate: z.string().nullable(),
  modifiedDate: z.string().nullable(),
});
