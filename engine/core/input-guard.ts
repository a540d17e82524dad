import { EngineError, badInput } from './errors.js';

/** Deeper input than this is refused before any schema sees it (recursive validators would overflow). */
export const MAX_INPUT_DEPTH = 32;

/**
 * Walks a call's input once, without recursion, before validation: refuses nesting deeper than
 * MAX_INPUT_DEPTH, NUL characters in any string or key (they end C strings in file names, SQLite
 * text and mail headers), and more content than the operation's body limit. The last check is what
 * keeps the limit on transports that have no body to measure (IPC, internal calls).
 */
export function guardInput(input: Record<string, unknown>, limitBytes: number): void {
  const stack: { value: unknown; path: string; depth: number }[] = Object.entries(input).map(([k, value]) => ({
    value,
    path: k,
    depth: 0,
  }));
  let size = 0;
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      size += value.length;
      if (value.includes('\u0000'))
        throw badInput(`${path} must not contain NUL characters`, [
          { field: path, message: 'must not contain NUL characters' },
        ]);
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_INPUT_DEPTH)
        throw badInput(`${path} is nested too deeply (more than ${MAX_INPUT_DEPTH} levels)`, [
          { field: path, message: `is nested more than ${MAX_INPUT_DEPTH} levels deep` },
        ]);
      const entries = Array.isArray(value) ? value.map((x, i) => [String(i), x] as const) : Object.entries(value);
      size += entries.length * 2;
      for (const [k, x] of entries) {
        if (k.includes('\u0000'))
          throw badInput(`${path} has a key with a NUL character`, [
            { field: path, message: 'keys must not contain NUL characters' },
          ]);
        size += k.length;
        stack.push({ value: x, path: `${path}.${k}`, depth: depth + 1 });
      }
    } else {
      size += 8;
    }
    if (size > limitBytes)
      throw new EngineError(
        413,
        `The request is too large (the limit for this operation is ${Math.round(limitBytes / 1024)} KiB)`,
      );
  }
}
