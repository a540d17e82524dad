import { z } from 'zod';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const UsersTransferResult = lazySchema(() =>
  z.object({
    from: z.string(),
    to: z.string(),
    content: z.number(),
    permissions: z.number(),
  }),
);

export const UsersInviteResult = lazySchema(() =>
  z.object({
    invited: z.array(z.object({ email: z.string(), userId: z.string() })),
    skipped: z.array(z.object({ email: z.string(), reason: z.string() })),
  }),
);

export const InvitationResult = lazySchema(() => z.object({ email: z.string().nullable() }));

export const InvitationCheckResult = lazySchema(() =>
  z.object({
    valid: z.boolean(),
    email: z.string().nullable(),
    firstName: z.string().nullable(),
    lastName: z.string().nullable(),
    /** Why the link no longer opens, in words. */
    problem: z.string().nullable(),
  }),
);
