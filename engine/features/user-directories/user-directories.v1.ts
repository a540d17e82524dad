import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { type ListSpec, pageOfEntity } from '../../core/list-query.js';
import { deleteByIds, findOr404 } from '../../core/rows.js';
import { iso, newBase } from '../../core/entity-base.js';
import type { OpContext } from '../../ops/context.js';
import { Organization } from '../organizations/organizations.entity.js';
import { Role } from '../roles/roles.entity.js';
import { UserDirectory, type UserDirectoryRow } from './user-directories.entity.js';

// Set A 2.23
const UserDirectoryV1 = z.object({
  type: v.text(),
  name: v.text(),
  prefix: v.nstr(),
  userDirectoryName: v.nstr(),
  azureClientId: v.nstr(),
  azureTenantId: v.nstr(),
  azureClientSecret: v.nstr(),
  hostName: v.nstr(),
  port: v.int().min(0).max(65535).optional(),
  userName: v.nstr(),
  password: v.nstr(),
  sendNotification: v.bool(),
  defaultUserRole: v.nuuid(),
  filter: v.nstr(),
  synchronization: v.text(),
  frequency: v.nstr(),
  frequencyTime: v.nstr(),
  timeZone: v.nstr(),
  isActive: v.obool(),
  organizationId: v.uuid(),
});
type Fields = z.output<typeof UserDirectoryV1>;

const LIST: ListSpec = {
  sort: { Name: 'LOWER(d.name)', Type: 'LOWER(d.type)', LastStartedSync: 'd.lastStartedSync', SyncStatus: 'd.syncStatus' },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'd.name' },
};

/** Passwords and client secrets are never returned: only whether one is stored. */
const dto = (d: UserDirectoryRow) => {
  const { password, azureClientSecret, ...rest } = d;
  return {
    ...rest,
    hasPassword: password !== null,
    hasAzureClientSecret: azureClientSecret !== null,
    lastStartedSync: iso(d.lastStartedSync),
    createdDate: iso(d.createdDate),
    modifiedDate: iso(d.modifiedDate),
  };
};

async function save(ctx: OpContext, id: string | null, f: Fields) {
  await findOr404(ctx, Organization, f.organizationId, 'Organization');
  if (f.defaultUserRole) await findOr404(ctx, Role, f.defaultUserRole, 'Role');
  const current: UserDirectoryRow | null = id ? await findOr404(ctx, UserDirectory, id, 'User directory') : null;
  const row: UserDirectoryRow = {
    ...(current ?? { ...newBase(ctx.now()), lastStartedSync: null, syncStatus: null }),
    type: f.type,
    name: f.name,
    prefix: f.prefix ?? null,
    userDirectoryName: f.userDirectoryName ?? null,
    azureClientId: f.azureClientId ?? null,
    azureTenantId: f.azureTenantId ?? null,
    azureClientSecret: ctx.secrets.sealOrKeep(f.azureClientSecret, current?.azureClientSecret ?? null),
    hostName: f.hostName ?? null,
    port: f.port ?? null,
    userName: f.userName ?? null,
    password: ctx.secrets.sealOrKeep(f.password, current?.password ?? null),
    sendNotification: f.sendNotification,
    defaultUserRole: f.defaultUserRole ?? null,
    filter: f.filter ?? null,
    synchronization: f.synchronization,
    frequency: f.frequency ?? null,
    frequencyTime: f.frequencyTime ?? null,
    timeZone: f.timeZone ?? null,
    isActive: f.isActive ?? current?.isActive ?? true,
    organizationId: f.organizationId,
    modifiedDate: ctx.now(),
  };
  await ctx.db.getRepository(UserDirectory).save(row);
  return dto(row);
}

export const userDirectoriesV1 = [
  defineOp({
    id: 'v1.userDirectories.list',
    summary: 'List user directories',
    http: { method: 'GET', path: '/api/v1/user-directories' },
    permission: 'viewUserDirectory',
    list: LIST,
    handler: (ctx, { list }) => pageOfEntity(ctx.db, UserDirectory, 'd', LIST, list, dto),
  }),
  defineOp({
    id: 'v1.userDirectories.create',
    summary: 'Add user directory',
    http: { method: 'POST', path: '/api/v1/user-directories' },
    permission: 'createUserDirectory',
    input: { body: UserDirectoryV1 },
    handler: (ctx, { body }) => save(ctx, null, body),
  }),
  defineOp({
    id: 'v1.userDirectories.delete',
    summary: 'Delete user directories',
    http: { method: 'DELETE', path: '/api/v1/user-directories' },
    permission: 'deleteUserDirectory',
    input: { body: v.uuidList() },
    handler: (ctx, { body }) => deleteByIds(ctx, UserDirectory, body, 'User directory'),
  }),
  defineOp({
    id: 'v1.userDirectories.update',
    summary: 'Update user directory',
    http: { method: 'PUT', path: '/api/v1/user-directories/{id}' },
    permission: 'editUserDirectory',
    input: { params: idParam, body: UserDirectoryV1 },
    handler: (ctx, { params, body }) => save(ctx, params.id, body),
  }),
] as const;
