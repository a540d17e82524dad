import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import { Readable } from 'node:stream';
import cors from '@fastify/cors';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Engine, InvokeResult } from '../engine.js';
import { bodyLimitOf, type Authenticated } from '../ops/dispatch.js';
import type { AnyOp } from '../ops/op.js';
import { SESSION_HEADER, type SessionChange, type WireFile } from '../wire.js';
import { failure } from '../core/envelope.js';
import { databaseUnavailable, isDatabaseUnavailable, retryAfterSeconds } from '../core/errors.js';
import { DEFAULT_BODY_LIMIT } from '../core/limits.js';
import { contentDisposition } from '../core/file-result.js';
import { openApiDocument } from './openapi.js';
import { cappedBody } from './capped-body.js';
import { RestRoutes, type RestMatch } from './rest-routes.js';
import { SECURITY_HEADERS } from './security-headers.js';
import { TrustedOrigin } from '../model/trusted-origins.entity.js';
import { registerSsoRoutes } from './sso-routes.js';

export interface HttpOptions {
  host?: string;
  port?: number;
  /** Extra host names the Host header may carry (when LAN access is on). */
  allowedHosts?: string[];
  /** The renderer build to serve at /, when present. */
  rendererDir?: string;
  bodyLimit?: number;
  version?: string;
}

export interface HttpServer {
  app: FastifyInstance;
  url: string;
  port: number;
  close(): Promise<void>;
}

const CREDENTIAL_QUERY_KEYS = ['token', 'access_token', 'api_key', 'apikey', 'key'];

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : null;
}

function send(reply: FastifyReply, status: number, envelope: unknown) {
  return reply.code(status).header('cache-control', 'no-store').send(envelope);
}

function answer(reply: FastifyReply, result: InvokeResult) {
  if (result.retryAfter) reply.header('retry-after', String(result.retryAfter));
  return send(reply, result.status, result.envelope);
}

/** A body the operation does not take: only upload operations take a file as itself. */
const notJson = (reply: FastifyReply) => send(reply, 415, failure('Send JSON (Content-Type: application/json)'));

/** The request's body when it is a file sent as itself (application/octet-stream), still unread. */
const sentFile = (req: FastifyRequest): Readable | undefined => (req.body instanceof Readable ? req.body : undefined);

/** The `input` query parameter of an upload through the renderer's door: `{params, query}` as JSON. */
function parsedInput(text: string | undefined): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return {};
  }
}

/** The renderer's door wraps an operation's input as {params, query, body}: room for the wrapper. */
const WRAPPER_ALLOWANCE = 64 * 1024;

/**
 * An engine still starting: its catalogue is known before its database is open, so the server's
 * routes are set up while the engine waits on the database's thread, and it listens once started.
 */
export interface StartingEngine {
  catalogue: Engine['catalogue'];
  started: Promise<Engine>;
}

/** The HTTP API generated from the catalogue, plus the renderer build and the OpenAPI document. */
export async function startHttpServer(given: Engine | StartingEngine, options: HttpOptions = {}): Promise<HttpServer> {
  const catalogue = given.catalogue;
  // Set before the server listens: no handler runs before then.
  let engine = 'started' in given ? (undefined as unknown as Engine) : given;
  const host = options.host ?? '127.0.0.1';
  const app = Fastify({
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    logger: false,
    trustProxy: false,
    forceCloseConnections: true,
    // No HEAD twin for every GET: nothing asks for one, and each route costs the start time.
    exposeHeadRoutes: false,
  });
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
  let port = options.port ?? 0;

  // Host allow-list against DNS rebinding: only loopback names (and those the user allowed) may address us.
  // Made once for the port the server listens on (known only once it listens), not at every request.
  let allowed: { port: number; hosts: Set<string> } | undefined;
  const allowedHosts = () =>
    allowed?.port === port
      ? allowed.hosts
      : (allowed = {
          port,
          hosts: new Set([
            `127.0.0.1:${port}`,
            `localhost:${port}`,
            `[::1]:${port}`,
            ...(options.allowedHosts ?? []).map((h) => (h.includes(':') ? h : `${h}:${port}`)),
          ]),
        }).hosts;
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

  // CORS only for the trusted origins stored in the database (set A "trusted origins"), asked at each
  // request: a change (an origin added or removed) holds at once, and one indexed read costs nothing.
  await app.register(cors, {
    origin: (origin, cb) => {
      if (!origin) return cb(null, false);
      engine.services.db
        .getRepository(TrustedOrigin)
        .existsBy({ address: origin })
        .then((yes) => cb(null, yes))
        .catch(() => cb(null, false));
    },
    methods: ['GET', 'POST', 'PUT', 'DELETE'],
    // No fixed header list: a preflight from a trusted origin gets back the headers it asks for
    // (browser clients of the reference product send extra ones, even `access-control-allow-headers`).
    // Only trusted origins get any CORS answer, and credentials still travel in Authorization alone.
    maxAge: 600,
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
    engine.services.log.error('HTTP failure', { error: err.message });
    return send(reply, 500, failure('Internal error; the log has the details'));
  });

  // The credential is checked when the request arrives, before a byte of its body is read: an
  // unauthenticated upload is refused without being parsed. The principal travels on to the call.
  const principals = new WeakMap<FastifyRequest, Authenticated>();
  const credentialFirst = (op: AnyOp) => async (req: FastifyRequest, reply: FastifyReply) => {
    const check = await engine.authenticate(op.id, { token: bearer(req), transport: 'http', client: req.ip });
    if ('refused' in check) return answer(reply, check.refused);
    principals.set(req, check);
  };
  /** The call's options for what the credential check found (a remembered principal comes with its confirmation). */
  const checked = (req: FastifyRequest) => {
    const found = principals.get(req);
    return { principal: found?.principal, unchanged: found?.unchanged };
  };

  const call = async (
    op: AnyOp,
    req: FastifyRequest,
    reply: FastifyReply,
    input: { params?: unknown; query?: unknown; body?: unknown },
  ) => {
    const upload = sentFile(req);
    if (upload && !op.upload) return notJson(reply);
    const result = await engine.invoke(op.id, upload ? { params: input.params, query: input.query } : input, {
      token: bearer(req),
      transport: 'http',
      client: req.ip,
      ...checked(req),
      upload,
    });
    if (result.file) {
      return reply
        .code(200)
        .header('cache-control', 'no-store')
        .header('content-type', result.file.mime)
        .header('content-disposition', contentDisposition(result.file.fileName))
        .send(result.file.data);
    }
    return answer(reply, result);
  };

  // The REST API: one route, each request's operation found in the catalogue's own table (a start
  // builds no router node per path), its body held to the operation's own limit as it arrives.
  const rest = new RestRoutes(catalogue.values());
  const restMatches = new WeakMap<FastifyRequest, RestMatch>();
  const restOp = (req: FastifyRequest) => restMatches.get(req)!.op;
  app.route({
    method: ['GET', 'POST', 'PUT', 'DELETE'],
    url: '/api/*',
    bodyLimit: Math.max(...[...catalogue.values()].map(bodyLimitOf)),
    onRequest: async (req, reply) => {
      const path = req.url.split('?')[0];
      const found = rest.match(req.method, path);
      if (found === 'malformed')
        return send(reply, 400, failure('Malformed request: a path parameter is not valid URL encoding'));
      if (!found) return send(reply, 404, failure(`No route ${req.method} ${path}`));
      restMatches.set(req, found);
      return credentialFirst(found.op)(req, reply);
    },
    preParsing: async (req, _reply, payload) => cappedBody(payload, bodyLimitOf(restOp(req)), req.headers),
    handler: (req, reply) =>
      call(restOp(req), req, reply, { params: restMatches.get(req)!.params, query: req.query, body: req.body }),
  } as RouteOptions);

  // The renderer's HTTP door: the same three-part input as IPC, one route for every operation, each
  // operation's own body limit holding here too (chunked bodies included), before parsing. It
  // answers as IPC does (the wire contract): files as base64 in the envelope, and a header when the
  // operation starts or ends a session.
  const invoked = (req: FastifyRequest) => catalogue.get((req.params as { id: string }).id);
  const largestBody = Math.max(...[...catalogue.values()].map(bodyLimitOf)) + WRAPPER_ALLOWANCE;
  app.post(
    '/api/app/invoke/:id',
    {
      bodyLimit: largestBody,
      onRequest: async (req, reply) => {
        const op = invoked(req);
        if (!op) return send(reply, 404, failure(`No route POST ${req.url.split('?')[0]}`));
        return credentialFirst(op)(req, reply);
      },
      preParsing: async (req, _reply, payload) =>
        cappedBody(payload, bodyLimitOf(invoked(req)!) + WRAPPER_ALLOWANCE, req.headers),
    },
    async (req, reply) => {
      const op = invoked(req)!;
      // An upload sends the file as the body and its other two parts as JSON in the query (`?input=`).
      const upload = sentFile(req);
      if (upload && !op.upload) return notJson(reply);
      const b = (
        upload
          ? parsedInput((req.query as { input?: string }).input)
          : req.body && typeof req.body === 'object'
            ? req.body
            : {}
      ) as {
        params?: unknown;
        query?: unknown;
        body?: unknown;
      };
      const result = await engine.invoke(
        op.id,
        { params: b.params, query: b.query, body: upload ? undefined : b.body },
        { token: bearer(req), transport: 'http', client: req.ip, ...checked(req), upload },
      );
      if (op.session && result.status === 200) reply.header(SESSION_HEADER, op.session satisfies SessionChange);
      if (result.file) {
        const { fileName, mime, data } = result.file;
        const file: WireFile = { fileName, mime, base64: data.toString('base64') };
        return send(reply, 200, { ...result.envelope, data: file });
      }
      return answer(reply, result);
    },
  );

  // Engine events (import progress, reloads, report and run progress) as server-sent events, for the served UI.
  app.get('/api/app/events', async (req, reply) => {
    const check = await engine.invoke('app.auth.me', {}, { token: bearer(req), transport: 'http', client: req.ip });
    if (check.status !== 200) return send(reply, check.status, check.envelope);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      ...SECURITY_HEADERS,
    });
    res.write(': connected\n\n');
    // Each event only if the caller's own lists would show what it is about.
    const credential = { token: bearer(req), transport: 'http' as const, client: req.ip };
    const off = engine.watch(
      () => credential,
      (event) => res.write(`data: ${JSON.stringify(event)}\n\n`),
    );
    const ping = setInterval(() => res.write(': ping\n\n'), 25_000);
    req.raw.on('close', () => {
      off();
      clearInterval(ping);
    });
  });

  registerSsoRoutes(app, () => engine.services);

  // Written when first asked for: building it walks every operation's schema, a tenth of a start.
  let doc: ReturnType<typeof openApiDocument> | undefined;
  app.get('/api/openapi.json', (_req, reply) =>
    reply.send((doc ??= openApiDocument(catalogue.values(), options.version ?? '0.0.0'))),
  );

  if (options.rendererDir && existsSync(options.rendererDir)) {
    await app.register(fastifyStatic, { root: options.rendererDir, wildcard: false, index: ['index.html'] });
  }
  app.setNotFoundHandler((req, reply) => {
    if (req.url.startsWith('/api/') || !options.rendererDir || req.method !== 'GET')
      return send(reply, 404, failure(`No route ${req.method} ${req.url.split('?')[0]}`));
    return reply.type('text/html').sendFile('index.html');
  });

  if ('started' in given) engine = await given.started;
  await app.listen({ host, port });
  port = (app.server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${port}`;
  engine.services.address.http ??= url;
  return { app, port, url, close: () => app.close() };
}
