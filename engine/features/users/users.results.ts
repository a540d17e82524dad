import { z } from 'zod';

// What the operations answer in `data` (for a list: one item). The API document gives these as JSON Schema,
// the conformance suite checks answers against them, and the catalogue checks at compile time that each
// handler's answer fits its schema.

export const UsersTransferResult = z.object({ from: z.string(), to: z.string(), content: z.number(), permissions: z.number() });

export const UsersInviteResult = z.object({
  invited: z.array(z.object({ email: z.string(), userId: z.string() })),
  skipped: z.array(z.object({ email: z.string(), reason: z.string() })),
});

export const InvitationResult = z.object({ email: z.string().nullable() });
