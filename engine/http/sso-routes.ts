import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EngineServices } from '../ops/context.js';
import { retryAfterSeconds } from '../core/errors.js';
import { activeProvider, savedProvider } from '../features/sso/sso-providers.js';
import { seamOf } from '../features/sso/kinds/index.js';
import { handOff, handOffUser, safeReturnTo, SsoRefusal } from '../features/sso/sso-identity.js';
import { negotiateStep, windowsSignInOffered, windowsUser } from '../features/sso/windows-sign-in.js';
import { samlLogoutMessage, samlMetadata } from '../features/sso/saml-flow.js';
import { endProviderSessions } from '../features/sso/sso-sign-out.js';
import { origin, toPage } from './to-page.js';

// The company sign-in's browser routes. They are pages a browser is sent to (redirects, an XML
// document, a form the provider posts), not calls that answer the JSON envelope, so they are routes
// of their own rather than operations; what they start ends in an operation (`app.auth.ssoFinish`),
// which makes the session the page then holds.

type Params = { id: string };

const base = (req: FastifyRequest, id: string) => `${origin(req)}/api/app/sso/${encodeURIComponent(id)}`;

export function registerSsoRoutes(app: FastifyInstance, services: () => EngineServices) {
  const guardKey = (id: string) => `sso:${id}`;

  /** A refusal: logged with its reason (never a token), counted by the throttle, told to the page by a fixed word. */
  const refused = (req: FastifyRequest, reply: FastifyReply, id: string, e: unknown) => {
    const s = services();
    if (!(e instanceof SsoRefusal)) {
      s.log.error('Company sign-in failed', { provider: id, error: (e as Error).message });
      return toPage(reply, req, '#/sign-in/problem/provider');
    }
    s.signInThrottle.fail(guardKey(id), req.ip);
    s.log.warn('Company sign-in refused', { provider: id, reason: e.reason, message: e.message, detail: e.detail });
    return toPage(reply, req, `#/sign-in/problem/${e.reason}`);
  };

  const provider = async (id: string) => {
    const p = await activeProvider(services(), id);
    if (!p) throw new SsoRefusal('disabled', 'the provider is unknown, inactive or used by no organization');
    return p;
  };

  /**
   * SAML single logout: the IdP's logout request (another application signed the person out) ends
   * the sessions it names and is answered, signed; the IdP's answer to this installation's own
   * request lands the browser on the sign-in page. `rawQuery` is the redirect binding's query as
   * sent (its signature covers it); null for the POST binding.
   */
  const singleLogout = async (
    req: FastifyRequest,
    reply: FastifyReply,
    id: string,
    form: Record<string, string>,
    rawQuery: string | null,
  ) => {
    const s = services();
    try {
      const p = await provider(id);
      if (!seamOf(p)?.serviceProvider) throw new SsoRefusal('disabled', 'the provider is no SAML provider');
      const message = await samlLogoutMessage(s, p, base(req, id), form, rawQuery);
      if (message.kind === 'response') return toPage(reply, req, '#/sign-in');
      const ended = await endProviderSessions(s, p.id, message.subject, message.sessionIndex);
      s.log.info('Signed out by the identity provider', { provider: p.id, sessions: ended });
      return reply
        .code(302)
        .header('cache-control', 'no-store')
        .header('location', await message.answer(true))
        .send();
    } catch (e) {
      // The person is signed out here already (a sign-out started here ended the session first).
      if (!(e instanceof SsoRefusal)) return refused(req, reply, id, e);
      s.log.warn('A logout message was refused', {
        provider: id,
        reason: e.reason,
        message: e.message,
        detail: e.detail,
      });
      return toPage(reply, req, '#/sign-in/problem/signout');
    }
  };

  app.get<{ Params: Params; Querystring: Record<string, string> }>('/api/app/sso/:id/slo', (req, reply) =>
    singleLogout(req, reply, req.params.id, req.query ?? {}, req.url.split('?')[1] ?? ''),
  );

  /**
   * Windows sign-in (HTTP Negotiate): without a ticket, the 401 that asks the browser for one (a
   * browser that has none shows its body, which leads back to the sign-in page); with one, the
   * person it names lands signed in, and the server's own token goes back (mutual authentication).
   */
  app.get<{ Querystring: { returnTo?: string } }>('/api/app/sso/windows/start', async (req, reply) => {
    const s = services();
    const wait = s.signInThrottle.retryAfter(guardKey('windows'), req.ip);
    if (wait > 0) return toPage(reply, req, '#/sign-in/problem/throttled');
    try {
      if (!(await windowsSignInOffered(s)))
        throw new SsoRefusal('disabled', 'Windows sign-in is off for the system or for every organization');
      const offered = /^Negotiate\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!offered)
        return reply
          .code(401)
          .header('www-authenticate', 'Negotiate')
          .header('cache-control', 'no-store')
          .header('content-type', 'text/html; charset=utf-8')
          .send(
            '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Windows sign-in</title></head><body>' +
              '<p>This browser did not sign in with Windows (it has no Kerberos ticket for this server, or is not set up to use one).</p>' +
              `<p><a href="${origin(req)}/#/sign-in/problem/windows">Back to the sign-in page</a></p></body></html>`,
          );
      const host = String(req.headers.host ?? '')
        .replace(/:\d+$/, '')
        .replace(/^\[|\]$/g, '');
      const step = await negotiateStep(host, offered);
      const user = await windowsUser(s, step.principal);
      if (!user)
        throw new SsoRefusal(
          'nobody',
          `${step.principal} is no active user of an organization that allows Windows sign-in`,
        );
      const code = await handOffUser(s, user.id, 'windows', safeReturnTo(req.query.returnTo));
      s.signInThrottle.succeed(guardKey('windows'), req.ip);
      if (step.response) reply.header('www-authenticate', `Negotiate ${step.response}`);
      return toPage(reply, req, `#/sign-in/finish/${code}`);
    } catch (e) {
      return refused(req, reply, 'windows', e);
    }
  });

  /** Sends the browser to the provider. `returnTo` is a screen of this app to land on afterwards. */
  app.get<{ Params: Params; Querystring: { returnTo?: string } }>('/api/app/sso/:id/start', async (req, reply) => {
    const { id } = req.params;
    const s = services();
    const wait = s.signInThrottle.retryAfter(guardKey(id), req.ip);
    if (wait > 0)
      return toPage(reply.header('retry-after', String(retryAfterSeconds(wait))), req, '#/sign-in/problem/throttled');
    try {
      const p = await provider(id);
      const returnTo = safeReturnTo(req.query.returnTo);
      const start = seamOf(p)?.start;
      if (!start) throw new SsoRefusal('disabled', 'the provider signs nobody in from a browser');
      const to = await start(s, p, base(req, id), returnTo);
      return reply.code(302).header('cache-control', 'no-store').header('location', to).send();
    } catch (e) {
      return refused(req, reply, id, e);
    }
  });

  /**
   * The provider's answer, brought back by the browser (its kind reads it: kinds/*.ts `finish`):
   * who signed in becomes a one-time code the sign-in page exchanges for a session.
   */
  const finish = async (req: FastifyRequest, reply: FastifyReply, id: string, form: Record<string, string>) => {
    const s = services();
    try {
      const p = await provider(id);
      const read = seamOf(p)?.finish;
      if (!read) throw new SsoRefusal('disabled', 'the provider signs nobody in from a browser');
      const identity = await read(s, p, base(req, id), { url: new URL(req.url, origin(req)), form });
      const code = await handOff(s, p.id, identity, identity.returnTo);
      s.signInThrottle.succeed(guardKey(id), req.ip);
      return toPage(reply, req, `#/sign-in/finish/${code}`);
    } catch (e) {
      return refused(req, reply, id, e);
    }
  };

  /** The redirect URI (OpenID's answer comes back in its address). */
  app.get<{ Params: Params }>('/api/app/sso/:id/callback', (req, reply) => finish(req, reply, req.params.id, {}));

  // The SAML assertion consumer service: the provider's form post (application/x-www-form-urlencoded).
  void app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 512 * 1024 },
      (_req, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    scope.post<{ Params: Params; Body: Record<string, string> }>('/api/app/sso/:id/acs', (req, reply) =>
      finish(req, reply, req.params.id, req.body ?? {}),
    );
    scope.post<{ Params: Params; Body: Record<string, string> }>('/api/app/sso/:id/slo', (req, reply) =>
      singleLogout(req, reply, req.params.id, req.body ?? {}, null),
    );
  });

  /** The service provider's metadata, for the identity provider's administrator. */
  app.get<{ Params: Params }>('/api/app/sso/:id/metadata', async (req, reply) => {
    // Served for every saved SAML provider, used or not yet, active or not: the IdP is set up with it first.
    const p = await savedProvider(services(), req.params.id);
    if (!p || !seamOf(p)?.serviceProvider)
      return reply.code(404).send({ isSuccess: false, error: 'No SAML provider here' });
    return reply
      .code(200)
      .header('content-type', 'application/samlmetadata+xml; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(await samlMetadata(services(), p, base(req, p.id)));
  });
}
