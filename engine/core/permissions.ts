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

const HUB_READER = { previewPublishedReport: true, downloadPublishedReport: true, subscribePublishedReport: true };

/**
 * The ready-made "Designer" role (NPrinting's Developer): makes the reports, with their projects,
 * apps, filters and conditions; sees how tasks went; reads the hub. Distributing is the Publisher's.
 */
export function designerPermissions(): PermissionFlags {
  return {
    ...noPermissions(),
    ...HUB_READER,
    viewProject: true,
    importProject: true,
    updateProject: true,
    deleteProject: true,
    viewTaskStatus: true,
    viewCondition: true,
    createCondition: true,
    editCondition: true,
    deleteCondition: true,
  };
}

/**
 * The ready-made "Publisher" role: distributes reports others design, through tasks, to the people
 * and groups it chooses; looks after what is published in the hub. Sees projects, does not change them.
 */
export function publisherPermissions(): PermissionFlags {
  return {
    ...noPermissions(),
    ...HUB_READER,
    deletePublishedReport: true,
    viewProject: true,
    viewTask: true,
    createTask: true,
    editTask: true,
    deleteTask: true,
    runTask: true,
    viewTaskStatus: true,
    viewCondition: true,
    createCondition: true,
    editCondition: true,
    viewUser: true,
    viewGroup: true,
  };
}
