import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticated } from '../ops/dispatch.js';
import type { AnyOp } from '../ops/op.js';
import { answer, bearer, type EngineAt } from './reply.js';

/**
 * The credential is checked when the request arrives, before a byte of its body is read: an
 * unauthenticated upload is refused without being parsed. The principal travels on to the call.
 */
export function credentialFirst(engine: EngineAt) {
  const principals = new WeakMap<FastifyRequest, Authenticated>();
  return {
    check: (op: AnyOp) => async (req: FastifyRequest, reply: FastifyReply) => {
      const check = await engine().authenticate(op.id, { token: bearer(req), transport: 'http', client: req.ip });
      if ('refused' in check) return answer(reply, check.refused);
      principals.set(req, check);
    },
    /** The call's options for what the check found (a remembered principal comes with its confirmation). */
    found: (req: FastifyRequest) => {
      const found = principals.get(req);
      return { principal: found?.principal, unchanged: found?.unchanged };
    },
  };
}

export type CredentialFirst = ReturnType<typeof credentialFirst>;
