import type { DataSource, EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import type { EngineServices } from '../../ops/context.js';
import { newBase } from '../../core/entity-base.js';
import {
  allPermissions,
  designerPermissions,
  hubUserPermissions,
  publisherPermissions,
} from '../../core/permissions.js';
import { newToken, tokenHash } from '../../core/passwords.js';
import { Organization } from '../../model/organizations.entity.js';
import { Role, type RoleRow } from '../../model/roles.entity.js';
import { Group } from '../../model/groups.entity.js';
import { ALL_USERS_GROUP } from '../groups/groups.rules.js';
import { User, UserGroup, UserOrganization, UserRole } from '../../model/users.entity.js';
import { ADMINISTRATOR_ROLE, HUB_USERS_ROLE } from '../users/users.rules.js';
import { ApiKey } from '../../model/api-keys.entity.js';
import { API_KEY_PREFIX } from '../auth/credential-prefixes.js';

export const DEFAULT_THEME_ID = '00000000-0000-0000-0000-000000000001';
export const DEFAULT_OWNER_EMAIL = 'owner@localhost';

/** A row inserted as given, without TypeORM reading it back for defaults: one trip to the database. */
const insertAsGiven = (m: EntityManager | DataSource, entity: EntityTarget<ObjectLiteral>, row: ObjectLiteral) =>
  m.createQueryBuilder().insert().into(entity).values(row).updateEntity(false).execute();

export interface FirstStartResult {
  created: boolean;
  ownerId: string;
}

/**
 * On an empty database: organization "Default", the roles "Administrator" (every permission),
 * "Designer", "Publisher" and "Hub users", the group "All users", and the tenant owner. Runs in one transaction, so a crash
 * half-way leaves an empty database that the next start seeds again.
 */
export async function ensureFirstStart(s: EngineServices, ownerEmail = DEFAULT_OWNER_EMAIL): Promise<FirstStartResult> {
  const existing = await s.db.getRepository(User).findOneBy({ isTenantOwner: true });
  if (existing) return { created: false, ownerId: existing.id };
  const now = s.now();
  const org = {
    ...newBase(now),
    name: 'Default',
    displayName: 'Default',
    description: 'Created at first start',
    themeId: DEFAULT_THEME_ID,
    allowNtlm: false,
    allowJwt: false,
    serviceAuth: true,
    identityProviderId: null,
  };
  const role = (name: string, description: string, permissions: RoleRow['permissions']): RoleRow => ({
    ...newBase(now),
    name,
    description,
    allProjects: true,
    projects: [],
    permissions,
    permissionsModifiedDate: now,
    isActive: true,
    type: 'system',
  });
  const admin = role(ADMINISTRATOR_ROLE, 'Every permission on every project', allPermissions());
  const hub = role(HUB_USERS_ROLE, 'Sees and subscribes to what is published to them', hubUserPermissions());
  // Ready-made roles as NPrinting's users know them (Developer, Publisher; its Recipient is "Hub users").
  const designer = role(
    'Designer',
    'Makes reports: projects, analytics apps, filters and conditions; sees how tasks went',
    designerPermissions(),
  );
  const publisher = role(
    'Publisher',
    'Distributes reports: tasks, their recipients and schedules, runs, and the hub',
    publisherPermissions(),
  );
  const group = {
    ...newBase(now),
    name: ALL_USERS_GROUP,
    description: 'Everyone',
    // Everyone's, in every organization: it belongs to none (an organization's people never see another's groups).
    organizationId: null,
    isActive: true,
    type: 'system',
  };
  const owner = {
    ...newBase(now),
    kind: 'user' as const,
    firstName: 'Tenant',
    lastName: 'Owner',
    email: ownerEmail.toLowerCase(),
    passwordHash: null,
    domainAccount: null,
    isActive: true,
    sendNotification: false,
    isoLanguage: 'en',
    isTenantOwner: true,
    isTenantAdmin: true,
    createdBy: null,
    modifiedBy: null,
  };
  await s.db.transaction(async (m) => {
    const insert = (entity: EntityTarget<ObjectLiteral>, row: ObjectLiteral) => insertAsGiven(m, entity, row);
    await insert(Organization, org);
    await insert(Role, admin);
    await insert(Role, hub);
    await insert(Role, designer);
    await insert(Role, publisher);
    await insert(Group, group);
    await insert(User, owner);
    await insert(UserOrganization, { userId: owner.id, targetId: org.id });
    await insert(UserGroup, { userId: owner.id, targetId: group.id });
    await insert(UserRole, { userId: owner.id, targetId: admin.id });
  });
  s.log.info('First start: created organization "Default", roles, group "All users" and the tenant owner', {
    ownerEmail,
  });
  return { created: true, ownerId: owner.id };
}

/** A one-time API key for the owner (headless first start); only the hash is stored. */
/** The name of the key `serve` writes to owner-api-key at first start: the first-run form revokes it once used. */
export const FIRST_START_KEY_NAME = 'Owner key (first start)';

export async function issueOwnerKey(
  s: EngineServices,
  ownerId: string,
  o: { firstStart?: boolean } = {},
  days = 365,
): Promise<string> {
  const key = newToken(API_KEY_PREFIX);
  const now = s.now();
  await insertAsGiven(s.db, ApiKey, {
    ...newBase(now),
    userId: ownerId,
    organizationId: null,
    name: o.firstStart ? FIRST_START_KEY_NAME : 'Owner key',
    description: o.firstStart ? 'Written to owner-api-key at first start' : "An API key of the tenant owner's",
    expiryDate: new Date(now.getTime() + days * 86400_000),
    keyHash: tokenHash(key),
    keyPrefix: key.slice(0, 10),
    lastUsedDate: null,
  });
  return key;
}
