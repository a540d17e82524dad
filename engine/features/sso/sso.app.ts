import { LOOPBACK_CALLBACK } from '../../core/loopback-callback.js';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { lazySchema } from '../../core/lazy-schema.js';
import { UserResult } from '../common.results.js';
import { userDto } from '../users/users.rules.js';
import { User } from '../../model/users.entity.js';
import { endSession, startSession } from '../auth/auth.rules.js';
import { Session } from '../../model/sessions.entity.js';
import { me } from '../../ops/context.js';
import { providerSignOutUrl } from './sso-sign-out.js';
import { activeProvider, userFor } from './sso-providers.js';
import { signInChoices } from './sign-in-choices.js';
import { seamOf } from './kinds/index.js';
import { oidcCallback, oidcStart } from './oidc-flow.js';
import { provisionUser } from './provisioning.js';
import { takeTicket } from '../tickets/one-time-tickets.js';
import { SsoRefusal, type Handoff } from './sso-identity.js';
import { userOfJwt } from './jwt-bearer.js';
import { AuthResult } from '../auth/auth.results.js';
import { checkProvider } from './provider-check.js';
import { discoverIssuer } from './issuer-discovery.js';
import { windowsSignInOffered } from './windows-sign-in.js';
import { idParam, v } from '../../core/validation.js';
import { findOr404 } from '../../core/rows.js';
import { IdentityProvider } from '../../model/identity-providers.entity.js';
import { fieldError, retryAfterSeconds, tooMany, unauthorized } from '../../core/errors.js';

const SignInChoices = lazySchema(() =>
  z.object({
    providers: z.array(
      z.object({
        id: z.string(),
        label: z.string(),
        kind: z.enum(['oidc', 'saml', 'jwt', 'windows']),
        passwordsOff: z.boolean(),
      }),
    ),
    /** The one provider the page goes straight to: exactly one applies and no organization takes passwords. */
    goStraightTo: z.string().nullable(),
  }),
);

const ProviderChecks = lazySchema(() =>
  z.object({
    ok: z.boolean(),
    checks: z.array(z.object({ what: z.string(), ok: z.boolean(), message: z.string() })),
  }),
);

/** The desktop signs in with OpenID providers only (SAML's ACS is a fixed address: the served page). */
async function activeOidcProvider(ctx: Parameters<typeof activeProvider>[0], id: string) {
  const p = await activeProvider(ctx, id);
  if (!p || !seamOf(p)?.desktop)
    throw fieldError('body.providerId', 'is no active OpenID provider (SAML signs in from the served page)');
  return p;
}

const DesktopStart = lazySchema(() =>
  z.object({
    providerId: v.uuid(),
    redirectUri: z.string().max(100).regex(LOOPBACK_CALLBACK, 'must be http://127.0.0.1:<port>/callback'),
  }),
);
const DesktopFinish = lazySchema(() =>
  z.object({
    providerId: v.uuid(),
    callbackUrl: z.string().max(4096).regex(LOOPBACK_CALLBACK, 'must be the loopback callback the browser reached'),
  }),
);

const Finished = lazySchema(() =>
  z.object({
    user: UserResult,
    token: z.string(),
    expiresAt: z.string(),
    returnTo: z.string(),
    /** Where the browser goes after signing out here, to end the provider's session too (OpenID). */
    signOutUrl: z.string().nullable(),
  }),
);

export const ssoApp = [
  defineOp({
    id: 'app.auth.providers',
    summary: 'The company sign-in buttons of the sign-in page: each active provider an organization uses',
    http: { method: 'GET', path: '/api/app/auth/providers' },
    permission: 'public',
    result: SignInChoices,
    handler: async (ctx) => {
      const providers: {
        id: string;
        label: string;
        kind: 'oidc' | 'saml' | 'jwt' | 'windows';
        passwordsOff: boolean;
      }[] = await signInChoices(ctx);
      if (await windowsSignInOffered(ctx))
        providers.push({ id: 'windows', label: 'Sign in with Windows', kind: 'windows', passwordsOff: false });
      const straight = providers.length === 1 && providers[0].passwordsOff ? providers[0].id : null;
      return { providers, goStraightTo: straight };
    },
  }),
  defineOp({
    id: 'app.auth.ssoFinish',
    summary: "Finish a company sign-in: the one-time code the provider's return brought becomes a session",
    http: { method: 'POST', path: '/api/app/auth/sso/finish' },
    permission: 'public',
    session: 'start',
    input: { body: z.object({ code: z.string().min(1, 'must not be empty').max(200) }) },
    result: Finished,
    handler: async (ctx, { body }) => {
      const handoff = await takeTicket<Handoff>(ctx, 'handoff', body.code);
      const user = handoff && (await ctx.db.getRepository(User).findOneBy({ id: handoff.userId, isActive: true }));
      if (!handoff || !user) throw unauthorized('This sign-in link was already used or has expired; sign in again');
      const provider = await activeProvider(ctx, handoff.providerId);
      // Only an address that needs no session can be told now (OpenID's end-session address).
      const signOutUrl = provider ? ((await seamOf(provider)?.signOutUrl(ctx, provider, null)) ?? null) : null;
      // The session remembers its provider and whom it signed in: signing out ends both (see app.auth.signOut).
      const link = provider
        ? { providerId: provider.id, subject: handoff.subject ?? null, session: handoff.providerSession ?? null }
        : null;
      return {
        ...(await startSession(ctx, user.id, link)),
        user: await userDto(ctx, user),
        returnTo: handoff.returnTo,
        signOutUrl,
      };
    },
  }),
  defineOp({
    id: 'app.auth.signOut',
    summary: "Sign out: end this session, and answer where the browser goes to end the company sign-in's session too",
    http: { method: 'POST', path: '/api/app/auth/sign-out' },
    permission: 'authenticated',
    session: 'end',
    result: lazySchema(() =>
      z.object({
        loggedOut: z.boolean(),
        /** The provider's logout address (OpenID end-session, or SAML single logout with a signed request); null when none. */
        signOutUrl: z.string().nullable(),
      }),
    ),
    handler: async (ctx) => {
      const p = me(ctx);
      const row = p.via === 'session' ? await ctx.db.getRepository(Session).findOneBy({ id: p.credentialId }) : null;
      const signOutUrl = row ? await providerSignOutUrl(ctx, row) : null;
      return { ...(await endSession(ctx)), signOutUrl };
    },
  }),
  defineOp({
    id: 'app.auth.jwtSession',
    summary: 'Turn a JWT of a JWT provider into a session, for a page that embeds Broadsheet',
    http: { method: 'POST', path: '/api/app/auth/jwt' },
    permission: 'public',
    session: 'start',
    input: { body: z.object({ token: z.string().min(1, 'must not be empty').max(8192) }) },
    result: AuthResult,
    handler: async (ctx, { body }) => {
      const guard = ctx.signInThrottle;
      const wait = guard.retryAfter('jwt', ctx.client);
      if (wait > 0) throw tooMany(`Too many refused tokens; try again in ${retryAfterSeconds(wait)} s`, wait);
      const found = await userOfJwt(ctx, body.token);
      if (!found) {
        guard.fail('jwt', ctx.client);
        throw unauthorized('The token is not valid here: its signature, issuer, expiry or user did not hold');
      }
      return { ...(await startSession(ctx, found.user.id)), user: await userDto(ctx, found.user) };
    },
  }),
  defineOp({
    id: 'app.identityProviders.check',
    summary: 'Check an identity provider: its certificate, addresses and discovery document, said in words',
    http: { method: 'POST', path: '/api/app/identity-providers/{id}/check' },
    permission: 'viewSettings',
    objects: { 'params.id': 'identityProvider' },
    input: { params: idParam },
    result: ProviderChecks,
    handler: async (ctx, { params }) => {
      const checks = await checkProvider(ctx, await findOr404(ctx, IdentityProvider, params.id, 'Identity provider'));
      return { ok: checks.every((c) => c.ok), checks };
    },
  }),
  defineOp({
    id: 'app.identityProviders.discover',
    summary: "Read an OpenID issuer's discovery document: its endpoints, to fill a provider's form",
    http: { method: 'POST', path: '/api/app/identity-providers/discover' },
    permission: 'editSettings',
    readOnly: true,
    input: { body: z.object({ issuer: v.url() }) },
    result: lazySchema(() =>
      z.object({
        issuer: z.string(),
        authorizationEndpoint: z.string(),
        accessTokenEndpoint: z.string(),
        userinfoEndpoint: z.string().nullable(),
        logoutEndpoint: z.string().nullable(),
      }),
    ),
    handler: (_ctx, { body }) => discoverIssuer(body.issuer),
  }),
  defineOp({
    id: 'app.auth.ssoDesktopStart',
    summary: "The desktop's company sign-in, first half: the provider's address for the system browser",
    http: { method: 'POST', path: '/api/app/auth/sso/desktop/start' },
    permission: 'public',
    objects: { 'body.providerId': 'identityProvider' },
    input: { body: DesktopStart },
    result: lazySchema(() => z.object({ url: z.string() })),
    handler: async (ctx, { body }) => {
      const p = await activeOidcProvider(ctx, body.providerId);
      return { url: await oidcStart(ctx, p, body.redirectUri, '#/') };
    },
  }),
  defineOp({
    id: 'app.auth.ssoDesktopFinish',
    summary:
      "The desktop's company sign-in, second half: the provider's answer at the loopback address becomes a session",
    http: { method: 'POST', path: '/api/app/auth/sso/desktop/finish' },
    permission: 'public',
    objects: { 'body.providerId': 'identityProvider' },
    session: 'start',
    input: { body: DesktopFinish },
    result: AuthResult,
    handler: async (ctx, { body }) => {
      const p = await activeOidcProvider(ctx, body.providerId);
      const guard = ctx.signInThrottle;
      try {
        const identity = await oidcCallback(ctx, p, new URL(body.callbackUrl));
        const user = (await userFor(ctx, p.id, identity)) ?? (await provisionUser(ctx, p, identity));
        if (!user)
          throw new SsoRefusal('nobody', 'the identity matches no active user of an organization with this provider');
        guard.succeed(`sso:${p.id}`, ctx.client);
        return { ...(await startSession(ctx, user.id)), user: await userDto(ctx, user) };
      } catch (e) {
        if (!(e instanceof SsoRefusal)) throw e;
        guard.fail(`sso:${p.id}`, ctx.client);
        ctx.log.warn('Company sign-in refused', {
          provider: p.id,
          reason: e.reason,
          message: e.message,
          detail: e.detail,
        });
        throw unauthorized(`${p.name} did not sign you in: ${e.message}`);
      }
    },
  }),
] as const;
