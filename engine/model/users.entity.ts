import { EntitySchema } from 'typeorm';
import { baseColumns, flag, ref, text, type BaseRow } from '../core/entity-base.js';
import { boundByOrganization } from '../core/organization-boundary.js';

export type UserKind = 'user' | 'recipient';

export interface UserRow extends BaseRow {
  /** The user directory the row is synchronized from, with its key there; null when made here. */
  directoryId?: string | null;
  directoryKey?: string | null;
  kind: UserKind;
  firstName: string;
  lastName: string;
  email: string | null;
  passwordHash: string | null;
  domainAccount: string | null;
  isActive: boolean;
  sendNotification: boolean;
  isoLanguage: string | null;
  /** The person's own time zone (IANA); null: the zone of the screen they use. */
  timeZone?: string | null;
  isTenantOwner: boolean;
  isTenantAdmin: boolean;
  createdBy: string | null;
  modifiedBy: string | null;
}

export const User = new EntitySchema<UserRow>({
  name: 'User',
  tableName: 'users',
  columns: {
    ...baseColumns,
    kind: { type: 'varchar', length: 16, default: 'user' },
    firstName: text(false),
    lastName: text(false),
    email: text(),
    passwordHash: text(),
    domainAccount: text(),
    isActive: flag(true),
    sendNotification: flag(),
    isoLanguage: text(),
    timeZone: text(),
    isTenantOwner: flag(),
    isTenantAdmin: flag(),
    createdBy: ref(),
    modifiedBy: ref(),
    directoryId: ref(),
    directoryKey: text(),
  },
  indices: [
    { name: 'IDX_users_email', columns: ['email'], unique: true },
    { name: 'IDX_users_directory', columns: ['directoryId', 'directoryKey'], unique: true },
  ],
});

// A user belongs to the organizations they are a member of.
boundByOrganization(
  User,
  (x) => `${x}.id IN (SELECT bo."userId" FROM user_organizations bo WHERE bo."targetId" IN (:...orgs))`,
);

/** Membership rows: a user in an organization, a group, a role. */
export interface UserLinkRow {
  userId: string;
  targetId: string;
}

function linkTable(name: string, tableName: string, target: string) {
  return new EntitySchema<UserLinkRow>({
    name,
    tableName,
    columns: {
      userId: { type: 'varchar', length: 36, primary: true },
      targetId: { type: 'varchar', length: 36, primary: true },
    },
    relations: {},
    foreignKeys: [
      { target: 'User', columnNames: ['userId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
      { target, columnNames: ['targetId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' },
    ],
    indices: [{ name: `IDX_${tableName}_target`, columns: ['targetId'] }],
  });
}

export const UserOrganization = linkTable('UserOrganization', 'user_organizations', 'Organization');
export const UserGroup = linkTable('UserGroup', 'user_groups', 'Group');
export const UserRole = linkTable('UserRole', 'user_roles', 'Role');
