// Every interface operation of issues 2, 3 and 8 (tasks), exercised over HTTP from the catalogue's own schemas: the happy path,
// 401 and 403, each required and non-empty field, wrong types, malformed uuids and dates, and for
// lists the common parameters (page, page_size, get_all, every sort name, an unlisted one, every filter operator).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestServer, signedInUserWith, type TestServer } from '../support/test-server.js';
import { fixtures, type Fixtures, type Sample } from '../support/samples.js';
import { allSamples, pathOf } from '../support/all-samples.js';
import { OPERATIONS } from '../../engine/catalogue.js';
import type { AnyOp } from '../../engine/ops/op.js';
import { TEXT_OPERATORS } from '../../engine/core/list-query.js';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { roleRefusal } from '../../engine/access/in-words.js';

const catalogue = new Map<string, AnyOp>(OPERATIONS.map((o) => [o.id, o as AnyOp]));
type JsonSchema = {
  type?: string | string[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  minLength?: number;
  pattern?: string;
  format?: string;
  items?: JsonSchema;
};

let s: TestServer;
let f: Fixtures;
/** Issue 2's administration operations and issue 3's interface operations, each with a valid call. */
const ALL_SAMPLES = allSamples(() => s);
let limitedToken: string;
/** The served document's success schema of each operation that declares what `data` holds, compiled with ajv (JSON Schema 2020-12). */
const declared = new Map<string, ValidateFunction>();
let validated = 0;

beforeAll(async () => {
  s = await startTestServer();
  f = await fixtures(s);
  limitedToken = (await signedInUserWith(s, {}, 'nobody')).token;
  const doc = (await (await fetch(`${s.url}/api/openapi.json`)).json()) as {
    components: object;
    paths: Record<
      string,
      Record<
        string,
        {
          operationId: string;
          responses: Record<string, { content?: Record<string, { schema: { properties?: { data?: object } } }> }>;
        }
      >
    >;
  };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  for (const methods of Object.values(doc.paths))
    for (const op of Object.values(methods)) {
      const schema = op.responses['200']?.content?.['application/json']?.schema;
      // The document's components travel along: a tree's definitions are referenced from there.
      if (schema?.properties?.data && Object.keys(schema.properties.data).length)
        declared.set(op.operationId, ajv.compile({ ...schema, components: doc.components }));
    }
});
afterAll(async () => {
  // The figure CI prints: how many answers were checked against the document.
  console.log(
    `${validated} answers of ${declared.size} operations with declared results validated against the API document`,
  );
  await s.stop();
});

async function run(op: AnyOp, sample: Sample, token?: string | null) {
  return s.call(op.http.method, pathOf(op, sample.params), { body: sample.body, query: sample.query, token });
}

const baseType = (p: JsonSchema): string | undefined => {
  if (typeof p.type === 'string') return p.type;
  if (Array.isArray(p.type)) return p.type.find((t) => t !== 'null');
  return p.anyOf?.map(baseType).find((t) => t && t !== 'null');
};
const flat = (p: JsonSchema): JsonSchema => p.anyOf?.find((x) => baseType(x) && baseType(x) !== 'null') ?? p;
const WRONG: Record<string, unknown> = {
  string: 12345,
  boolean: 'yes',
  integer: '12x',
  number: 'many',
  array: 'not-an-array',
  object: 42,
};

function expectFieldError(res: Awaited<ReturnType<typeof run>>, field: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.isSuccess).toBe(false);
  expect(res.body.errorDetails?.map((d) => d.field)).toContain(field);
}

describe.each(Object.keys(ALL_SAMPLES))('%s', (id) => {
  const op = catalogue.get(id)!;
  const sample = () => ALL_SAMPLES[id](f);

  it('is in the catalogue', () => expect(op, `${id} missing from the catalogue`).toBeDefined());

  it('answers 200 with data on a valid call', async () => {
    const res = await run(op, await sample());
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.isSuccess).toBe(true);
    expect(res.body.data).not.toBeNull();
    const validate = declared.get(id);
    if (validate) {
      expect(validate(res.body), `${id}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
      validated++;
    }
  });

  it('answers 401 without a credential', async () => {
    const res = await run(op, await sample(), null);
    expect(res.status).toBe(401);
    expect(res.body.isSuccess).toBe(false);
  });

  if (op.permission !== 'authenticated' && op.permission !== 'public') {
    it(`answers 403 to a user without ${op.permission}`, async () => {
      const res = await run(op, await sample(), limitedToken);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      // The refusal says what is not allowed in words, never the flag's name.
      expect(res.body.error).toBe(
        op.permission === 'tenantAdmin' ? 'Only a tenant administrator may do this' : roleRefusal(op.permission),
      );
      expect(res.body.error).not.toMatch(/\b[a-z]+[A-Z]\w*\b/);
    });
  }

  const params = op.input.params as z.ZodObject | undefined;
  for (const key of Object.keys(params?.shape ?? {})) {
    it(`answers 400 for a malformed uuid in path ${key}`, async () => {
      const smp = await sample();
      expectFieldError(await run(op, { ...smp, params: { ...smp.params, [key]: 'not-a-uuid' } }), `params.${key}`);
    });
  }

  if (op.input.body) {
    const schema = z.toJSONSchema(op.input.body, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    if (schema.type === 'array') {
      it('answers 400 when the body is not an array', async () => {
        expectFieldError(await run(op, { ...(await sample()), body: { id: 'x' } }), 'body');
      });
      it('answers 400 for a malformed uuid in the body array', async () => {
        expectFieldError(await run(op, { ...(await sample()), body: ['not-a-uuid'] }), 'body.0');
      });
    }
    for (const key of schema.required ?? []) {
      it(`answers 400 naming body.${key} when it is missing`, async () => {
        const smp = await sample();
        const body = { ...(smp.body as object) } as Record<string, unknown>;
        delete body[key];
        const res = await run(op, { ...smp, body });
        expectFieldError(res, `body.${key}`);
        expect(res.body.errorDetails!.find((d) => d.field === `body.${key}`)!.message).toMatch(/required/);
      });
    }
    for (const [key, raw] of Object.entries(schema.properties ?? {})) {
      const prop = flat(raw);
      const type = baseType(prop);
      if (type && WRONG[type] !== undefined) {
        it(`answers 400 naming body.${key} for a ${typeof WRONG[type]} where a ${type} belongs`, async () => {
          const smp = await sample();
          expectFieldError(
            await run(op, { ...smp, body: { ...(smp.body as object), [key]: WRONG[type] } }),
            `body.${key}`,
          );
        });
      }
      if (prop.minLength === 1) {
        it(`answers 400 naming body.${key} when it is empty or blank`, async () => {
          const smp = await sample();
          for (const blank of ['', '   '])
            expectFieldError(await run(op, { ...smp, body: { ...(smp.body as object), [key]: blank } }), `body.${key}`);
        });
      }
      if (prop.pattern?.includes('[0-9a-fA-F]{8}')) {
        it(`answers 400 naming body.${key} for a malformed uuid`, async () => {
          const smp = await sample();
          expectFieldError(
            await run(op, { ...smp, body: { ...(smp.body as object), [key]: '1234-not-a-uuid' } }),
            `body.${key}`,
          );
        });
      }
      if (prop.format === 'date-time') {
        it(`answers 400 naming body.${key} for a malformed date`, async () => {
          const smp = await sample();
          for (const bad of ['31/12/2030', '2030-13-45T99:00:00Z', 'tomorrow'])
            expectFieldError(await run(op, { ...smp, body: { ...(smp.body as object), [key]: bad } }), `body.${key}`);
        });
      }
      if (type === 'array' && prop.items && flat(prop.items).properties?.id) {
        it(`answers 400 for a malformed uuid inside body.${key}`, async () => {
          const smp = await sample();
          const res = await run(op, { ...smp, body: { ...(smp.body as object), [key]: [{ id: 'nope' }] } });
          expectFieldError(res, `body.${key}.0.id`);
        });
      }
    }
  }

  if (op.list) {
    const spec = op.list;
    const list = async (query: Record<string, string>) => run(op, { ...(await sample()), query });

    it.each([
      ['page', '0'],
      ['page', '-1'],
      ['page', 'abc'],
      ['page', '2147483648'],
      ['page_size', '0'],
      ['page_size', '101'],
      ['page_size', '1.5'],
      ['get_all', 'maybe'],
      ['sort_direction', 'up'],
    ])('answers 400 naming query.%s=%s', async (name, value) => {
      expectFieldError(await list({ [name]: value }), `query.${name}`);
    });

    it('accepts page_size 100 and 50 and the 1-based last page', async () => {
      for (const size of ['100', '50', '1']) {
        const res = await list({ page_size: size, page: '1' });
        expect(res.status).toBe(200);
        expect(res.body.pageSize).toBe(Number(size));
        expect(res.body.data.length).toBeLessThanOrEqual(Number(size));
      }
      const beyond = await list({ page: '999999' });
      expect(beyond.status).toBe(200);
      expect(beyond.body.data).toEqual([]);
    });

    it('returns everything with get_all, ignoring page and page_size', async () => {
      const res = await list({ get_all: 'true', page: '3', page_size: '1' });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBe(res.body.totalItems);
      const paged = await list({ page_size: '1' });
      expect(paged.body.totalItems).toBe(res.body.totalItems);
      expect(paged.body.totalPages).toBe(res.body.totalItems);
    });

    it.each(Object.keys(spec.sort))('sorts by %s in both directions, matched case-insensitively', async (name) => {
      const asc = await list({ sort_by: name.toUpperCase(), sort_direction: 'asc', get_all: 'true' });
      const desc = await list({ sort_by: name.toLowerCase(), sort_direction: 'DESC', get_all: 'true' });
      expect(asc.status, JSON.stringify(asc.body)).toBe(200);
      expect(desc.status).toBe(200);
      expect(desc.body.data.map((r: { id: string }) => r.id)).toEqual(
        asc.body.data.map((r: { id: string }) => r.id).reverse(),
      );
    });

    it('answers 400 for an unlisted sort name, naming the allowed ones', async () => {
      const res = await list({ sort_by: 'passwordHash' });
      expectFieldError(res, 'query.sort_by');
      for (const name of Object.keys(spec.sort)) expect(res.body.error).toContain(name);
    });

    for (const param of Object.keys(spec.text ?? {})) {
      it.each(TEXT_OPERATORS)(`filters ${param} with [%s]`, async (opName) => {
        const res = await list({ [`${param}[${opName}]`]: 'zz-no-such-text-zz' });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data).toEqual([]);
      });
      it(`answers 400 for an unknown operator on ${param}`, async () => {
        expectFieldError(await list({ [`${param}[regex]`]: 'x' }), `query.${param}[regex]`);
      });
      it(`treats % and _ in ${param} as text, not wildcards`, async () => {
        for (const wildcard of ['%', '_']) {
          const res = await list({ [param]: wildcard });
          expect(res.status).toBe(200);
          expect(res.body.totalItems).toBe(0);
        }
      });
    }
    for (const param of Object.keys(spec.bool ?? {})) {
      it(`filters by ${param} true and false, and refuses other values`, async () => {
        const t = await list({ [param]: 'true', get_all: 'true' });
        const fl = await list({ [param]: 'false', get_all: 'true' });
        const all = await list({ get_all: 'true' });
        expect(t.status).toBe(200);
        expect(t.body.totalItems! + fl.body.totalItems!).toBe(all.body.totalItems);
        expectFieldError(await list({ [param]: 'perhaps' }), `query.${param}`);
      });
    }
    for (const param of Object.keys(spec.uuid ?? {})) {
      it(`refuses a malformed uuid in ${param}`, async () => {
        expectFieldError(await list({ [param]: 'zzz' }), `query.${param}`);
      });
    }
  }
});
