import { EntitySchema } from 'typeorm';
import { baseColumns, ref, type BaseRow } from '../core/entity-base.js';
import type { PERMISSION_FLAGS } from '../core/enumerations.js';
import { boundByOrganization, projectInside } from '../core/organization-boundary.js';

/** The objects a member permission attaches to (set B: projects and the content in them). */
export type MemberObjectKind = 'project' | 'report' | 'filter' | 'condition' | 'task';

/**
 * What an operation does to an object, in set B's words (with the kind, it names the flag it needs:
 * `edit` on a report needs `editReport`). `use` is putting an object to work inside another (a report
 * in a task); `setPermissionsMode` switches a project's mode (its creator or a tenant administrator).
 */
export type MemberAction =
  | 'view'
  | 'create'
  | 'use'
  | 'subscribe'
  | 'edit'
  | 'run'
  | 'delete'
  | 'setPermissions'
  | 'duplicate'
  | 'move'
  | 'setPermissionsMode';

/**
 * What an operation declares of the member-bounded objects it touches: per kind, the action it
 * performs. Declared once in `defineOp`, never guessed from the operation's id.
 */
export type MemberDeclaration = Partial<Record<MemberObjectKind, MemberAction>>;

export { PERMISSION_FLAGS } from '../core/enumerations.js';
export type PermissionFlag = (typeof PERMISSION_FLAGS)[number];
export type PermissionSet = Record<PermissionFlag, boolean>;

/**
 * One member's permission set on one object. `projectId` is the object's project (the project's own
 * id for a project), so a project's deletion takes its rows with it; rows of a deleted report or of a
 * deleted user match nothing and grant nothing.
 */
export interface MemberPermissionRow extends BaseRow {
  objectType: MemberObjectKind;
  objectId: string;
  projectId: string;
  memberId: string;
  memberType: 'user' | 'group';
  permissions: PermissionSet;
}

export const MemberPermission = new EntitySchema<MemberPermissionRow>({
  name: 'MemberPermission',
  tableName: 'member_permissions',
  columns: {
    ...baseColumns,
    objectType: { type: 'varchar', length: 16 },
    objectId: ref(false),
    projectId: ref(false),
    memberId: ref(false),
    memberType: { type: 'varchar', length: 8 },
    permissions: { type: 'simple-json' },
  },
  foreignKeys: [{ target: 'Project', columnNames: ['projectId'], referencedColumnNames: ['id'], onDelete: 'CASCADE' }],
  uniques: [{ name: 'UQ_member_permission', columns: ['objectId', 'memberId'] }],
  indices: [{ name: 'IDX_member_permissions_member', columns: ['memberId', 'objectType'] }],
});

// A member permission belongs to its object's project's organization.
boundByOrganization(MemberPermission, (x) => projectInside(`${x}."projectId"`));
