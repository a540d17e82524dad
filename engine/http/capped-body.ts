import type { IncomingHttpHeaders } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import { byteCap } from '../core/byte-cap.js';
import { errorCodes } from 'fastify';

/**
 * A request body refused with 413 as soon as it passes `limit` bytes: at once when its declared
 * length is larger, else while it arrives (chunked bodies included), before anything parses it.
 * For a route that serves many operations, each with a limit of its own (the route's own
 * `bodyLimit` is the largest of them).
 */
export function cappedBody(payload: Readable, limit: number, headers: IncomingHttpHeaders): Readable {
  const declaredLength = headers['content-length'];
  if (Number(declaredLength) > limit) throw new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE();
  // A request that declares no body (most GETs) has none to count: Node's parser reads no body
  // without a length or chunked encoding, so there is nothing to pipe through the cap.
  if (declaredLength === undefined && headers['transfer-encoding'] === undefined) return payload;
  // A declared length within the limit is the whole body: Node's parser reads exactly that many
  // bytes and no more, so only a chunked body (no length) needs counting as it arrives. Every
  // JSON call takes this way: a stream piped through a counter costs a tenth of a millisecond.
  if (declaredLength !== undefined) return payload;
  // A refused body stops the upload; a client that goes away ends the body with its error.
  return pipeline(
    payload,
    byteCap(limit, () => new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE()),
    () => undefined,
  );
}
