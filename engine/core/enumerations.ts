// The values of the interface's type-like fields that Broadsheet knows. The engine's schemas refuse
// anything else (naming these values), and the renderer offers them as selects: one list, two uses.

export const USER_DIRECTORY_TYPES = ['LDAP', 'ActiveDirectory', 'AzureAD'] as const;
export const SYNCHRONIZATION_MODES = ['Manual', 'Hourly', 'Daily', 'Weekly', 'Monthly'] as const;
/** Set A's identity providers (SAML-style) and set B's (OAuth-style). */
export const SAML_PROVIDER_TYPES = ['SAML', 'JWT'] as const;
export const OAUTH_PROVIDER_TYPES = ['OAuth', 'OpenID Connect', 'OIDC'] as const;

/** The fields of the SAML-or-JWT provider form that depend on its type. */
export type SamlFormField =
  | 'entityID'
  | 'singleSignOnUrl'
  | 'singleLogoutUrl'
  | 'certificatePublicKey'
  | 'buttonLabel'
  | 'signAuthnRequest'
  | 'audience';

/**
 * What the SAML-or-JWT provider form asks of each type: what its kind reads (sso/kinds). SAML signs
 * people in from a browser and out again; a JWT provider only checks bearer tokens: its issuer
 * (Entity ID), its certificate and the audience every token must name.
 */
export const SAML_FORM_ASKS: Record<(typeof SAML_PROVIDER_TYPES)[number], readonly SamlFormField[]> = {
  SAML: ['entityID', 'singleSignOnUrl', 'singleLogoutUrl', 'certificatePublicKey', 'buttonLabel', 'signAuthnRequest'],
  JWT: ['entityID', 'certificatePublicKey', 'audience'],
};
export const RESOURCE_TYPES = ['link', 'doc', 'video', 'image'] as const;
export const REPORT_TYPES = ['Word', 'Excel', 'PowerPoint', 'Html'] as const;
export const CHART_KINDS = ['bar', 'line', 'pie', 'combo', 'table'] as const;

/** Where task reports deliver files besides mail and the hub. */
export const STORAGE_TYPES = [
  'Folder',
  'FTP',
  'FTPS',
  'SFTP',
  'WebDAV',
  'OneDrive',
  'SharePoint',
  'GoogleDrive',
  'Dropbox',
] as const;
/** The storage types connected through an account at a provider (OAuth), not signed in with a password. */
export const CLOUD_STORAGE_TYPES: readonly (typeof STORAGE_TYPES)[number][] = [
  'OneDrive',
  'SharePoint',
  'GoogleDrive',
  'Dropbox',
];

/** The fields a storage service's form may ask. */
export type StorageField =
  | 'rootPath'
  | 'host'
  | 'davUrl'
  | 'port'
  | 'siteUrl'
  | 'library'
  | 'username'
  | 'password'
  | 'privateKey'
  | 'ftpTestDirectoryPath'
  | 'passiveMode'
  | 'clearHostKey';

const SERVER: readonly StorageField[] = ['host', 'port', 'username', 'password', 'ftpTestDirectoryPath'];
const DRIVE: readonly StorageField[] = ['ftpTestDirectoryPath'];

/**
 * What each kind of destination asks on its form: the fields its seam reads (storage/kinds), so a
 * new kind says what its screen asks where it is added, and the screen shows nothing else.
 */
export const STORAGE_ASKS: Record<(typeof STORAGE_TYPES)[number], readonly StorageField[]> = {
  Folder: ['rootPath'],
  FTP: [...SERVER, 'passiveMode'],
  FTPS: SERVER,
  SFTP: [...SERVER, 'privateKey', 'clearHostKey'],
  WebDAV: ['davUrl', 'username', 'password', 'ftpTestDirectoryPath'],
  OneDrive: DRIVE,
  SharePoint: ['siteUrl', 'library', ...DRIVE],
  GoogleDrive: DRIVE,
  Dropbox: DRIVE,
};

/** Set B 2.1, every flag of the permission set. */
export const PERMISSION_FLAGS = [
  'viewProject',
  'viewReport',
  'createReport',
  'useReport',
  'editReport',
  'subscribeReport',
  'runReport',
  'deleteReport',
  'setPermissionsReport',
  'duplicateReport',
  'moveReport',
  'viewFilter',
  'createFilter',
  'useFilter',
  'editFilter',
  'deleteFilter',
  'duplicateFilter',
  'moveFilter',
  'setPermissionsFilter',
  'viewCondition',
  'createCondition',
  'useCondition',
  'editCondition',
  'deleteCondition',
  'setPermissionsCondition',
  'duplicateCondition',
  'moveCondition',
  'viewTask',
  'createTask',
  'editTask',
  'runTask',
  'deleteTask',
  'setPermissionsTask',
  'duplicateTask',
  'moveTask',
  'viewFolderContent',
  'createFolderContent',
  'editFolderContent',
  'downloadFolderContent',
  'deleteFolderContent',
  'duplicateFolderContent',
  'moveFolderContent',
] as const;

// The distribution's states: the entities, their SQL, the engine's events and the screens read them here.

/** What a request runs: a task on its schedule or by hand, or one report on demand. */
export const REQUEST_KINDS = ['ScheduledTask', 'OnDemandReport', 'OnDemandTask'] as const;
export type RequestKind = (typeof REQUEST_KINDS)[number];
/** A request's life: queued, running, then one of the finished states. */
export const REQUEST_STATUSES = ['queued', 'running', 'completed', 'warning', 'failed', 'aborted'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
export const FINISHED: RequestStatus[] = ['completed', 'warning', 'failed', 'aborted'];
/** Not finished yet: a run that can still be stopped. */
export const LIVE: RequestStatus[] = ['queued', 'running'];

/**
 * An outbox message's life: written queued, sending while the server is asked, then sent, failed or
 * cancelled; uncertain after a crash cut a send.
 */
export const OUTBOX_STATUSES = ['queued', 'sending', 'uncertain', 'sent', 'failed', 'cancelled'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];
/** Messages waiting for a send: new ones, and those cut off with their outcome unknown. */
export const OUTBOX_WAITING: OutboxStatus[] = ['queued', 'uncertain'];

/**
 * A delivery to a destination (a folder, FTP, SFTP, WebDAV, a cloud drive) that failed during its
 * run for a passing cause: waiting for its next try, delivering while a server holds it, then
 * delivered, failed (tried for as long as allowed, or a cause that does not pass) or cancelled.
 */
export const DELIVERY_STATUSES = ['waiting', 'delivering', 'delivered', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export const DELIVERY_WAITING: DeliveryStatus[] = ['waiting'];

/** What starts a task: a schedule, or an analytics app's reload. */
export const TRIGGER_KINDS = ['Schedule', 'ExternalEvent'] as const;
export type TriggerKind = (typeof TRIGGER_KINDS)[number];

/** Every file format a report can be made in (which ones a report offers depends on its type). */
export const OUTPUT_FORMATS = ['Pdf', 'Docx', 'Xlsx', 'Pptx', 'Html', 'Csv', 'Png'] as const;
/** How often a schedule fires. */
export const SCHEDULE_FREQUENCIES = ['Once', 'Hourly', 'Daily', 'Weekly', 'Monthly', 'Yearly'] as const;
/** The week as the screens list it (a schedule's days are stored by these names). */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** The databases analytics apps load from (issue 47). */
export const DATA_CONNECTION_KINDS = ['PostgreSQL', 'MySQL', 'SQLServer', 'SQLite', 'Folder'] as const;
/** How an app's reload from its sources stands: queued (a schedule's slot), reading and writing, or ended. */
export const RELOAD_STATUSES = ['queued', 'running', 'completed', 'failed', 'cancelled'] as const;
export type ReloadStatus = (typeof RELOAD_STATUSES)[number];
/** A data connection's encryption: off, required (any certificate), or verified. */
export const TLS_MODES = ['off', 'require', 'verify'] as const;
