import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { v } from '../../core/validation.js';
import { readSetting, writeSetting } from './settings.rules.js';
import { SettingsResult } from './settings.results.js';

// Set A 2.14
const AuthenticationMethods = lazySchema(() => z.object({ jwtAuth: v.bool(), ntlmAuth: v.bool() }));

export const settingsV1 = [
  defineOp({
    id: 'v1.settings.updateAuthenticationMethods',
    summary: 'Update authentication methods',
    http: { method: 'PUT', path: '/api/v1/settings/authentication-methods' },
    permission: 'editSettings',
    tenantWide: 'The sign-in settings',
    input: { body: AuthenticationMethods },
    result: SettingsResult,
    handler: (ctx, { body }) =>
      writeSetting(ctx, 'authenticationMethods', { jwtAuth: body.jwtAuth, ntlmAuth: body.ntlmAuth }),
  }),
] as const;

export const settingsApp = [
  defineOp({
    id: 'app.settings.getAuthenticationMethods',
    summary: 'Read the system authentication methods',
    http: { method: 'GET', path: '/api/app/settings/authentication-methods' },
    permission: 'viewSettings',
    result: SettingsResult,
    handler: (ctx) => readSetting(ctx, 'authenticationMethods'),
  }),
] as const;
