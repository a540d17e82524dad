import type { SelectQueryBuilder } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { me } from '../../ops/context.js';
import { notFound } from '../../core/errors.js';
import { withinOrganizations } from '../../core/organization-boundary.js';
import { HubFile, type HubFileRow } from '../../model/hub.entity.js';
import { isTenantAdministrator } from '../../access/tenant-administrator.js';

/**
 * Who sees a published file, as SQL over `f` (a hub file) for the user `:hubUser`: a recipient of its
 * task with `seeInHub`, directly or through a group; for a dedicated file, only the users its
 * authorized-user variable named. Asked at read time, so joining or leaving a group, or a recipient
 * entry losing `seeInHub`, changes what a user sees at once.
 */
const VISIBLE = `(
  (f.kind <> 'dedicated' AND EXISTS (SELECT 1 FROM task_recipients r WHERE r."taskId" = f."taskId" AND r."seeInHub" = TRUE
     AND ((r.type = 'user' AND r."recipientId" = :hubUser)
       OR (r.type = 'group' AND r."recipientId" IN (SELECT g."targetId" FROM user_groups g WHERE g."userId" = :hubUser)))))
  OR (f.kind = 'dedicated' AND EXISTS (SELECT 1 FROM hub_file_users h WHERE h."fileId" = f.id AND h."userId" = :hubUser)))`;

/** Tenant administrators manage the whole hub; everyone else sees what was published to them. */
export const seesWholeHub = (ctx: OpContext) => isTenantAdministrator(me(ctx));

/** Hub files the caller may see, as a query builder over `f`: published to them, in their organizations. */
export function visibleFiles(ctx: OpContext): SelectQueryBuilder<HubFileRow> {
  const qb = ctx.db.getRepository(HubFile).createQueryBuilder('f');
  return seesWholeHub(ctx)
    ? qb
    : withinOrganizations(ctx, qb.where(VISIBLE, { hubUser: me(ctx).user.id }), HubFile, 'f');
}

/** One file the caller may see; 404 otherwise, the same answer as for a file that does not exist. */
export async function visibleFileOr404(ctx: OpContext, id: string): Promise<HubFileRow> {
  const file = await visibleFiles(ctx).andWhere('f.id = :fileId', { fileId: id }).getOne();
  if (!file) throw notFound(`File ${id}`);
  return file;
}
