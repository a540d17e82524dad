import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { conflict, fieldError, forbidden } from '../../core/errors.js';
import { hashPassword, passwordProblem } from '../../core/passwords.js';
import { v } from '../../core/validation.js';
import { User } from '../users/users.entity.js';
import { email } from '../users/users.rules.js';
import { readSetting, writeSetting } from '../settings/settings.rules.js';
import { startSession } from '../auth/auth.app.js';

const Complete = z.object({ firstName: v.text(), lastName: v.text(), email: email(), password: z.string().max(256) });

export const setupApp = [
  defineOp({
    id: 'app.setup.status',
    summary: 'Whether the first-run form (owner name, e-mail, password) has been completed',
    http: { method: 'GET', path: '/api/app/setup' },
    permission: 'public',
    handler: async (ctx) => ({ setupComplete: await readSetting(ctx, 'setupComplete') }),
  }),
  defineOp({
    id: 'app.setup.complete',
    summary: 'First run: set the owner\'s name, e-mail and password (over HTTP the owner API key must be presented)',
    http: { method: 'POST', path: '/api/app/setup' },
    permission: 'public',
    session: 'start',
    input: { body: Complete },
    handler: async (ctx, { body }) => {
      if (await readSetting(ctx, 'setupComplete')) throw conflict('Setup is already complete; sign in instead');
      // The desktop window is trusted local UI; over HTTP only the holder of the owner key may claim the owner account.
      if (ctx.transport === 'http' && !ctx.principal?.isTenantOwner) throw forbidden('Present the owner API key (the owner-api-key file) to finish setup');
      const problem = passwordProblem(body.password);
      if (problem) throw fieldError('body.password', problem);
      const owner = await ctx.db.getRepository(User).findOneByOrFail({ isTenantOwner: true });
      const taken = await ctx.db.getRepository(User).findOneBy({ email: body.email });
      if (taken && taken.id !== owner.id) throw conflict('Another user already has this e-mail address', [{ field: 'body.email', message: 'is already in use' }]);
      await ctx.db.getRepository(User).update(owner.id, {
        firstName: body.firstName, lastName: body.lastName, email: body.email, passwordHash: await hashPassword(body.password), modifiedDate: ctx.now(),
      });
      await writeSetting(ctx, 'setupComplete', true);
      return startSession(ctx, owner.id);
    },
  }),
] as const;
