import type { FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import type { Engine, InvokeResult } from '../engine.js';
import { failure } from '../core/envelope.js';

// What every door of the HTTP server answers with: the envelope, never cached, and the credential
// read from the Authorization header alone.

export function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : null;
}

export function send(reply: FastifyReply, status: number, envelope: unknown) {
  return reply.code(status).header('cache-control', 'no-store').send(envelope);
}

export function answer(reply: FastifyReply, result: InvokeResult) {
  if (result.retryAfter) reply.header('retry-after', String(result.retryAfter));
  return send(reply, result.status, result.envelope);
}

/** A body the operation does not take: only upload operations take a file as itself. */
export const notJson = (reply: FastifyReply) => send(reply, 415, failure('Send JSON (Content-Type: application/json)'));

/** The request's body when it is a file sent as itself (application/octet-stream), still unread. */
export const sentFile = (req: FastifyRequest): Readable | undefined =>
  req.body instanceof Readable ? req.body : undefined;

/**
 * The engine behind the server. A server may be set up while its engine is still starting (its
 * catalogue is known first); it listens only once the engine has started, so no request meets
 * an engine that is not there.
 */
export type EngineAt = () => Engine;
