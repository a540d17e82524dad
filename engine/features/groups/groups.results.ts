import { z } from 'zod';
import { GroupResult } from './groups.rules.js';
import { withSetBIdsSchema } from '../../core/set-b-names.js';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const GroupsListMembersResult = lazySchema(() =>
  z.object({
    id: z.string(),
    fullName: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    email: z.string().nullable(),
    isActive: z.boolean(),
    type: z.string(),
  }),
);

export const GroupBResult = lazySchema(() => withSetBIdsSchema(GroupResult, 'organizationId'));
