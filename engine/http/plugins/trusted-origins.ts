import fp from 'fastify-plugin';
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import { TrustedOrigin } from '../../model/trusted-origins.entity.js';
import type { EngineAt } from '../reply.js';

/**
 * CORS only for the trusted origins stored in the database (set A "trusted origins"), asked at each
 * request: a change (an origin added or removed) holds at once, and one indexed read costs nothing.
 */
export const trustedOrigins = fp(async (app: FastifyInstance, o: { engine: EngineAt }) => {
  await app.register(cors, {
    origin: (origin, cb) => {
      if (!origin) return cb(null, false);
      o.engine()
        .services.db.getRepository(TrustedOrigin)
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
});
