import { z } from 'zod';
import type { AnyOp } from '../ops/op.js';
import { PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, TEXT_OPERATORS } from '../core/list-query.js';

const toSchema = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });

const ENVELOPE = {
  type: 'object',
  properties: {
    data: {},
    isSuccess: { type: 'boolean' },
    error: { type: ['string', 'null'] },
    errorDetails: { type: ['array', 'null'], items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } } },
  },
};

function listParameters(op: AnyOp) {
  const spec = op.list!;
  const q = (name: string, schema: object, description?: string) => ({ name, in: 'query', required: false, schema, description });
  return [
    q('page', { type: 'integer', minimum: 1, maximum: PAGE_MAX, default: 1 }),
    q('page_size', { type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT }),
    q('get_all', { type: 'boolean', default: false }),
    q('sort_direction', { type: 'string', enum: ['asc', 'desc'], default: spec.defaultSort?.direction ?? 'asc' }),
    q('sort_by', { type: 'string', enum: Object.keys(spec.sort) }, 'Matched case-insensitively'),
    ...Object.keys(spec.text ?? {}).map((n) => q(n, { type: 'string' }, `Contains, case-insensitive; or ${n}[op]=x with op in ${TEXT_OPERATORS.join(', ')}`)),
    ...Object.keys(spec.exact ?? {}).map((n) => q(n, { type: 'string' }, 'Exact')),
    ...Object.keys(spec.bool ?? {}).map((n) => q(n, { type: 'boolean' })),
    ...Object.keys(spec.uuid ?? {}).map((n) => q(n, { type: 'string', format: 'uuid' })),
  ];
}

/** OpenAPI 3.1 from the catalogue: operationId is the catalogue id, request schemas come from zod. */
export function openApiDocument(ops: Iterable<AnyOp>, version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of ops) {
    const parameters: unknown[] = [];
    const params = op.input.params as z.ZodObject | undefined;
    for (const name of Object.keys(params?.shape ?? {})) parameters.push({ name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' } });
    if (op.list) parameters.push(...listParameters(op));
    else if (op.input.query) {
      const qs = toSchema(op.input.query) as { properties?: Record<string, object>; required?: string[] };
      for (const [name, schema] of Object.entries(qs.properties ?? {})) parameters.push({ name, in: 'query', required: qs.required?.includes(name) ?? false, schema });
    }
    const operation: Record<string, unknown> = {
      operationId: op.id,
      summary: op.summary,
      tags: [op.id.split('.').slice(0, 2).join('.')],
      parameters,
      'x-permission': op.permission,
      security: op.permission === 'public' ? [] : [{ bearer: [] }],
      responses: {
        200: { description: 'Success', content: { 'application/json': { schema: ENVELOPE } } },
        400: { description: 'Invalid input; errorDetails names each field' },
        401: { description: 'No valid credential' },
        403: { description: 'Missing permission' },
        404: { description: 'Not found' },
        409: { description: 'A rule forbids it' },
      },
    };
    if (op.input.body) operation.requestBody = { required: true, content: { 'application/json': { schema: toSchema(op.input.body) } } };
    const path = op.http.path;
    paths[path] ??= {};
    paths[path][op.http.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Broadsheet API', version, description: 'Set A under /api/v1, set B under /api/v2, desktop extensions under /api/app.' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key or a session token from /api/app/auth/login' } } },
    paths,
  };
}
