import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { failure } from '../../core/envelope.js';
import { databaseUnavailable, isDatabaseUnavailable, retryAfterSeconds } from '../../core/errors.js';
import { SECURITY_HEADERS } from '../security-headers.js';
import { notJson, send, type EngineAt } from '../reply.js';

const CREDENTIAL_QUERY_KEYS = ['token', 'access_token', 'api_key', 'apikey', 'key'];

export interface GuardOptions {
  engine: EngineAt;
  /** The port the server listens on (known once it listens). */
  port: () => number;
  /** Extra host names the Host header may carry (when LAN access is on). */
  allowedHosts?: string[];
}

/**
 * What every request meets first, on every door: the security headers, the Host allow-list against
 * DNS rebinding, credentials refused in the query string, bodies parsed as JSON or kept as a file,
 * and failures answered in the envelope (never a stack, never a secret).
 */
export const guards = fp(async (app: FastifyInstance, o: GuardOptions) => {
  // An empty body is no body, whatever its Content-Type says: browser clients send the JSON header on
  // bodiless DELETEs and POSTs. An operation that needs a body still answers 400 naming it; any
  // other body is parsed by Fastify's own JSON parser (prototype poisoning refused).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return parseJson(req, text, done);
  });
  // A file sent as itself: not read here; an upload operation streams it to disk (receiveUpload).
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));

  // Only loopback names (and those the user allowed) may address us. Made once for the port the
  // server listens on, not at every request.
  let allowed: { port: number; hosts: Set<string> } | undefined;
  const allowedHosts = () => {
    const port = o.port();
    if (allowed?.port === port) return allowed.hosts;
    allowed = {
      port,
      hosts: new Set([
        `127.0.0.1:${port}`,
        `localhost:${port}`,
        `[::1]:${port}`,
        ...(o.allowedHosts ?? []).map((h) => (h.includes(':') ? h : `${h}:${port}`)),
      ]),
    };
    return allowed.hosts;
  };
  app.addHook('onRequest', async (req, reply) => {
    reply.headers(SECURITY_HEADERS);
    const hostHeader = (req.headers.host ?? '').toLowerCase();
    if (!allowedHosts().has(hostHeader))
      return send(reply, 403, failure(`Host "${hostHeader.slice(0, 100)}" is not allowed`));
    if (req.url.startsWith('/api/')) {
      const q = req.query as Record<string, unknown>;
      const k = CREDENTIAL_QUERY_KEYS.find((key) => key in q);
      if (k)
        return send(
          reply,
          400,
          failure('Credentials go in the Authorization header, never in the query string', [
            { field: `query.${k}`, message: 'not allowed' },
          ]),
        );
    }
  });

  app.setErrorHandler((err: { statusCode?: number; code?: string; message: string }, _req, reply) => {
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(reply, 413, failure('The request body is too large'));
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return notJson(reply);
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)
      return send(
        reply,
        err.statusCode,
        failure(
          err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ? 'The JSON body is empty' : `Malformed request: ${err.message}`,
          [{ field: 'body', message: 'is not valid JSON' }],
        ),
      );
    if (isDatabaseUnavailable(err)) {
      const e = databaseUnavailable(err);
      reply.header('retry-after', String(retryAfterSeconds(e.retryAfterMs)));
      return send(reply, 503, failure(e.message));
    }
    o.engine().services.log.error('HTTP failure', { error: err.message });
    return send(reply, 500, failure('Internal error; the log has the details'));
  });
});
