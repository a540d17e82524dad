import type { DataSource } from 'typeorm';
import { Organization } from '../model/organizations.entity.js';
import type { Principal } from './context.js';
import { isTenantAdministrator } from '../access/tenant-administrator.js';

/**
 * Whether the caller may change what every organization shares (a mail server, sign-in settings,
 * identity providers, user directories, trusted origins, built-in roles): a tenant administrator,
 * or someone whose organizations are all the tenant has (on a one-organization install, its
 * administrators). An administrator of one organization among several may not: a change there
 * reaches people of organizations they do not administer.
 */
export async function mayChangeTenantWide(db: DataSource, p: Principal): Promise<boolean> {
  if (isTenantAdministrator(p) || p.organizationIds === null) return true;
  const others = db.getRepository(Organization).createQueryBuilder('o');
  if (p.organizationIds.length) others.where('o.id NOT IN (:...ids)', { ids: p.organizationIds });
  return (await others.getCount()) === 0;
}

/** The refusal's words: what is shared, and who may change it. */
export const tenantWideRefusal = (what: string) =>
  `${what} is shared by every organization: only a tenant administrator may change it`;
