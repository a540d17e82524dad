// The REST route's own table (http/rest-routes.ts) answers every path of the catalogue as Fastify's
// router did; the conformance suite calls each operation over HTTP, this checks the table's rules.
import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../engine/catalogue.js';
import { RestRoutes } from '../../engine/http/rest-routes.js';

const rest = new RestRoutes(OPERATIONS);
const ID = '7b1e0a4e-1111-4222-8333-944455556666';
const withIds = (path: string) => path.replace(/\{\w+\}/g, ID);

describe('the REST route table', () => {
  it('finds every operation of the catalogue by its own method and path, with its parameters', () => {
    for (const op of OPERATIONS) {
      const found = rest.match(op.http.method, withIds(op.http.path));
      expect(found && found !== 'malformed' && found.op.id, `${op.http.method} ${op.http.path}`).toBe(op.id);
      if (found && found !== 'malformed')
        for (const name of op.http.path.match(/\{(\w+)\}/g) ?? []) expect(found.params[name.slice(1, -1)]).toBe(ID);
    }
  });

  it('prefers a literal segment to a parameter in the same place', () => {
    const pairs = OPERATIONS.flatMap((literal) =>
      OPERATIONS.filter(
        (param) =>
          param !== literal &&
          param.http.method === literal.http.method &&
          !literal.http.path.includes('{') &&
          new RegExp(`^${param.http.path.replace(/\{\w+\}/g, '[^/]+')}$`).test(literal.http.path),
      ).map((param) => [literal, param] as const),
    );
    expect(pairs.length).toBeGreaterThan(0);
    for (const [literal] of pairs) {
      const found = rest.match(literal.http.method, literal.http.path);
      expect(found !== 'malformed' && found?.op.id).toBe(literal.id);
    }
  });

  it('matches nothing for another method, a trailing slash, another case or an empty parameter', () => {
    const users = OPERATIONS.find((op) => op.id === 'v1.users.list')!;
    expect(rest.match('PATCH', users.http.path)).toBeNull();
    expect(rest.match('GET', `${users.http.path}/`)).toBeNull();
    expect(rest.match('GET', users.http.path.toUpperCase())).toBeNull();
    const update = OPERATIONS.find((op) => op.id === 'v1.users.update')!;
    expect(rest.match('PUT', update.http.path.replace('{id}', ''))).toBeNull();
  });

  it('decodes parameters, and tells a parameter that is not valid URL encoding', () => {
    const update = OPERATIONS.find((op) => op.id === 'v1.users.update')!;
    const found = rest.match('PUT', update.http.path.replace('{id}', 'a%20b'));
    expect(found !== 'malformed' && found?.params.id).toBe('a b');
    expect(rest.match('PUT', update.http.path.replace('{id}', '%E0%A4%A'))).toBe('malformed');
  });
});
