import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { idParam, v } from '../../core/validation.js';
import { EMAIL_PATTERN } from '../../core/validation.js';
import { HUB_USERS_ROLE, roleIdByName, saveUser } from './users.rules.js';
import {
  AcceptInvitation,
  acceptInvitation,
  CheckInvitation,
  checkInvitation,
  InviteB,
  inviteUsers,
  TransferB,
  transferUser,
  updateUserByType,
  UserUpdateB,
} from './user-lifecycle.rules.js';
import { UserResult } from '../common.results.js';
import { InvitationCheckResult, InvitationResult, UsersInviteResult, UsersTransferResult } from './users.results.js';

// Set B's user lifecycle; `v2.users.delete` sits with the user rules it shares (users.v2.ts).

const RecipientB = lazySchema(() =>
  z.object({
    firstName: v.text(),
    lastName: v.text(),
    email: z
      .string()
      .trim()
      .toLowerCase()
      .max(320)
      .regex(EMAIL_PATTERN, { message: 'must be an e-mail address' })
      .nullable()
      .optional(),
    organizations: z.array(v.uuid()).max(1000),
  }),
);

export const userLifecycleV2 = [
  defineOp({
    id: 'v2.recipients.create',
    summary: 'Add recipient (joins the given organizations and group "All users")',
    http: { method: 'POST', path: '/api/v2/recipients' },
    permission: 'createUser',
    objects: { 'body.organizations[]': 'organization' },
    input: { body: RecipientB },
    result: UserResult,
    handler: async (ctx, { body }) =>
      saveUser(ctx, null, {
        kind: 'recipient',
        firstName: body.firstName,
        lastName: body.lastName,
        email: body.email ?? null,
        isActive: true,
        roleIds: await roleIdByName(ctx, HUB_USERS_ROLE),
        rolesByRule: true,
        organizationIds: body.organizations,
      }),
  }),
  defineOp({
    id: 'v2.users.update',
    summary: 'Update user (type names the change, value its content)',
    http: { method: 'PUT', path: '/api/v2/users/{id}' },
    permission: 'editUser',
    objects: { 'params.id': 'user' },
    input: { params: idParam, body: UserUpdateB },
    result: UserResult,
    handler: (ctx, { params, body }) => updateUserByType(ctx, params.id, body),
  }),
  defineOp({
    id: 'v2.users.transfer',
    summary: 'Transfer content and authorizations to another user',
    http: { method: 'POST', path: '/api/v2/users/{id}/transfer' },
    permission: 'editUser',
    objects: { 'body.newUserID': 'user', 'params.id': 'user' },
    input: { params: idParam, body: TransferB },
    result: UsersTransferResult,
    handler: (ctx, { params, body }) => transferUser(ctx, params.id, body),
  }),
  defineOp({
    id: 'v2.users.invite',
    summary: 'Invite multiple users by e-mail',
    http: { method: 'POST', path: '/api/v2/users/invite' },
    permission: 'createUser',
    objects: { 'body.organizations[].organizationID': 'organization' },
    input: { body: InviteB },
    result: UsersInviteResult,
    handler: (ctx, { body }) => inviteUsers(ctx, body),
  }),
  defineOp({
    id: 'app.invitations.check',
    summary: 'Whether an invitation link still opens, and for whom (before its page asks for a password)',
    http: { method: 'POST', path: '/api/app/invitations/check' },
    permission: 'public',
    readOnly: true,
    input: { body: CheckInvitation },
    result: InvitationCheckResult,
    handler: (ctx, { body }) => checkInvitation(ctx, body),
  }),
  defineOp({
    id: 'app.invitations.accept',
    summary: 'Choose a password from an invitation link (once)',
    http: { method: 'POST', path: '/api/app/invitations/accept' },
    permission: 'public',
    input: { body: AcceptInvitation },
    result: InvitationResult,
    handler: (ctx, { body }) => acceptInvitation(ctx, body),
  }),
] as const;
