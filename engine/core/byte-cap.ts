import { Transform } from 'node:stream';

/**
 * A pass-through stream that counts the bytes it lets by and fails with `tooLarge()` once they pass
 * `limit`: a body refused while it arrives, never held to be measured. `received()` is the count.
 */
export function byteCap(limit: number, tooLarge: () => Error): Transform & { received(): number } {
  let received = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      received += chunk.length;
      if (received > limit) next(tooLarge());
      else next(null, chunk);
    },
  });
  return Object.assign(cap, { received: () => received });
}
