import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { email, v } from '../../core/validation.js';
import { passwordProblem } from '../../core/passwords.js';
import { readSetting } from '../settings/settings.rules.js';
import { completeSetup } from './setup.rules.js';
import { SetupResult } from './setup.results.js';
import { SessionTokenResult } from '../common.results.js';

// The password rule sits in the schema so every problem of the form is named in one answer.
const Complete = lazySchema(() =>
  z.object({
    firstName: v.text(),
    lastName: v.text(),
    email: email(),
    password: z
      .string()
      .max(256)
      .superRefine((p, c) => {
        const problem = passwordProblem(p);
        if (problem) c.addIssue({ code: 'custom', message: problem });
      }),
  }),
);

export const setupApp = [
  defineOp({
    id: 'app.setup.status',
    summary: 'Whether the first-run form (owner name, e-mail, password) has been completed',
    http: { method: 'GET', path: '/api/app/setup' },
    permission: 'public',
    result: SetupResult,
    handler: async (ctx) => ({ setupComplete: await readSetting(ctx, 'setupComplete') }),
  }),
  defineOp({
    id: 'app.setup.complete',
    summary: "First run: set the owner's name, e-mail and password (over HTTP the owner API key must be presented)",
    http: { method: 'POST', path: '/api/app/setup' },
    permission: 'public',
    session: 'start',
    input: { body: Complete },
    result: SessionTokenResult,
    handler: (ctx, { body }) => completeSetup(ctx, body),
  }),
] as const;
