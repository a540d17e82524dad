import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import type { Engine } from '../engine.js';
import { DEFAULT_BODY_LIMIT } from '../core/limits.js';
import { registerSsoRoutes } from './sso-routes.js';
import { registerCloudRoutes } from './cloud-routes.js';
import { credentialFirst } from './credential-first.js';
import { guards } from './plugins/guards.js';
import { trustedOrigins } from './plugins/trusted-origins.js';
import { restDoor } from './plugins/rest-door.js';
import { invokeDoor } from './plugins/invoke-door.js';
import { eventStream } from './plugins/event-stream.js';
import { documents } from './plugins/documents.js';

export interface HttpOptions {
  host?: string;
  port?: number;
  /** Extra host names the Host header may carry (when LAN access is on). */
  allowedHosts?: string[];
  /** The renderer build to serve at /, when present. */
  rendererDir?: string;
  bodyLimit?: number;
  version?: string;
  /** Called once, when the server has sent its first answer (the host starts its background work then). */
  onFirstAnswer?: () => void;
}

export interface HttpServer {
  app: FastifyInstance;
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * An engine still starting: its catalogue is known before its database is open, so the server's
 * routes are set up while the engine waits on the database's thread, and it listens once started.
 */
export interface StartingEngine {
  catalogue: Engine['catalogue'];
  started: Promise<Engine>;
}

/**
 * The HTTP API generated from the catalogue, plus the renderer build and the OpenAPI document: the
 * server is its plugins, in the order a request meets them (guards, CORS, the REST door, the
 * renderer's door, the event stream, company sign-in, documents).
 */
/**
 * Fastify's JSON-schema compilers, never used: every operation validates its input with zod and
 * its answer with the result schema (ops/), and no route gives Fastify a schema. Left out, Fastify
 * does not load ajv and fast-json-stringify at every start (they are kept out of the start-up
 * bundle, scripts/build-node.mjs); a route that gave a schema would fail here, by name, at start.
 */
const NO_JSON_SCHEMAS = {
  buildValidator: () => {
    throw new Error('A route gave Fastify a JSON schema: operations validate with zod (engine/ops), not Fastify');
  },
  buildSerializer: () => {
    throw new Error('A route gave Fastify a response schema: answers are checked with zod (engine/ops), not Fastify');
  },
};

export async function startHttpServer(given: Engine | StartingEngine, options: HttpOptions = {}): Promise<HttpServer> {
  const catalogue = given.catalogue;
  const started = 'started' in given ? null : given;
  let engineNow: Engine | null = started;
  // The server listens only once the engine has started: no handler runs before then.
  const engine = () => {
    if (!engineNow) throw new Error('The HTTP server answered before its engine started');
    return engineNow;
  };
  const host = options.host ?? '127.0.0.1';
  let port = options.port ?? 0;
  const app = Fastify({
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    logger: false,
    trustProxy: false,
    forceCloseConnections: true,
    // No HEAD twin for every GET: nothing asks for one, and each route costs the start time.
    exposeHeadRoutes: false,
    schemaController: { compilersFactory: NO_JSON_SCHEMAS },
  });
  const credentials = credentialFirst(engine);
  const first = options.onFirstAnswer;
  if (first) {
    let answered = false;
    app.addHook('onResponse', async () => {
      if (answered) return;
      answered = true;
      first();
    });
  }
  await app.register(guards, { engine, port: () => port, allowedHosts: options.allowedHosts });
  await app.register(trustedOrigins, { engine });
  await app.register(restDoor, { engine, catalogue, credentials });
  await app.register(invokeDoor, { engine, catalogue, credentials });
  await app.register(eventStream, { engine });
  registerSsoRoutes(app, () => engine().services);
  registerCloudRoutes(app, () => engine().services);
  await app.register(documents, { catalogue, version: options.version, rendererDir: options.rendererDir });

  if ('started' in given) engineNow = await given.started;
  await app.listen({ host, port });
  port = (app.server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost === '0.0.0.0' ? '127.0.0.1' : shownHost}:${port}`;
  engine().services.address.http ??= url;
  return { app, port, url, close: () => app.close() };
}
