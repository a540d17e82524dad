import { keepSignIn } from './sign-in-record.js';
import type { OpContext } from '../../ops/context.js';
import { me } from '../../ops/context.js';
import { fieldError, forbidden, retryAfterSeconds, tooMany, unauthorized } from '../../core/errors.js';
import { passwordsOffFor } from './passwords-off.js';
import { newBase } from '../../core/entity-base.js';
import { newToken, passwordProblem, tokenHash } from '../../core/passwords.js';
import { User } from '../../model/users.entity.js';
import { userDto } from '../users/users.rules.js';
import { Session } from '../../model/sessions.entity.js';
import { directoryPasswordHolds } from '../user-directories/directory-sign-in.js';
import { SESSION_PREFIX } from './credential-prefixes.js';

/** Sessions last a working day; log-out, a password change or deactivation end them sooner. */
export const SESSION_HOURS = 12;

/** The company sign-in a session came from: what signing out of both, or the provider's own logout, needs. */
export interface ProviderLink {
  providerId: string;
  subject: string | null;
  /** Kept as the provider's flow needs it (SAML: NameID format, SessionIndex, this server's address). */
  session: Record<string, unknown> | null;
}

export async function startSession(ctx: OpContext, userId: string, link?: ProviderLink | null) {
  const token = newToken(SESSION_PREFIX);
  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3600_000);
  await ctx.db.getRepository(Session).insert({
    ...newBase(now),
    userId,
    tokenHash: tokenHash(token),
    expiresAt,
    providerId: link?.providerId ?? null,
    providerSubject: link?.subject ?? null,
    providerSession: link?.session ? JSON.stringify(link.session) : null,
  });
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

/** Signs in with e-mail and password: a new session, or 401 (the same for every reason), or 429 while throttled. */
export async function signIn(ctx: OpContext, email: string, password: string) {
  // Throttled per account and per address alike, whether the account exists or not.
  const guard = ctx.signInThrottle;
  const accountKey = email.toLowerCase();
  const wait = guard.retryAfter(accountKey, ctx.client);
  if (wait > 0) throw tooMany(`Too many failed sign-ins; try again in ${retryAfterSeconds(wait)} s`, wait);
  const user = await ctx.db.getRepository(User).findOneBy({ email: accountKey });
  // A directory's people without a password of their own here are checked by their directory.
  const byDirectory = !!user?.isActive && !!user.directoryId && !user.passwordHash;
  // Same answer and similar time whether the address exists or not.
  const ok = byDirectory
    ? await directoryPasswordHolds(ctx, user!, password)
    : await ctx.passwords.verify(password, user?.passwordHash);
  if (!user || !ok || !user.isActive || !(user.passwordHash || byDirectory)) {
    guard.fail(accountKey, ctx.client);
    await keepSignIn(ctx, 'fail', accountKey, ctx.client);
    throw unauthorized('E-mail or password is incorrect, or the account is inactive');
  }
  // Asked only once the password held, so it tells nothing about an account to someone guessing.
  // The tenant owner keeps a way in whatever the organizations say (the break-glass rule, README).
  if (!user.isTenantOwner && (await passwordsOffFor(ctx, user.id)))
    throw forbidden(
      'Your organization signs in with its company account, not a password: use its button on the sign-in page',
    );
  guard.succeed(accountKey, ctx.client);
  await keepSignIn(ctx, 'succeed', accountKey, ctx.client);
  return { ...(await startSession(ctx, user.id)), user: await userDto(ctx, user) };
}

/** Ends the current session (an API key has none to end). */
export async function endSession(ctx: OpContext) {
  const p = me(ctx);
  if (p.via === 'session') await ctx.db.getRepository(Session).delete({ id: p.credentialId });
  return { loggedOut: p.via === 'session' };
}

/** A new password of one's own: every session ends and a new one starts. */
export async function changeOwnPassword(ctx: OpContext, currentPassword: string, newPassword: string) {
  const user = me(ctx).user;
  if (!(await ctx.passwords.verify(currentPassword, user.passwordHash)))
    throw fieldError('body.currentPassword', 'is not the current password');
  const problem = passwordProblem(newPassword);
  if (problem) throw fieldError('body.newPassword', problem);
  await ctx.db
    .getRepository(User)
    .update(user.id, { passwordHash: await ctx.passwords.hash(newPassword), modifiedDate: ctx.now() });
  await ctx.db.getRepository(Session).delete({ userId: user.id });
  return startSession(ctx, user.id);
}
