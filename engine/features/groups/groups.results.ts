import { z } from 'zod';
import { withSetBIdsSchema } from '../../core/set-b-names.js';

// What the operations answer in `data` (for a list: one item). The API document gives these as JSON Schema,
// the conformance suite checks answers against them, and the catalogue checks at compile time that each
// handler's answer fits its schema.

export const GroupsListMembersResult = z.object({
  id: z.string(),
  fullName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string().nullable(),
  isActive: z.boolean(),
  type: z.string(),
});

export const GroupsAddUsersResult = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  organizationId: z.string().nullable(),
  organizationName: z.string().nullable(),
  isActive: z.boolean(),
  type: z.string(),
  users: z.number(),
  createdDate: z.string().nullable(),
  modifiedDate: z.string().nullable(),
});

export const GroupBResult = withSetBIdsSchema(GroupsAddUsersResult, 'organizationId');
