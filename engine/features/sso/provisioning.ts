import type { EngineServices } from '../../ops/context.js';
import { newBase } from '../../core/entity-base.js';
import type { IdentityProviderRow } from '../../model/identity-providers.entity.js';
import { User, UserGroup, UserOrganization, UserRole, type UserRow } from '../../model/users.entity.js';
import { Role } from '../../model/roles.entity.js';
import { HUB_USERS_ROLE } from '../users/users.rules.js';
import { allUsersGroupId } from '../groups/groups.rules.js';
import { organizationsOf } from './sso-providers.js';
import type { Identity } from './identity.js';

// Provisioning on first sign-in, where the provider is set to provision (off by default): a person
// the provider vouches for, whom nobody here has, becomes a user of the provider's organization
// with the least there is: the built-in role "Hub users" and the group "All users". An address
// already held (by anyone, active or not, of any organization) is never taken over: that is
// "nobody here", as without provisioning. The system does this, not an administrator: it is logged.

const nameOf = (identity: Identity, email: string) => {
  const local = email.split('@')[0];
  return {
    firstName: (identity.givenName ?? local).slice(0, 100),
    lastName: (identity.familyName ?? '').slice(0, 100),
  };
};

export async function provisionUser(
  s: Pick<EngineServices, 'db' | 'now' | 'log'>,
  p: IdentityProviderRow,
  identity: Identity,
): Promise<UserRow | null> {
  const email = identity.email?.trim().toLowerCase();
  if (!p.provision || !email || !/^[^@\s]+@[^@\s]+$/.test(email) || email.length > 254) return null;
  if (await s.db.getRepository(User).existsBy({ email })) return null;
  // The provider's organizations in a fixed order: the first takes the person.
  const [organizationId] = (await organizationsOf(s, p.id)).sort();
  if (!organizationId) return null;
  const role = await s.db.getRepository(Role).findOneBy({ name: HUB_USERS_ROLE, type: 'system' });
  const group = await allUsersGroupId(s);
  const user: UserRow = {
    ...newBase(s.now()),
    kind: 'user',
    ...nameOf(identity, email),
    email,
    passwordHash: null,
    domainAccount: null,
    isActive: true,
    sendNotification: false,
    isoLanguage: null,
    isTenantOwner: false,
    isTenantAdmin: false,
    createdBy: null,
    modifiedBy: null,
  };
  await s.db.transaction(async (m) => {
    await m.getRepository(User).insert(user);
    await m.getRepository(UserOrganization).insert({ userId: user.id, targetId: organizationId });
    if (role) await m.getRepository(UserRole).insert({ userId: user.id, targetId: role.id });
    if (group) await m.getRepository(UserGroup).insert({ userId: user.id, targetId: group });
  });
  s.log.info('Company sign-in created a user', { provider: p.id, user: user.id, organization: organizationId });
  return user;
}
