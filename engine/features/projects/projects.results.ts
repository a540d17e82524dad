import { z } from 'zod';

// What the operations answer in `data` (for a list: one item). The API document gives these as JSON Schema,
// the conformance suite checks answers against them, and the catalogue checks at compile time that each
// handler's answer fits its schema.

export const ProjectResult = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  organizationId: z.string(),
  isActive: z.boolean(),
  permissionsMode: z.boolean(),
  createdBy: z.string().nullable(),
  modifiedBy: z.string().nullable(),
  createdDate: z.string().nullable(),
  modifiedDate: z.string().nullable(),
});

export const ProjectsDeleteResult = z.object({ deleted: z.number(), deleteFiles: z.boolean() });
