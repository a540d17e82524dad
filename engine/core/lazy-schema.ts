let builtSoFar = 0;
/**
 * How many lazy schemas this process has built: none as the modules load (a test holds it), or a
 * `.optional()` or `.extend()` on one at a module's top level builds it at every start.
 */
export const lazySchemasBuilt = () => builtSoFar;

/**
 * A schema built the first time anything reads it. Result schemas (what an operation's `data`
 * holds) are read by the API document, the conformance suite and the types, never by a running
 * server's calls; built as the bundle loaded, they were most of start-up's zod work. The proxy
 * hands every read to the schema once built, so callers (`.extend`, `z.array`, `toJSONSchema`)
 * see no difference, and the type is the schema's own.
 */
export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = () => {
    if (built) return built;
    builtSoFar++;
    return (built = build());
  };
  return new Proxy(Object.create(null) as T, {
    get: (_, key) => Reflect.get(schema(), key),
    has: (_, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may not call a property fixed that its own (empty) target lacks.
      return d && { ...d, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    set: (_, key, value) => Reflect.set(schema(), key, value),
    defineProperty: (_, key, d) => Reflect.defineProperty(schema(), key, d),
  });
}
