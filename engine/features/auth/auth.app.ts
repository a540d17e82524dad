import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { changeOwnPassword, endSession, signIn, whoAmI } from './auth.rules.js';
import { AuthLogoutResult, AuthMeResult, AuthResult } from './auth.results.js';
import { SessionTokenResult } from '../common.results.js';

const Login = z.object({
  email: z.string().trim().min(1, 'must not be empty').max(254),
  password: z.string().min(1, 'must not be empty').max(256),
});
const ChangePassword = z.object({
  currentPassword: z.string().min(1, 'must not be empty').max(256),
  newPassword: z.string().max(256),
});

export const authApp = [
  defineOp({
    id: 'app.auth.login',
    summary: 'Sign in with e-mail and password; answers a session token',
    http: { method: 'POST', path: '/api/app/auth/login' },
    permission: 'public',
    session: 'start',
    input: { body: Login },
    result: AuthResult,
    handler: (ctx, { body }) => signIn(ctx, body.email, body.password),
  }),
  defineOp({
    id: 'app.auth.logout',
    summary: 'End the current session',
    http: { method: 'POST', path: '/api/app/auth/logout' },
    permission: 'authenticated',
    session: 'end',
    result: AuthLogoutResult,
    handler: (ctx) => endSession(ctx),
  }),
  defineOp({
    id: 'app.auth.me',
    summary: 'The signed-in user, roles and effective permissions',
    http: { method: 'GET', path: '/api/app/auth/me' },
    permission: 'authenticated',
    result: AuthMeResult,
    handler: (ctx) => whoAmI(ctx),
  }),
  defineOp({
    id: 'app.auth.changePassword',
    summary: "Change one's own password; ends every session and starts a new one",
    http: { method: 'POST', path: '/api/app/auth/password' },
    permission: 'authenticated',
    session: 'start',
    input: { body: ChangePassword },
    result: SessionTokenResult,
    handler: (ctx, { body }) => changeOwnPassword(ctx, body.currentPassword, body.newPassword),
  }),
] as const;
