import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import { asPart, inOneTransaction } from '../../ops/one-transaction.js';
import { v } from '../../core/validation.js';
import { MemberPermission, type MemberObjectKind } from '../../model/members.entity.js';
import {
  deleteMemberPermissions,
  listMemberPermissions,
  objectOf,
  PermissionSetInput,
  setPermissions,
} from './members.rules.js';

// An object's members as the permissions dialog holds them, saved as one: who is a member and what
// each may do, in one transaction. A member not listed loses their set; a refusal (a member who does
// not exist, a flag the caller may not grant) names the member's place and writes nothing.

export const PermissionsSaveInput = lazySchema(() =>
  z.object({
    members: z
      .array(z.object({ id: v.uuid(), type: v.oneOf(['user', 'group']), permissions: PermissionSetInput }))
      .max(1000),
  }),
);

export async function saveAllPermissions(
  ctx: OpContext,
  kind: MemberObjectKind,
  id: string,
  body: z.output<typeof PermissionsSaveInput>,
) {
  await inOneTransaction(ctx, async (tx) => {
    // Reached first: an object outside the caller's reach is not confirmed to exist.
    const object = await objectOf(tx, kind, id);
    const stored = await tx.db.getRepository(MemberPermission).findBy({ objectId: object.id });
    const gone = stored.filter((r) => !body.members.some((m) => m.id === r.memberId)).map((r) => r.id);
    if (gone.length) await asPart('Members removed', 'members', () => deleteMemberPermissions(tx, kind, id, gone));
    for (const [i, m] of body.members.entries())
      await asPart(
        `Member ${i + 1}`,
        `members.${i}`,
        () => setPermissions(tx, kind, id, { members: [{ id: m.id, type: m.type }], permissions: m.permissions }),
        'body.members.0',
      );
  });
  return listMemberPermissions(ctx, kind, id);
}
