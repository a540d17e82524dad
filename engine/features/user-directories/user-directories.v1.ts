import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { pageOfEntity } from '../../core/list-query.js';
import { deleteByIds } from '../../core/rows.js';
import { UserDirectory } from '../../model/user-directories.entity.js';
import {
  userDirectoryDto,
  LIST_USER_DIRECTORIES,
  saveUserDirectory,
  UserDirectoryV1,
} from './user-directories.rules.js';
import { UserDirectoryResult } from './user-directories.results.js';
import { DeletedResult } from '../common.results.js';

export const userDirectoriesV1 = [
  defineOp({
    id: 'v1.userDirectories.list',
    summary: 'List user directories',
    http: { method: 'GET', path: '/api/v1/user-directories' },
    permission: 'viewUserDirectory',
    list: LIST_USER_DIRECTORIES,
    result: UserDirectoryResult,
    handler: (ctx, { list }) => pageOfEntity(ctx, UserDirectory, 'd', LIST_USER_DIRECTORIES, list, userDirectoryDto),
  }),
  defineOp({
    id: 'v1.userDirectories.create',
    summary: 'Add user directory',
    http: { method: 'POST', path: '/api/v1/user-directories' },
    permission: 'createUserDirectory',
    objects: {
      'body.azureClientId': 'none',
      'body.azureTenantId': 'none',
      'body.defaultUserRole': 'role',
      'body.organizationId': 'organization',
    },
    tenantWide: 'A user directory',
    input: { body: UserDirectoryV1 },
    result: UserDirectoryResult,
    handler: (ctx, { body }) => saveUserDirectory(ctx, null, body),
  }),
  defineOp({
    id: 'v1.userDirectories.delete',
    summary: 'Delete user directories',
    http: { method: 'DELETE', path: '/api/v1/user-directories' },
    permission: 'deleteUserDirectory',
    objects: { 'body[]': 'userDirectory' },
    tenantWide: 'A user directory',
    input: { body: v.uuidList() },
    result: DeletedResult,
    handler: (ctx, { body }) => deleteByIds(ctx, UserDirectory, body, 'User directory'),
  }),
  defineOp({
    id: 'v1.userDirectories.update',
    summary: 'Update user directory',
    http: { method: 'PUT', path: '/api/v1/user-directories/{id}' },
    permission: 'editUserDirectory',
    objects: {
      'body.azureClientId': 'none',
      'body.azureTenantId': 'none',
      'body.defaultUserRole': 'role',
      'body.organizationId': 'organization',
      'params.id': 'userDirectory',
    },
    tenantWide: 'A user directory',
    input: { params: idParam, body: UserDirectoryV1 },
    result: UserDirectoryResult,
    handler: (ctx, { params, body }) => saveUserDirectory(ctx, params.id, body),
  }),
] as const;
