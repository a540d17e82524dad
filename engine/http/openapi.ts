import { z } from 'zod';
import type { AnyOp } from '../ops/op.js';
import { PAGE_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, TEXT_OPERATORS } from '../core/list-query.js';

const toSchema = (schema: z.ZodType) =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' });
/**
 * A result schema as JSON Schema. A recursive one (a tree) comes with `$defs` that its `#/$defs/…`
 * references name from its own root; embedded in an envelope those would dangle, so its
 * definitions move to the document's components under names of the operation's.
 */
const toResultSchema = (schema: z.ZodType, opId: string, components: Record<string, unknown>) => {
  const {
    $schema: _,
    $defs,
    ...rest
  } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  if (!$defs) return rest;
  const prefix = opId.replace(/\./g, '_');
  const rehome = (value: unknown) =>
    JSON.parse(
      JSON.stringify(value).replace(
        /"#\/\$defs\/([^"]+)"/g,
        (_m, name: string) => `"#/components/schemas/${prefix}_${name}"`,
      ),
    ) as Record<string, unknown>;
  for (const [name, def] of Object.entries($defs as Record<string, unknown>))
    components[`${prefix}_${name}`] = rehome(def);
  return rehome(rest);
};

/** The envelope of a success, with what `data` holds when the operation declares it (a list: its items and paging). */
function successEnvelope(op: AnyOp, components: Record<string, unknown>) {
  if (!op.result) return ENVELOPE;
  const item = toResultSchema(op.result, op.id, components);
  if (!op.list)
    return { ...ENVELOPE, properties: { ...ENVELOPE.properties, data: item }, required: ['data', 'isSuccess'] };
  const int = { type: 'integer', minimum: 0 };
  return {
    ...ENVELOPE,
    properties: {
      ...ENVELOPE.properties,
      data: { type: 'array', items: item },
      page: int,
      pageSize: int,
      totalItems: int,
      totalPages: int,
    },
    required: ['data', 'isSuccess'],
  };
}

const ENVELOPE = {
  type: 'object',
  properties: {
    data: {},
    isSuccess: { type: 'boolean' },
    error: { type: ['string', 'null'] },
    errorDetails: {
      type: ['array', 'null'],
      items: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
  },
};

function listParameters(op: AnyOp) {
  const spec = op.list!;
  const q = (name: string, schema: object, description?: string) => ({
    name,
    in: 'query',
    required: false,
    schema,
    description,
  });
  return [
    q('page', { type: 'integer', minimum: 1, maximum: PAGE_MAX, default: 1 }),
    q('page_size', { type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT }),
    q('get_all', { type: 'boolean', default: false }),
    q('sort_direction', { type: 'string', enum: ['asc', 'desc'], default: spec.defaultSort?.direction ?? 'asc' }),
    q('sort_by', { type: 'string', enum: Object.keys(spec.sort) }, 'Matched case-insensitively'),
    // The interface's own example of a text filter: `name[contains]=…`; the plain name means contains.
    ...Object.keys(spec.text ?? {}).map((n) => ({
      ...q(n, { type: 'string' }, `Contains, case-insensitive; or ${n}[op]=x with op in ${TEXT_OPERATORS.join(', ')}`),
      examples: { contains: { summary: `${n} contains the text (also written ${n}[contains]=…)`, value: 'sales' } },
    })),
    ...Object.keys(spec.exact ?? {}).map((n) => q(n, { type: 'string' }, 'Exact')),
    ...Object.keys(spec.bool ?? {}).map((n) => q(n, { type: 'boolean' })),
    ...Object.keys(spec.uuid ?? {}).map((n) => q(n, { type: 'string', format: 'uuid' })),
  ];
}

const AREA_NAMES: Record<string, string> = { v1: 'Set A', v2: 'Set B', app: 'Broadsheet' };
/** An operation's area, from its id: `v1.taskReports.list` → "taskReports". */
const areaOf = (op: AnyOp) => op.id.split('.')[1];

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Failure' } } },
});

/**
 * The statuses an operation can answer, from what it is: input it validates (400), a credential
 * (401, 403), an object it names in the path (404), a write a rule may refuse (409), a body it
 * limits (413), and the throttles every door has (429).
 */
function responses(op: AnyOp, success: unknown) {
  const out: Record<string, unknown> = { 200: success };
  const takesInput = !!(op.input.params || op.input.query || op.input.body || op.list);
  if (takesInput) out[400] = error('Invalid input; errorDetails names each field');
  if (op.permission !== 'public') {
    out[401] = error('No valid credential');
    out[403] = error('Missing permission');
  }
  if (op.input.params) out[404] = error('Not found, or not visible to the caller');
  if (op.http.method !== 'GET' && !op.readOnly) out[409] = error('A rule forbids it in the current state');
  if (op.input.body || op.upload) out[413] = error('The body is larger than the operation takes');
  out[429] = {
    ...error('Too many attempts; wait as Retry-After says'),
    headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
  };
  return out;
}

/** A file answer: each content type the operation declares, as bytes. */
const fileSuccess = (types: readonly string[]) => ({
  description: 'The file',
  headers: { 'Content-Disposition': { description: 'attachment; filename=…', schema: { type: 'string' } } },
  content: Object.fromEntries(types.map((t) => [t, { schema: { type: 'string', contentMediaType: t.split(';')[0] } }])),
});

/** OpenAPI 3.1 from the catalogue: operationId is the catalogue id, request schemas come from zod. */
export function openApiDocument(ops: Iterable<AnyOp>, version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const areas = new Set<string>();
  const schemas: Record<string, unknown> = {
    Failure: { ...ENVELOPE, properties: { ...ENVELOPE.properties, data: { type: 'null' } } },
  };
  for (const op of ops) {
    const parameters: unknown[] = [];
    const params = op.input.params as z.ZodObject | undefined;
    const paramSchemas = (params ? toSchema(params) : {}) as { properties?: Record<string, object> };
    for (const name of Object.keys(params?.shape ?? {}))
      parameters.push({
        name,
        in: 'path',
        required: true,
        schema: paramSchemas.properties?.[name] ?? { type: 'string' },
      });
    if (op.list) parameters.push(...listParameters(op));
    else if (op.input.query) {
      const qs = toSchema(op.input.query) as { properties?: Record<string, object>; required?: string[] };
      for (const [name, schema] of Object.entries(qs.properties ?? {}))
        parameters.push({ name, in: 'query', required: qs.required?.includes(name) ?? false, schema });
    }
    areas.add(areaOf(op));
    const operation: Record<string, unknown> = {
      operationId: op.id,
      summary: op.summary,
      description: `${AREA_NAMES[op.id.split('.')[0]] ?? ''} operation ${op.id}; permission: ${op.permission}.`,
      tags: [areaOf(op)],
      parameters,
      'x-permission': op.permission,
      security: op.permission === 'public' ? [] : [{ bearer: [] }],
      responses: responses(
        op,
        op.files
          ? fileSuccess(op.files)
          : { description: 'Success', content: { 'application/json': { schema: successEnvelope(op, schemas) } } },
      ),
    };
    if (op.input.body)
      operation.requestBody = { required: true, content: { 'application/json': { schema: toSchema(op.input.body) } } };
    // An upload's body is the file itself, streamed as it is sent.
    if (op.upload)
      operation.requestBody = {
        required: true,
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      };
    const path = op.http.path;
    paths[path] ??= {};
    paths[path][op.http.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Broadsheet API',
      version,
      description: 'Set A under /api/v1, set B under /api/v2, desktop extensions under /api/app.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Broadsheet' },
    },
    servers: [{ url: '/', description: 'The Broadsheet server answering this document' }],
    tags: [...areas]
      .sort()
      .map((name) => ({ name, description: `Operations on ${name.replace(/([A-Z])/g, ' $1').toLowerCase()}` })),
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key or a session token from /api/app/auth/login',
        },
      },
      schemas,
    },
    paths,
  };
}
