import { z } from 'zod';

// What the operations answer in `data` (for a list: one item). The API document gives these as JSON Schema,
// the conformance suite checks answers against them, and the catalogue checks at compile time that each
// handler's answer fits its schema.

export const ApiKeysCreateResult = z.object({
  key: z.string(),
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  expiryDate: z.string().nullable(),
  expired: z.boolean(),
  keyPrefix: z.string(),
  userId: z.string().nullable(),
  organizationId: z.string().nullable(),
  lastUsedDate: z.string().nullable(),
  createdDate: z.string().nullable(),
  modifiedDate: z.string().nullable(),
});

export const ApiKeysUpdateResult = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  expiryDate: z.string().nullable(),
  expired: z.boolean(),
  keyPrefix: z.string(),
  userId: z.string().nullable(),
  organizationId: z.string().nullable(),
  lastUsedDate: z.string().nullable(),
  createdDate: z.string().nullable(),
  modifiedDate: z.string().nullable(),
});
