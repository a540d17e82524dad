import { EntitySchema } from 'typeorm';
import { baseColumns, ref, type BaseRow } from '../../core/entity-base.js';

/** The objects a member permission attaches to (set B: projects and the content in them). */
export type MemberObjectKind = 'project' | 'report' | 'filter' | 'condition' | 'task';

/** Set B 2.1, every flag of the permission set. */
export const PERMISSION_FLAGS = [
  'viewProject',
  'viewReport', 'createReport', 'useReport', 'editReport', 'subscribeReport', 'runReport', 'deleteReport', 'setPermissionsReport', 'duplicateReport', 'moveReport',
  'viewFilter', 'createFilter', 'useFilter', 'editFilter', 'deleteFilter', 'duplicateFilter', 'moveFilter', 'setPermissionsFilter',
  'viewCondition', 'createCondition', 'useCondition', 'editCondition', 'deleteCondition', 'setPermissionsCondition', 'duplicateCondition', 'moveCondition',
  'viewTask', 'createTask', 'editTask', 'runTask', 'deleteTask', 'setPermissionsTask', 'duplicateTask', 'moveTask',
  'viewFolderContent', 'createFolderContent', 'editFolderContent', 'downloadFolderContent', 'deleteFolderContent', 'duplicateFolderContent', 'moveFolderContent',
] as const;
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
