import type { OpContext } from '../../ops/context.js';
import { conflict, fieldError, forbidden } from '../../core/errors.js';
import { passwordProblem } from '../../core/passwords.js';
import { User } from '../../model/users.entity.js';
import { readSetting, writeSetting } from '../settings/settings.rules.js';
import { startSession } from '../auth/auth.rules.js';
import { ApiKey } from '../../model/api-keys.entity.js';
import { FIRST_START_KEY_NAME } from './first-start.js';

/** First run: the owner's name, e-mail and password, once; then the owner is signed in. */
export async function completeSetup(
  ctx: OpContext,
  body: { firstName: string; lastName: string; email: string; password: string },
) {
  if (await readSetting(ctx, 'setupComplete')) throw conflict('Setup is already complete; sign in instead');
  // The desktop window is trusted local UI; over HTTP only the holder of the owner key may claim the owner account.
  if (ctx.transport === 'http' && !ctx.principal?.isTenantOwner)
    throw forbidden('Present the owner API key (the owner-api-key file) to finish setup');
  const problem = passwordProblem(body.password);
  if (problem) throw fieldError('body.password', problem);
  const owner = await ctx.db.getRepository(User).findOneByOrFail({ isTenantOwner: true });
  const taken = await ctx.db.getRepository(User).findOneBy({ email: body.email });
  if (taken && taken.id !== owner.id)
    throw conflict('Another user already has this e-mail address', [
      { field: 'body.email', message: 'is already in use' },
    ]);
  await ctx.db.getRepository(User).update(owner.id, {
    firstName: body.firstName,
    lastName: body.lastName,
    email: body.email,
    passwordHash: await ctx.passwords.hash(body.password),
    modifiedDate: ctx.now(),
  });
  await writeSetting(ctx, 'setupComplete', true);
  // The first-start key was for this form alone: once used, it opens nothing more (the owner signs in
  // with their password, and makes API keys of their own where they need them).
  if (ctx.principal?.via === 'apiKey')
    await ctx.db.getRepository(ApiKey).delete({ id: ctx.principal.credentialId, name: FIRST_START_KEY_NAME });
  return startSession(ctx, owner.id);
}
