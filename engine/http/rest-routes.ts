import type { AnyOp } from '../ops/op.js';

/**
 * The catalogue's REST paths, matched by the server's one REST route. Fastify builds a route (its
 * router node, hooks, body parser settings) for each path it is given, about 0.07 ms each: 272
 * paths were a sixth of a start. Matched here, a start builds a small table instead. As Fastify's
 * router did: a literal segment wins over a parameter in the same place, case and trailing slashes
 * count, and parameters are decoded.
 */
export interface RestMatch {
  op: AnyOp;
  params: Record<string, string>;
}

interface Route {
  op: AnyOp;
  /** A literal segment, or the name of the parameter taking that place. */
  segments: ({ literal: string } | { param: string })[];
}

/**
 * Literal before parameter, from the first segment on: the order in which routes are tried.
 * Compared as plain code units (`localeCompare` would load ICU's collator, 10 ms of a start).
 */
const specificity = (r: Route) => r.segments.map((s) => ('literal' in s ? '0' : '1')).join('');
const bySpecificity = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

export class RestRoutes {
  private readonly byShape = new Map<string, Route[]>();

  constructor(ops: Iterable<AnyOp>) {
    for (const op of ops) {
      const segments = op.http.path
        .split('/')
        .map((s) => (/^\{(\w+)\}$/.exec(s) ? { param: s.slice(1, -1) } : { literal: s }));
      const shape = `${op.http.method} ${segments.length}`;
      const routes = this.byShape.get(shape) ?? [];
      routes.push({ op, segments });
      this.byShape.set(shape, routes);
    }
    for (const [shape, routes] of this.byShape)
      this.byShape.set(
        shape,
        routes
          .map((route) => ({ route, key: specificity(route) }))
          .sort(bySpecificity)
          .map(({ route }) => route),
      );
  }

  /** The operation a request names (its path without the query), or null; 'malformed' for a parameter that does not decode. */
  match(method: string, path: string): RestMatch | null | 'malformed' {
    const parts = path.split('/');
    for (const route of this.byShape.get(`${method} ${parts.length}`) ?? []) {
      const params = paramsOf(route, parts);
      if (params) return params === 'malformed' ? params : { op: route.op, params };
    }
    return null;
  }
}

/** The route's parameters in a request's path segments, or null when the path is not the route's. */
function paramsOf(route: Route, parts: string[]): Record<string, string> | null | 'malformed' {
  const params: Record<string, string> = {};
  for (const [i, s] of route.segments.entries()) {
    if ('literal' in s) {
      if (s.literal !== parts[i]) return null;
    } else if (parts[i] === '') return null;
    else {
      try {
        params[s.param] = decodeURIComponent(parts[i]);
      } catch {
        return 'malformed';
      }
    }
  }
  return params;
}
