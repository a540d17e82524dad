/** Role permissions of set A 2.13, in the interface's order. */
export const ROLE_PERMISSIONS = [
  'viewProject',
  'importProject',
  'updateProject',
  'deleteProject',
  'viewTask',
  'createTask',
  'editTask',
  'deleteTask',
  'runTask',
  'viewTaskStatus',
  'viewUser',
  'createUser',
  'editUser',
  'deleteUser',
  'viewGroup',
  'createGroup',
  'editGroup',
  'deleteGroup',
  'viewUserDirectory',
  'createUserDirectory',
  'editUserDirectory',
  'deleteUserDirectory',
  'viewSystem',
  'createSystem',
  'editSystem',
  'deleteSystem',
  'viewSettings',
  'editSettings',
  'useApiKeys',
  'previewPublishedReport',
  'downloadPublishedReport',
  'subscribePublishedReport',
  'deletePublishedReport',
  'viewCondition',
  'createCondition',
  'editCondition',
  'deleteCondition',
  'enterprise',
] as const;

export type RolePermission = (typeof ROLE_PERMISSIONS)[number];

/**
 * What an operation requires. `public`: no credential (log-in, first-run status);
 * `authenticated`: any signed-in principal; `tenantAdmin`: the "(Admin)" operations;
 * otherwise one role permission.
 */
export type Requirement = 'public' | 'authenticated' | 'tenantAdmin' | RolePermission;

export type PermissionFlags = Record<RolePermission, boolean>;

export function noPermissions(): PermissionFlags {
  return Object.fromEntries(ROLE_PERMISSIONS.map((p) => [p, false])) as PermissionFlags;
}

export function allPermissions(): PermissionFlags {
  return Object.fromEntries(ROLE_PERMISSIONS.map((p) => [p, true])) as PermissionFlags;
}

/** Permissions of the default "Hub users" role: read what is published to them, nothing else. */
export function hubUserPermissions(): PermissionFlags {
  return {
    ...noPermissions(),
    previewPublishedReport: true,
    downloadPublishedReport: true,
    subscribePublishedReport: true,
  };
}
