import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine.js';
import { bodyLimitOf } from '../../ops/dispatch.js';
import { failure } from '../../core/envelope.js';
import { SESSION_HEADER, type SessionChange, type WireFile } from '../../wire.js';
import { cappedBody } from '../capped-body.js';
import type { CredentialFirst } from '../credential-first.js';
import { answer, bearer, notJson, send, sentFile, type EngineAt } from '../reply.js';

/** The renderer's door wraps an operation's input as {params, query, body}: room for the wrapper. */
const WRAPPER_ALLOWANCE = 64 * 1024;

/** The `input` query parameter of an upload through the renderer's door: `{params, query}` as JSON. */
function parsedInput(text: string | undefined): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return {};
  }
}

/**
 * The renderer's HTTP door: the same three-part input as IPC, one route for every operation, each
 * operation's own body limit holding here too (chunked bodies included), before parsing. It answers
 * as IPC does (the wire contract): files as base64 in the envelope, and a header when the operation
 * starts or ends a session.
 */
export async function invokeDoor(
  app: FastifyInstance,
  o: { engine: EngineAt; catalogue: Engine['catalogue']; credentials: CredentialFirst },
) {
  const invoked = (req: FastifyRequest) => o.catalogue.get((req.params as { id: string }).id);
  const largestBody = Math.max(...[...o.catalogue.values()].map(bodyLimitOf)) + WRAPPER_ALLOWANCE;
  app.post(
    '/api/app/invoke/:id',
    {
      bodyLimit: largestBody,
      onRequest: async (req, reply) => {
        const op = invoked(req);
        if (!op) return send(reply, 404, failure(`No route POST ${req.url.split('?')[0]}`));
        return o.credentials.check(op)(req, reply);
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
      ) as { params?: unknown; query?: unknown; body?: unknown };
      const result = await o
        .engine()
        .invoke(
          op.id,
          { params: b.params, query: b.query, body: upload ? undefined : b.body },
          { token: bearer(req), transport: 'http', client: req.ip, ...o.credentials.found(req), upload },
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
}
