import { z } from 'zod';

// What the operations answer in `data` (for a list: one item). The API document gives these as JSON Schema,
// the conformance suite checks answers against them, and the catalogue checks at compile time that each
// handler's answer fits its schema.

export const ConnectionResult = z.object({
  id: z.string(),
  projectId: z.string(),
  name: z.string(),
  analyticsAppId: z.string(),
  appId: z.string().nullable(),
  appName: z.string().nullable(),
  createdDate: z.string().nullable(),
  modifiedDate: z.string().nullable(),
});

export const ConnectionsListResult = z.array(ConnectionResult);
