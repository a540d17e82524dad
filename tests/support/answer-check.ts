// Every JSON success any test receives over HTTP is checked against the API document's declared
// result schema (ajv, JSON Schema 2020-12): the document cannot say one thing while an answer,
// in any corner the suite reaches, says another.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { OPERATIONS } from '../../engine/catalogue.js';
import { openApiDocument } from '../../engine/http/openapi.js';
import type { AnyOp } from '../../engine/ops/op.js';

interface Route {
  method: string;
  pattern: RegExp;
  literals: number;
  id: string;
  validate: ValidateFunction;
}

let routes: Route[] | null = null;

function compile(): Route[] {
  const ops = OPERATIONS as readonly AnyOp[];
  const doc = openApiDocument(ops, 'test') as {
    components: object;
    paths: Record<
      string,
      Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
    >;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const out: Route[] = [];
  for (const op of ops) {
    if (!op.result) continue;
    const schema =
      doc.paths[op.http.path][op.http.method.toLowerCase()].responses['200'].content!['application/json'].schema;
    const segments = op.http.path.split('/');
    out.push({
      method: op.http.method,
      pattern: new RegExp(
        `^${segments.map((s) => (s.startsWith('{') ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`,
      ),
      literals: segments.filter((s) => !s.startsWith('{')).length,
      id: op.id,
      validate: ajv.compile({ ...schema, components: doc.components }),
    });
  }
  return out;
}

/** Throws, naming the operation and the first differences, when a success leaves its declared schema. */
export function checkAnswer(method: string, path: string, status: number, body: unknown) {
  if (status !== 200 || !body || typeof body !== 'object' || (body as { isSuccess?: unknown }).isSuccess !== true)
    return;
  routes ??= compile();
  const bare = path.split('?')[0];
  // Where two routes match (a literal segment against a parameter), the router takes the literal one.
  const route = routes
    .filter((r) => r.method === method && r.pattern.test(bare))
    .sort((a, b) => b.literals - a.literals)[0];
  if (!route || route.validate(body)) return;
  throw new Error(
    `${route.id} answered outside its declared result schema: ${JSON.stringify(route.validate.errors?.slice(0, 3))}`,
  );
}
