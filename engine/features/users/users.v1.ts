import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { findOr404 } from '../../core/rows.js';
import { User } from '../../model/users.entity.js';
import { HUB_USERS_ROLE, idNames, LIST_USERS, nemail, roleIdByName, saveUser, listUsers } from './users.rules.js';
import { UserResult } from '../common.results.js';

// Set A 2.22
const UserV1 = lazySchema(() =>
  z.object({
    domainAccount: v.nstr(),
    firstName: v.text(),
    lastName: v.text(),
    email: nemail(),
    password: v.nstr(),
    isActive: v.bool(),
    sendNotification: v.obool(),
    isoLanguage: v.nstr(),
    roles: idNames().nullable().optional(),
    organizations: idNames().min(1, { message: 'choose at least one organization' }),
    groups: idNames().nullable().optional(),
  }),
);
const RecipientV1 = lazySchema(() =>
  z.object({
    firstName: v.text(),
    lastName: v.text(),
    email: nemail(),
    password: v.nstr(),
    isActive: v.bool(),
    isoLanguage: v.nstr(),
    organizations: idNames().min(1, { message: 'choose at least one organization' }),
    groups: idNames().nullable().optional(),
  }),
);
const ConversionV1 = lazySchema(() =>
  z.object({
    roles: idNames(),
    isActive: v.bool(),
    sendNotification: v.obool(),
    language: v.text(),
    domain: v.nstr(),
  }),
);

const ids = (list: { id: string }[] | null | undefined) => (list ? list.map((x) => x.id) : list);

export const usersV1 = [
  defineOp({
    id: 'v1.users.create',
    summary: 'Add user',
    http: { method: 'POST', path: '/api/v1/users' },
    permission: 'createUser',
    objects: { 'body.groups[].id': 'group', 'body.organizations[].id': 'organization', 'body.roles[].id': 'role' },
    input: { body: UserV1 },
    result: UserResult,
    handler: (ctx, { body }) =>
      saveUser(ctx, null, {
        ...body,
        kind: 'user',
        roleIds: ids(body.roles),
        organizationIds: ids(body.organizations),
        groupIds: ids(body.groups),
      }),
  }),
  defineOp({
    id: 'v1.users.list',
    summary: 'List users',
    http: { method: 'GET', path: '/api/v1/users' },
    permission: 'viewUser',
    list: LIST_USERS,
    result: UserResult,
    handler: (ctx, { list }) => listUsers(ctx, list),
  }),
  defineOp({
    id: 'v1.recipients.create',
    summary: 'Create recipient (gets the role "Hub users")',
    http: { method: 'POST', path: '/api/v1/recipients' },
    permission: 'createUser',
    objects: { 'body.groups[].id': 'group', 'body.organizations[].id': 'organization' },
    input: { body: RecipientV1 },
    result: UserResult,
    handler: async (ctx, { body }) =>
      saveUser(ctx, null, {
        ...body,
        kind: 'recipient',
        roleIds: await roleIdByName(ctx, HUB_USERS_ROLE),
        rolesByRule: true,
        organizationIds: ids(body.organizations),
        groupIds: ids(body.groups),
      }),
  }),
  defineOp({
    id: 'v1.users.update',
    summary: 'Update user',
    http: { method: 'PUT', path: '/api/v1/users/{id}' },
    permission: 'editUser',
    objects: {
      'body.groups[].id': 'group',
      'body.organizations[].id': 'organization',
      'body.roles[].id': 'role',
      'params.id': 'user',
    },
    input: { params: idParam, body: UserV1 },
    result: UserResult,
    handler: (ctx, { params, body }) =>
      saveUser(ctx, params.id, {
        ...body,
        kind: 'user',
        roleIds: ids(body.roles),
        organizationIds: ids(body.organizations),
        groupIds: ids(body.groups),
      }),
  }),
  defineOp({
    id: 'v1.recipients.update',
    summary: 'Update recipient',
    http: { method: 'PUT', path: '/api/v1/recipients/{id}' },
    permission: 'editUser',
    objects: { 'body.groups[].id': 'group', 'body.organizations[].id': 'organization', 'params.id': 'recipient' },
    input: { params: idParam, body: RecipientV1 },
    result: UserResult,
    handler: (ctx, { params, body }) =>
      saveUser(ctx, params.id, {
        ...body,
        kind: 'recipient',
        organizationIds: ids(body.organizations),
        groupIds: ids(body.groups),
      }),
  }),
  defineOp({
    id: 'v1.recipients.convertToUser',
    summary: 'Convert recipient to user',
    http: { method: 'POST', path: '/api/v1/recipients/{id}/convert' },
    permission: 'editUser',
    objects: { 'body.roles[].id': 'role', 'params.id': 'recipient' },
    input: { params: idParam, body: ConversionV1 },
    result: UserResult,
    handler: async (ctx, { params, body }) => {
      const r = await findOr404(ctx, User, params.id, 'Recipient');
      return saveUser(ctx, r.id, {
        kind: 'user',
        convertRecipient: true,
        firstName: r.firstName,
        lastName: r.lastName,
        isActive: body.isActive,
        sendNotification: body.sendNotification,
        isoLanguage: body.language,
        domainAccount: body.domain ?? null,
        roleIds: ids(body.roles),
      });
    },
  }),
] as const;
