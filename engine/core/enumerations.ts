// The values of the interface's type-like fields that Broadsheet knows. The engine's schemas refuse
// anything else (naming these values), and the renderer offers them as selects: one list, two uses.

export const USER_DIRECTORY_TYPES = ['LDAP', 'ActiveDirectory', 'AzureAD'] as const;
export const SYNCHRONIZATION_MODES = ['Manual', 'Hourly', 'Daily', 'Weekly', 'Monthly'] as const;
/** Set A's identity providers (SAML-style) and set B's (OAuth-style). */
export const SAML_PROVIDER_TYPES = ['SAML', 'JWT'] as const;
export const OAUTH_PROVIDER_TYPES = ['OAuth', 'OpenID Connect'] as const;
export const RESOURCE_TYPES = ['link', 'doc', 'video', 'image'] as const;
export const REPORT_TYPES = ['Word', 'Excel', 'PowerPoint', 'Html'] as const;
export const CHART_KINDS = ['bar', 'line', 'pie', 'combo', 'table'] as const;

/** Where task reports deliver files besides mail and the hub. */
export const STORAGE_TYPES = ['Folder', 'FTP', 'FTPS', 'SFTP'] as const;

/** Set B 2.1, every flag of the permission set. */
export const PERMISSION_FLAGS = [
  'viewProject',
  'viewReport', 'createReport', 'useReport', 'editReport', 'subscribeReport', 'runReport', 'deleteReport', 'setPermissionsReport', 'duplicateReport', 'moveReport',
  'viewFilter', 'createFilter', 'useFilter', 'editFilter', 'deleteFilter', 'duplicateFilter', 'moveFilter', 'setPermissionsFilter',
  'viewCondition', 'createCondition', 'useCondition', 'editCondition', 'deleteCondition', 'setPermissionsCondition', 'duplicateCondition', 'moveCondition',
  'viewTask', 'createTask', 'editTask', 'runTask', 'deleteTask', 'setPermissionsTask', 'duplicateTask', 'moveTask',
  'viewFolderContent', 'createFolderContent', 'editFolderContent', 'downloadFolderContent', 'deleteFolderContent', 'duplicateFolderContent', 'moveFolderContent',
] as const;
