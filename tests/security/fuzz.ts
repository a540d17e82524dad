// The generated fuzz of finding 7: every operation of the catalogue gets empty lists, wrong types,
// deep nesting, oversized strings, NUL bytes and chunked bodies, through one door (REST or the
// renderer's). No answer may be a 5xx, and no 4xx may leave a trace in the database.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { OPERATIONS } from '../../engine/catalogue.js';
import type { AnyOp } from '../../engine/ops/op.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MISSING_ID, startTestServer, type TestServer } from '../support/test-server.js';

export type Door = 'rest' | 'bridge';

function deepNest(levels: number): unknown {
  let v: unknown = { leaf: 'x' };
  for (let i = 0; i < levels; i++) v = { inner: v };
  return v;
}

/** The top-level property names of an operation's body schema, when it is an object. */
function bodyProperties(op: AnyOp): string[] {
  const schema = op.input.body as z.ZodType | undefined;
  if (!schema) return [];
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, unknown>;
  };
  return Object.keys(json.properties ?? {});
}

const fill = (names: string[], value: unknown) =>
  Object.fromEntries((names.length ? names : ['name', 'id']).map((n) => [n, value]));

/** Bodies no operation should accept; each labelled for the failure message. */
export function hostileBodies(op: AnyOp): [string, unknown][] {
  const props = bodyProperties(op);
  return [
    ['an empty list', []],
    ['an empty object', {}],
    ['a number', 12345],
    ['a bare string', 'text'],
    ['3,000 levels of nesting', deepNest(3000)],
    ['a 1,000,000-character string', 's'.repeat(1_000_000)],
    ['NUL bytes in every field', fill(props, 'a\u0000b')],
    ['objects where values go', fill(props, { nested: true })],
    ['lists where values go', fill(props, [1, 'two', null])],
    ['100,000 characters in every field', fill(props.slice(0, 8), 'y'.repeat(100_000))],
    ['a list of 50,000 empty objects', Array.from({ length: 50_000 }, () => ({}))],
  ];
}

export const hostileQueries: [string, Record<string, string>][] = [
  [
    'nonsense paging and sorting',
    { page: '-1', page_size: '1000000000', sort_by: 'drop table', sort_direction: 'sideways', get_all: 'maybe' },
  ],
  [
    'NUL bytes and operators that do not exist',
    { name: 'a\u0000b', 'name[regex]': '.*', 'email[contains]': 'x'.repeat(5000) },
  ],
];

function pathOf(op: AnyOp) {
  return op.http.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    name.toLowerCase().endsWith('id') ? MISSING_ID : 'x',
  );
}

const params = (op: AnyOp) =>
  Object.fromEntries(
    [...op.http.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => [
      name,
      name.toLowerCase().endsWith('id') ? MISSING_ID : 'x',
    ]),
  );

/** A digest of every row of every table: what "no change" means. */
export async function databaseDigest(s: TestServer): Promise<string> {
  const hash = createHash('sha256');
  const tables = (await s.engine.services.db.query(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  )) as { name: string }[];
  for (const { name } of tables)
    hash
      .update(name)
      .update(JSON.stringify(await s.engine.services.db.query(`SELECT * FROM "${name}" ORDER BY rowid`)));
  return hash.digest('hex');
}

export interface Probe {
  label: string;
  send: () => Promise<number>;
}

async function sendJson(
  s: TestServer,
  method: string,
  path: string,
  body: unknown,
  query?: Record<string, string>,
  chunked = false,
): Promise<number> {
  const qs = query ? '?' + new URLSearchParams(query).toString() : '';
  const headers: Record<string, string> = { authorization: `Bearer ${s.ownerKey}` };
  let payload: string | ReadableStream<Uint8Array> | undefined;
  if (body !== undefined && method !== 'GET') {
    headers['content-type'] = 'application/json';
    const text = JSON.stringify(body);
    payload = chunked
      ? new ReadableStream({
          start(c) {
            for (let i = 0; i < text.length; i += 4096) c.enqueue(new TextEncoder().encode(text.slice(i, i + 4096)));
            c.close();
          },
        })
      : text;
  }
  const res = await fetch(s.url + path + qs, {
    method,
    headers,
    body: payload,
    ...(chunked ? { duplex: 'half' } : {}),
  } as RequestInit);
  await res.arrayBuffer();
  return res.status;
}

/** Every probe of every operation through one door. */
export function probes(s: TestServer, door: Door): Probe[] {
  const list: Probe[] = [];
  for (const op of OPERATIONS as readonly AnyOp[]) {
    const bodies = op.http.method === 'GET' ? [] : hostileBodies(op);
    const queries = op.list || op.input.query ? hostileQueries : [];
    for (const [what, body] of bodies) {
      for (const chunked of what === 'an empty object' ? [false, true] : [false]) {
        const label = `${op.id} with ${what}${chunked ? ', chunked' : ''}`;
        list.push({
          label,
          send: () =>
            door === 'rest'
              ? sendJson(s, op.http.method, pathOf(op), body, undefined, chunked)
              : sendJson(s, 'POST', `/api/app/invoke/${op.id}`, { params: params(op), body }, undefined, chunked),
        });
      }
    }
    for (const [what, query] of queries) {
      list.push({
        label: `${op.id} with ${what}`,
        send: () =>
          door === 'rest'
            ? sendJson(s, op.http.method, pathOf(op), op.http.method === 'GET' ? undefined : {}, query)
            : sendJson(s, 'POST', `/api/app/invoke/${op.id}`, {
                params: params(op),
                query,
                body: op.http.method === 'GET' ? undefined : {},
              }),
      });
    }
    // Path parameters that are not ids at all, and ids with a NUL.
    list.push({
      label: `${op.id} with hostile path parameters`,
      send: () =>
        door === 'rest'
          ? sendJson(
              s,
              op.http.method,
              op.http.path.replace(/\{(\w+)\}/g, '..%2F..%2Fetc%00'),
              op.http.method === 'GET' ? undefined : {},
            )
          : sendJson(s, 'POST', `/api/app/invoke/${op.id}`, {
              params: Object.fromEntries(Object.keys(params(op)).map((k) => [k, '../\u0000'])),
              body: {},
            }),
    });
  }
  return list;
}

/**
 * What moves whenever the database may have changed: the rows the engine's connection changed
 * (`total_changes()`, counted even for a transaction later rolled back) and SQLite's count of other
 * connections' commits (`data_version`). While both stand still nothing was written, so the digest
 * of every row (the real comparison, a query per table) is read again only when one moved.
 */
async function writeCounters(s: TestServer): Promise<string> {
  const db = s.engine.services.db;
  const [changes] = (await db.query('SELECT total_changes() AS n')) as { n: number }[];
  const [version] = (await db.query('PRAGMA data_version')) as { data_version: number }[];
  return `${changes.n}/${version.data_version}`;
}

/** Runs every probe; answers the findings (a 5xx, or a change after a 4xx). */
export async function fuzz(s: TestServer, door: Door): Promise<string[]> {
  const findings: string[] = [];
  let digest = await databaseDigest(s);
  let counters = await writeCounters(s);
  for (const probe of probes(s, door)) {
    const status = await probe.send();
    const now = await writeCounters(s);
    const after = now === counters ? digest : await databaseDigest(s);
    counters = now;
    if (status >= 500) findings.push(`${probe.label}: answered ${status}`);
    else if (status >= 400 && after !== digest)
      findings.push(`${probe.label}: answered ${status} but changed the database`);
    digest = after;
  }
  return findings;
}

/** The suite for one door; each door has its own test file so the two run side by side. */
export function fuzzSuite(door: Door) {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(() => s.stop());
  describe(`fuzz through the ${door} door`, () => {
    it('probes every operation of the catalogue', () => {
      expect(probes(s, door).length).toBeGreaterThan(1000);
    });
    it('answers no hostile input with a 5xx, and no 4xx changes the database', async () => {
      expect(await fuzz(s, door)).toEqual([]);
    }, 600_000);
  });
}
