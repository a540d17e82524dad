import { EntitySchema } from 'typeorm';
import { baseColumns, flag, int, ref, text, type BaseRow } from '../core/entity-base.js';
import { STORAGE_TYPES } from '../core/enumerations.js';
import { boundByOrganization } from '../core/organization-boundary.js';

export { STORAGE_TYPES };
export type StorageType = (typeof STORAGE_TYPES)[number];

/**
 * Where task reports put their files besides mail and the hub: a folder on this machine or the
 * network (under its root, never outside), or an FTP/FTPS or SFTP server (under its base directory).
 */
export interface StorageServiceRow extends BaseRow {
  /** The organization whose apps or tasks may use it; only its people see or change it. */
  organizationId: string | null;
  name: string;
  description: string | null;
  type: StorageType;
  host: string | null;
  port: number | null;
  username: string | null;
  /** Sealed with the installation's key; never answered. */
  password: string | null;
  /** SFTP: a private key (OpenSSH or PEM) to sign in with, sealed like the password. */
  privateKey: string | null;
  /** SFTP: the server's host key (SHA-256), pinned on first use; a different key is refused. */
  hostKey: string | null;
  passiveMode: boolean;
  /** Folder: the root every delivery stays under. FTP: the base directory (set B `ftpTestDirectoryPath`). */
  rootPath: string | null;
  isDefault: boolean;
  /** A cloud drive: the account connected, as the provider names it (shown, not a secret). */
  account?: string | null;
  /** A cloud drive: its OAuth tokens (refresh and access, with the access token's expiry), sealed. */
  oauth?: string | null;
  /** SharePoint: the site's address (https://contoso.sharepoint.com/sites/Finance). */
  siteUrl?: string | null;
  /** SharePoint: the document library files go to (the site's default one when empty). */
  library?: string | null;
}

export const StorageService = new EntitySchema<StorageServiceRow>({
  name: 'StorageService',
  tableName: 'storage_services',
  columns: {
    ...baseColumns,
    organizationId: ref(),
    name: text(false),
    description: text(),
    type: { type: 'varchar', length: 16 },
    host: text(),
    port: int(),
    username: text(),
    password: text(),
    privateKey: text(),
    hostKey: text(),
    passiveMode: flag(true),
    rootPath: text(),
    isDefault: flag(),
    account: text(),
    oauth: text(),
    siteUrl: text(),
    library: text(),
  },
});

// A data connection or a storage belongs to one organization (its passwords go only where it says).
boundByOrganization(StorageService, (x) => `${x}."organizationId" IN (:...orgs)`);
