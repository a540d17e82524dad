import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { deleteStorage, LIST_STORAGE, listStorage, saveStorage, StorageInput, testStorage } from './storage.rules.js';
import { StorageServiceResult, StorageServicesTestResult } from './storage.results.js';
import { DeletedResult } from '../common.results.js';

export const storageOps = [
  defineOp({
    id: 'v1.storageServices.list',
    summary: 'List file storage services',
    http: { method: 'GET', path: '/api/v1/storage-services' },
    permission: 'viewSettings',
    list: LIST_STORAGE,
    result: StorageServiceResult,
    handler: (ctx, { list }) => listStorage(ctx, list),
  }),
  defineOp({
    id: 'v1.storageServices.delete',
    summary: 'Delete file storage services',
    http: { method: 'DELETE', path: '/api/v1/storage-services' },
    permission: 'editSettings',
    objects: { 'body[]': 'storageService' },
    input: { body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { body }) => deleteStorage(ctx, body),
  }),
  defineOp({
    id: 'v2.storageServices.update',
    summary: 'Update storage service',
    http: { method: 'PUT', path: '/api/v2/storage-services/{id}' },
    permission: 'editSettings',
    objects: { 'params.id': 'storageService', 'body.organizationId': 'organization' },
    input: { params: idParam, body: StorageInput },
    result: StorageServiceResult,
    handler: (ctx, { params, body }) => saveStorage(ctx, params.id, body),
  }),
  defineOp({
    id: 'v2.storageServices.delete',
    summary: 'Delete multiple storage services',
    http: { method: 'DELETE', path: '/api/v2/storage-services' },
    permission: 'editSettings',
    objects: { 'body[]': 'storageService' },
    input: { body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { body }) => deleteStorage(ctx, body),
  }),
  defineOp({
    id: 'app.storageServices.create',
    summary: 'Add a storage service (a folder, FTP, FTPS, SFTP or WebDAV)',
    http: { method: 'POST', path: '/api/v1/storage-services' },
    permission: 'editSettings',
    objects: { 'body.organizationId': 'organization' },
    input: { body: StorageInput },
    result: StorageServiceResult,
    handler: (ctx, { body }) => saveStorage(ctx, null, body),
  }),
  defineOp({
    id: 'app.storageServices.test',
    summary: "Test a storage service's connection",
    http: { method: 'POST', path: '/api/v1/storage-services/{id}/test' },
    permission: 'editSettings',
    objects: { 'params.id': 'storageService' },
    readOnly: true,
    input: { params: idParam },
    result: StorageServicesTestResult,
    handler: (ctx, { params }) => testStorage(ctx, params.id),
  }),
] as const;
