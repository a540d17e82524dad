import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { me, type OpContext } from '../../ops/context.js';
import { fieldError, retryAfterSeconds, tooMany, unauthorized } from '../../core/errors.js';
import { newBase } from '../../core/entity-base.js';
import { hashPassword, newToken, passwordProblem, tokenHash, verifyPassword } from '../../core/passwords.js';

import { User } from '../users/users.entity.js';
import { userDto } from '../users/users.rules.js';
import { Session } from './sessions.entity.js';
import { SESSION_PREFIX } from './principal.js';

/** Sessions last a working day; log-out, a password change or deactivation end them sooner. */
export const SESSION_HOURS = 12;

const Login = z.object({ email: z.string().trim().min(1, 'must not be empty').max(254), password: z.string().min(1, 'must not be empty').max(256) });
const ChangePassword = z.object({ currentPassword: z.string().min(1, 'must not be empty').max(256), newPassword: z.string().max(256) });

export async function startSession(ctx: OpContext, userId: string) {
  const token = newToken(SESSION_PREFIX);
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3600_000);
  await ctx.db.getRepository(Session).insert({ ...newBase(now), userId, tokenHash: tokenHash(token), expiresAt });
  return { token, expiresAt: expiresAt.toISOString() };
}

export async function whoAmI(ctx: OpContext) {
  const p = me(ctx);
  return {
    user: await userDto(ctx, p.user),
    via: p.via,
    isTenantOwner: p.isTenantOwner,
    isTenantAdmin: p.isTenantAdmin,
    allProjects: p.allProjects,
    projectIds: p.projectIds,
    permissions: p.permissions,
    /** Every operation this caller may call: screens show an action when its operation is here. */
    operations: ctx.callableOperations(p),
  };
}

export const authApp = [
  defineOp({
    id: 'app.auth.login',
    summary: 'Sign in with e-mail and password; answers a session token',
    http: { method: 'POST', path: '/api/app/auth/login' },
    permission: 'public',
    session: 'start',
    input: { body: Login },
    handler: async (ctx, { body }) => {
      // Throttled per account and per address alike, whether the account exists or not.
      const { account, address } = ctx.signInThrottle;
      const accountKey = body.email.toLowerCase();
      const wait = Math.max(account.retryAfter(accountKey), address.retryAfter(ctx.client));
      if (wait > 0) throw tooMany(`Too many failed sign-ins; try again in ${retryAfterSeconds(wait)} s`, wait);
      const user = await ctx.db.getRepository(User).findOneBy({ email: accountKey });
      // Same answer and similar time whether the address exists or not.
      const ok = await verifyPassword(body.password, user?.passwordHash ?? DUMMY_HASH);
      if (!user || !ok || !user.isActive || !user.passwordHash) {
        account.fail(accountKey);
        address.fail(ctx.client);
        throw unauthorized('E-mail or password is incorrect, or the account is inactive');
      }
      account.succeed(accountKey);
      return { ...(await startSession(ctx, user.id)), user: await userDto(ctx, user) };
    },
  }),
  defineOp({
    id: 'app.auth.logout',
    summary: 'End the current session',
    http: { method: 'POST', path: '/api/app/auth/logout' },
    permission: 'authenticated',
    session: 'end',
    handler: async (ctx) => {
      const p = me(ctx);
      if (p.via === 'session') await ctx.db.getRepository(Session).delete({ id: p.credentialId });
      return { loggedOut: p.via === 'session' };
    },
  }),
  defineOp({
    id: 'app.auth.me',
    summary: 'The signed-in user, roles and effective permissions',
    http: { method: 'GET', path: '/api/app/auth/me' },
    permission: 'authenticated',
    handler: (ctx) => whoAmI(ctx),
  }),
  defineOp({
    id: 'app.auth.changePassword',
    summary: 'Change one\'s own password; ends every session and starts a new one',
    http: { method: 'POST', path: '/api/app/auth/password' },
    permission: 'authenticated',
    session: 'start',
    input: { body: ChangePassword },
    handler: async (ctx, { body }) => {
      const user = me(ctx).user;
      if (!(await verifyPassword(body.currentPassword, user.passwordHash))) throw fieldError('body.currentPassword', 'is not the current password');
      const problem = passwordProblem(body.newPassword);
      if (problem) throw fieldError('body.newPassword', problem);
      await ctx.db.getRepository(User).update(user.id, { passwordHash: await hashPassword(body.newPassword), modifiedDate: ctx.now() });
      await ctx.db.getRepository(Session).delete({ userId: user.id });
      return startSession(ctx, user.id);
    },
  }),
] as const;

// Verifying against a fixed hash when the address is unknown keeps timing from revealing accounts.
const DUMMY_HASH = 'scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
