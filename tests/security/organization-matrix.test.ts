// Issue 55: walls by construction. A matrix generated from the catalogue, so a new operation joins it
// without anyone remembering: organization A's administrator (the built-in Administrator role, in A
// only) calls every operation that takes an object's id with organization B's object (the samples
// make theirs in the Default organization, here B), and is answered 404 (403 where the operation
// changes what every organization shares), with nothing of B changed; every list answers nothing of
// B. An operation that takes an id and does not say which kind of object it is fails the first test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes, randomUUID } from 'node:crypto';
import { Delivery } from '../../engine/model/deliveries.entity.js';
import { Outbox } from '../../engine/model/mail.entity.js';
import type { EngineEvent, EngineEvents, EngineEventType } from '../../engine/core/events.js';
import { newBase } from '../../engine/core/entity-base.js';
import type { EntitySchema, ObjectLiteral } from 'typeorm';
import { signedInAdministrator, startTestServer, type TestServer } from '../support/test-server.js';
import { fixtures, type Fixtures } from '../support/samples.js';
import { allSamples, pathOf } from '../support/all-samples.js';
import { OPERATIONS } from '../../engine/catalogue.js';
import type { AnyOp } from '../../engine/ops/op.js';
import { undeclaredIdInputs } from '../../engine/ops/object-inputs.js';
import { valuesAt } from '../../engine/access/object-wall.js';
import {
  isOrganizationKind,
  ORGANIZATION_KINDS,
  unboundedKinds,
  type ObjectKind,
} from '../../engine/access/object-kinds.js';
import { foreignIds } from '../../engine/core/organization-boundary.js';

let s: TestServer;
let f: Fixtures;
let orgA: string;
let orgB: string;
let adminA: string;

/** Tables that change on every call whoever makes it (sign-ins, the audit trail, sessions, keys' last use). */
const MOVING = new Set([
  'audit_entries',
  'sessions',
  'sign_in_outcomes',
  'sso_tickets',
  'migrations',
  'typeorm_metadata',
]);

const kindsOf = (k: ObjectKind | readonly ObjectKind[]) => (Array.isArray(k) ? k : [k]) as ObjectKind[];
/** The operations that take an id of an object that belongs to an organization. */
const WALLED = OPERATIONS.filter(
  (op) =>
    op.permission !== 'public' &&
    Object.values((op as AnyOp).objects ?? {}).some((k) => kindsOf(k).some(isOrganizationKind)),
) as AnyOp[];
const LISTS = OPERATIONS.filter(
  (op) => op.permission !== 'public' && op.http.method === 'GET' && !op.http.path.includes('{') && !op.files,
) as AnyOp[];

const samples = () => allSamples(() => s);

async function snapshot() {
  const tables = (
    await s.engine.services.db.query<{ name: string }[]>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
  ).filter((t) => !MOVING.has(t.name));
  const out: Record<string, unknown[]> = {};
  for (const t of tables) {
    const rows = await s.engine.services.db.query(`SELECT * FROM "${t.name}"`);
    // An API key's last use moves with every call it signs; the rest of the row does not.
    out[t.name] = rows.map((r: Record<string, unknown>) => JSON.stringify({ ...r, lastUsedDate: undefined })).sort();
  }
  return out;
}

/** Every object of B: the apps the samples make with no organization are put in B, like the rest. */
async function intoB() {
  await s.engine.services.db.query('UPDATE analytics_apps SET "organizationId" = ? WHERE "organizationId" IS NULL', [
    orgB,
  ]);
}

/** The ids of every object of an organization kind that lies outside A. */
async function idsOfB(): Promise<Set<string>> {
  const out = new Set<string>();
  const caller = { db: s.engine.services.db, principal: { organizationIds: [orgA] } };
  for (const { entity } of Object.values(ORGANIZATION_KINDS)) {
    const e = entity as EntitySchema<ObjectLiteral>;
    const all = (await s.engine.services.db.getRepository(e).find({ select: { id: true } })).map((r) => r.id as string);
    for (const id of await foreignIds(caller, e, all)) out.add(id);
  }
  return out;
}

/** The single organization kind of a declared path, where it names one. */
const singleKind = (k: ObjectKind | readonly ObjectKind[]) => {
  const kinds = kindsOf(k).filter(isOrganizationKind);
  return kinds.length ? kinds[0] : null;
};

/** Puts a value at a declared path (`body.items[].id`: a one-element list) of an input being built. */
function put(input: Record<string, unknown>, path: string, value: string) {
  const parts = path.split('.').flatMap((p) => (p.endsWith('[]') ? [p.slice(0, -2), '[]'].filter(Boolean) : [p]));
  let at: Record<string, unknown> | unknown[] = input;
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    const next = parts[i + 1];
    const make = () => (last ? value : next === '[]' ? [] : {});
    if (part === '[]') {
      const list = at as unknown[];
      if (last) list.push(value);
      else {
        if (!list.length) list.push(next === '[]' ? [] : {});
        at = list[0] as Record<string, unknown>;
      }
      return;
    }
    const obj = at as Record<string, unknown>;
    if (last || obj[part] === undefined || typeof obj[part] !== 'object') obj[part] = make();
    if (!last) at = obj[part] as Record<string, unknown>;
  });
}

/**
 * One object of B of every organization kind the catalogue declares, found by running the sample of
 * an operation that takes that kind and reading the id it was handed.
 */
async function objectsOfB(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const all = samples();
  for (const op of WALLED) {
    for (const [path, declared] of Object.entries(op.objects ?? {})) {
      const kind = kindsOf(declared).length === 1 ? singleKind(declared) : null;
      if (!kind || found.has(kind) || !all[op.id]) continue;
      const sample = await all[op.id](f);
      const [id] = valuesAt({ params: sample.params ?? {}, query: sample.query ?? {}, body: sample.body }, path);
      if (id) found.set(kind, id);
    }
  }
  // Kinds no sample hands over: made here, the way a person would (a mail as a run's outbox keeps it).
  if (!found.has('dataConnection'))
    found.set(
      'dataConnection',
      (
        await s.ok('POST', '/api/app/data-connections', {
          name: 'Their sales',
          kind: 'SQLite',
          // A file that is there (a connection's path is checked at Save); only the id is wanted.
          filePath: __filename,
        })
      ).id,
    );
  if (!found.has('mail')) {
    const server = await s.ok('POST', '/api/v1/mail-servers', {
      name: `Mail ${randomBytes(3).toString('hex')}`,
      fromName: 'Reports',
      fromAddress: 'reports@example.com',
      hostName: '127.0.0.1',
      smtpPort: 9,
      ssl: false,
    });
    const id = randomUUID();
    await s.engine.services.db.getRepository(Outbox).insert({
      ...newBase(new Date()),
      id,
      requestId: found.get('request')!,
      mailServerId: server.id,
      messageId: `<${id}@example.com>`,
      from: 'reports@example.com',
      to: ['them@example.com'],
      cc: [],
      bcc: [],
      subject: 'Their figures',
      text: 'Theirs',
      html: null,
      attachments: [],
      status: 'failed',
      attempts: 1,
      nextAttemptAt: new Date(),
      lastError: 'refused',
      accepted: [],
      rejected: [],
      uncertain: false,
      sentAt: null,
    });
    found.set('mail', id);
  }
  if (!found.has('delivery')) {
    // A run that is there (the request a sample handed over may since have been deleted by another sample).
    const [run] = (await s.engine.services.db.query(
      'SELECT id FROM requests WHERE id = ? UNION ALL SELECT id FROM requests',
      [found.get('request') ?? ''],
    )) as { id: string }[];
    const id = randomUUID();
    const now = new Date();
    await s.engine.services.db.getRepository(Delivery).insert({
      ...newBase(now),
      id,
      requestId: run.id,
      taskReportId: null,
      storageServiceId: found.get('storageService') ?? randomUUID(),
      destination: 'Their share',
      path: '',
      variable: null,
      files: [{ name: 'figures.pdf' }],
      status: 'failed',
      attempts: 1,
      nextAttemptAt: now,
      giveUpAt: now,
      lastError: 'the disk is full (ENOSPC)',
      deliveredAt: null,
    });
    found.set('delivery', id);
  }
  await intoB();
  return found;
}

beforeAll(async () => {
  s = await startTestServer();
  f = await fixtures(s);
  orgB = f.orgId;
  orgA = await f.make.org();
  adminA = (await signedInAdministrator(s, [orgA], 'org-a-admin')).token;
});
afterAll(() => s.stop());

describe('every operation says what kind of object each id it takes is', () => {
  it('declares a kind for every id-shaped input of the catalogue', () => {
    const missing = OPERATIONS.flatMap((op) => undeclaredIdInputs(op as AnyOp).map((p) => `${op.id} ${p}`));
    expect(missing).toEqual([]);
  });

  it('bounds every kind it calls an organization kind', () => {
    expect(unboundedKinds()).toEqual([]);
  });
});

describe(`organization A's administrator × B's objects, over ${WALLED.length} operations`, () => {
  let theirs: Map<string, string>;
  beforeAll(async () => {
    theirs = await objectsOfB();
  });

  it('has an object of B of every kind the catalogue declares', () => {
    const declared = new Set(WALLED.flatMap((op) => Object.values(op.objects ?? {}).flatMap((k) => kindsOf(k))));
    const wanted = [...declared].filter(isOrganizationKind).filter((k) => k !== 'organization');
    expect(wanted.filter((k) => !theirs.has(k))).toEqual([]);
  });

  it.each(WALLED.map((op) => op.id))('%s → refused, nothing of B changed', async (id) => {
    const op = WALLED.find((o) => o.id === id)!;
    const input: Record<string, unknown> = { params: {}, query: {} };
    for (const [path, declared] of Object.entries(op.objects ?? {})) {
      const kind = singleKind(declared);
      const value = kind === 'organization' ? orgB : kind ? theirs.get(kind) : null;
      // Ids of no organization (an item of an app, a tenant-wide folder) are filled so the route matches.
      put(input, path, value ?? '7b1e0a4e-1111-4222-8333-944455556666');
    }
    const before = await snapshot();
    const res = await s.call(op.http.method, pathOf(op, input.params as Record<string, string>), {
      body: input.body,
      query: input.query as Record<string, string>,
      token: adminA,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(op.tenantWide ? 403 : 404);
    if (!op.tenantWide) expect(res.body.error).toMatch(/ was not found$/);
    expect(await snapshot()).toEqual(before);
  });
});

/** An event about B's object of every type the engine emits: the type checker asks for each new one. */
const EVENTS_OF_B: { [K in EngineEventType]: (b: Map<string, string>, appId: string) => EngineEvents[K] } = {
  'analytics.import.progress': (b) => ({ appId: b.get('analyticsApp')!, percent: 50, rows: 10 }),
  'analytics.reload.changed': (b) => ({
    appId: b.get('analyticsApp')!,
    id: randomUUID(),
    status: 'running',
    trigger: 'manual',
  }),
  'analytics.reloaded': (_b, appId) => ({ appId }),
  // Not about an object of B, and not an organization's: a backup is the tenant administrators'.
  'backup.progress': () => ({ step: 'copying the database', number: 1, of: 7 }),
  'report.progress': (b) => ({ reportId: b.get('report')!, done: 1, total: 2 }),
  'request.changed': (b) => ({
    id: b.get('request')!,
    kind: 'ScheduledTask',
    taskId: b.get('task')!,
    status: 'running',
    progressDone: 1,
    progressTotal: 2,
  }),
  'mail.changed': (b) => ({ id: b.get('mail')!, requestId: b.get('request')!, status: 'sent' }),
  'delivery.changed': (b) => ({ id: b.get('delivery')!, requestId: b.get('request')!, status: 'waiting' }),
  'template.synced': (b) => ({ reportId: b.get('report')!, ok: true, message: 'Saved', problems: [] }),
};

describe(`organization A's administrator × every event type, over ${Object.keys(EVENTS_OF_B).length} types`, () => {
  it('hears nothing of B, and hears its own', async () => {
    const theirs = await objectsOfB();
    const [{ appId }] = await s.engine.services.db.query('SELECT "appId" FROM analytics_apps WHERE id = ?', [
      theirs.get('analyticsApp'),
    ]);
    const heard: EngineEvent[] = [];
    const stop = s.engine.watch(
      () => ({ token: adminA, transport: 'http' }),
      (e) => heard.push(e),
    );
    try {
      const project = await s.call('POST', '/api/app/projects', {
        token: adminA,
        body: { name: `Ours ${randomBytes(2).toString('hex')}` },
      });
      const ours = await s.call('POST', '/api/v2/reports', {
        token: adminA,
        body: { name: 'Ours', projectID: project.body.data.id, type: 'Html' },
      });
      for (const [type, payload] of Object.entries(EVENTS_OF_B))
        s.engine.services.emit({ type, payload: payload(theirs, appId) } as EngineEvent);
      // Events reach a subscriber in order: once A's own has arrived, every one of B's was decided.
      s.engine.services.emit({ type: 'report.progress', payload: { reportId: ours.body.data.id, done: 1, total: 1 } });
      await expect.poll(() => heard.length).toBeGreaterThan(0);
      expect(heard).toEqual([{ type: 'report.progress', payload: { reportId: ours.body.data.id, done: 1, total: 1 } }]);
    } finally {
      stop();
    }
  });
});

describe(`organization A's administrator × every list, over ${LISTS.length} lists`, () => {
  let outside: Set<string>;
  beforeAll(async () => {
    // Something of each kind in B first, so a list that leaks has something to leak.
    for (const make of [
      f.make.project,
      f.make.report,
      f.make.filter,
      f.make.group,
      f.make.user,
      f.make.resource,
      f.make.app,
    ])
      await make();
    await intoB();
    outside = await idsOfB();
  });

  it.each(LISTS.map((op) => op.id))('%s → nothing of B', async (id) => {
    const op = LISTS.find((o) => o.id === id)!;
    const sample = (await samples()[id]?.(f)) ?? {};
    const res = await s.call('GET', pathOf(op, sample.params), {
      token: adminA,
      query: { ...(op.list ? { get_all: true } : {}), ...(sample.query ?? {}) },
    });
    const text = JSON.stringify(res.body);
    const leaked = [...outside]
      .filter((x) => text.includes(x))
      .map((x) => `${x} in ${text.slice(Math.max(0, text.indexOf(x) - 300), text.indexOf(x) + 60)}`);
    expect(leaked, `${id} answered ${res.status}`).toEqual([]);
  });
});
