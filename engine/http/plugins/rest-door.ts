import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { Engine } from '../../engine.js';
import { bodyLimitOf } from '../../ops/dispatch.js';
import type { AnyOp } from '../../ops/op.js';
import { failure } from '../../core/envelope.js';
import { contentDisposition } from '../../core/file-result.js';
import { cappedBody } from '../capped-body.js';
import { RestRoutes, type RestMatch } from '../rest-routes.js';
import type { CredentialFirst } from '../credential-first.js';
import { answer, bearer, notJson, send, sentFile, type EngineAt } from '../reply.js';

/**
 * The REST API: one route, each request's operation found in the catalogue's own table (a start
 * builds no router node per path), its body held to the operation's own limit as it arrives.
 */
export async function restDoor(
  app: FastifyInstance,
  o: { engine: EngineAt; catalogue: Engine['catalogue']; credentials: CredentialFirst },
) {
  const call = async (
    op: AnyOp,
    req: FastifyRequest,
    reply: FastifyReply,
    input: { params?: unknown; query?: unknown; body?: unknown },
  ) => {
    const upload = sentFile(req);
    if (upload && !op.upload) return notJson(reply);
    const result = await o.engine().invoke(op.id, upload ? { params: input.params, query: input.query } : input, {
      token: bearer(req),
      transport: 'http',
      client: req.ip,
      ...o.credentials.found(req),
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

  const rest = new RestRoutes(o.catalogue.values());
  const restMatches = new WeakMap<FastifyRequest, RestMatch>();
  const restOp = (req: FastifyRequest) => restMatches.get(req)!.op;
  app.route({
    method: ['GET', 'POST', 'PUT', 'DELETE'],
    url: '/api/*',
    bodyLimit: Math.max(...[...o.catalogue.values()].map(bodyLimitOf)),
    onRequest: async (req, reply) => {
      const path = req.url.split('?')[0];
      const found = rest.match(req.method, path);
      if (found === 'malformed')
        return send(reply, 400, failure('Malformed request: a path parameter is not valid URL encoding'));
      if (!found) return send(reply, 404, failure(`No route ${req.method} ${path}`));
      restMatches.set(req, found);
      return o.credentials.check(found.op)(req, reply);
    },
    preParsing: async (req, _reply, payload) => cappedBody(payload, bodyLimitOf(restOp(req)), req.headers),
    handler: (req, reply) =>
      call(restOp(req), req, reply, { params: restMatches.get(req)!.params, query: req.query, body: req.body }),
  } as RouteOptions);
}
