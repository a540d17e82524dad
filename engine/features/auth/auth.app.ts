import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { changeOwnPassword, endSession, signIn, whoAmI } from './auth.rules.js';
import { AuthLogoutResult, AuthMeResult, AuthResult } from './auth.results.js';
import { SessionTokenResult, UserResult } from '../common.results.js';
import { updateOwnProfile } from './own-profile.js';

const Login = lazySchema(() =>
  z.object({
    email: z.string().trim().min(1, 'must not be empty').max(254),
    password: z.string().min(1, 'must not be empty').max(256),
  }),
);
const Profile = lazySchema(() =>
  z.object({
    firstName: z.string().trim().min(1, 'must not be empty').max(100),
    lastName: z.string().trim().min(1, 'must not be empty').max(100),
    email: z.string().trim().email('is not an e-mail address').max(254),
    isoLanguage: z
      .string()
      .max(5)
      .regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'is not a language code such as en or fr-CA')
      .nullable(),
    timeZone: z.string().trim().min(1, 'must not be empty').max(64).nullable(),
    currentPassword: z.string().max(256).optional(),
  }),
);
const ChangePassword = lazySchema(() =>
  z.object({
    currentPassword: z.string().min(1, 'must not be empty').max(256),
    newPassword: z.string().max(256),
  }),
);

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
  defineOp({
    id: 'app.auth.updateProfile',
    summary: "Change one's own name, e-mail (with the current password), language and time zone",
    http: { method: 'PUT', path: '/api/app/auth/profile' },
    permission: 'authenticated',
    input: { body: Profile },
    result: UserResult,
    handler: (ctx, { body }) => updateOwnProfile(ctx, body),
  }),
] as const;
