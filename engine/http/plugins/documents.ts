import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { existsSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import { failure } from '../../core/envelope.js';
import { openApiDocument } from '../openapi.js';
import { send } from '../reply.js';

/**
 * What is served that is not an operation: the OpenAPI document, the renderer build at / (its
 * index.html for every screen's address), and a 404 in the envelope for any other path.
 */
export const documents = fp(
  async (app: FastifyInstance, o: { catalogue: Engine['catalogue']; version?: string; rendererDir?: string }) => {
    // Written when first asked for: building it walks every operation's schema, a tenth of a start.
    let doc: ReturnType<typeof openApiDocument> | undefined;
    app.get('/api/openapi.json', (_req, reply) =>
      reply.send((doc ??= openApiDocument(o.catalogue.values(), o.version ?? '0.0.0'))),
    );
    const rendererDir = o.rendererDir && existsSync(o.rendererDir) ? o.rendererDir : undefined;
    if (rendererDir)
      // Files are looked up when asked for (`wildcard`): listing the folder at start took a glob of it.
      await app.register(fastifyStatic, { root: rendererDir, index: ['index.html'] });
    app.setNotFoundHandler((req, reply) => {
      if (req.url.startsWith('/api/') || !o.rendererDir || req.method !== 'GET')
        return send(reply, 404, failure(`No route ${req.method} ${req.url.split('?')[0]}`));
      return reply.type('text/html').sendFile('index.html');
    });
  },
);
