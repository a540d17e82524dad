import type { StorageType } from '../../../model/storage.entity.js';
import type { StorageKind } from './kind.js';
import { folderKind } from './folder.js';
import { ftpKind } from './ftp.js';
import { sftpKind } from './sftp.js';
import { webdavKind } from './webdav.js';
import { cloudKind } from './cloud.js';

// Every kind of destination, by its type: the type checker asks for each one the model names.

const STORAGE_KINDS: Record<StorageType, StorageKind> = {
  Folder: folderKind,
  FTP: ftpKind,
  FTPS: ftpKind,
  SFTP: sftpKind,
  WebDAV: webdavKind,
  OneDrive: cloudKind,
  SharePoint: cloudKind,
  GoogleDrive: cloudKind,
  Dropbox: cloudKind,
};

export const storageKindOf = (type: StorageType): StorageKind => STORAGE_KINDS[type];

export type { FileToPut, StorageKind } from './kind.js';
