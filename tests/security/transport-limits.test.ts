// Finding 3 (medium): limits must hold on every transport, before parsing; text fields have
// maximum lengths in their schemas. Finding 6 (low): one e-mail rule, accepting what the product
// creates. Finding 7 (low): no input produces a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { z } from 'zod';
import { OPERATIONS } from '../../engine/catalogue.js';
import { defaults, MISSING_ID, startTestServer, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';

let s: TestServer;

/**
 * Sends a JSON body of about `totalBytes` with chunked transfer encoding (no Content-Length), a
 * mebibyte at a time, and stops as soon as the server answers; tells how much had been sent then.
 */
function chunkedPost(
  path: string,
  token: string | null,
  totalBytes: number,
  wrap: (filler: string) => [string, string],
) {
  return new Promise<{ status: number; body: any; sentBytes: number }>((resolve, reject) => {
    const url = new URL(s.url + path);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'transfer-encoding': 'chunked' };
    if (token) headers.authorization = `Bearer ${token}`;
    const req = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers });
    let sent = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      const at = sent;
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null, sentBytes: at }));
      req.destroy();
    });
    req.on('error', (e) => (answered ? undefined : reject(e)));
    const [head, tail] = wrap('');
    const piece = 'x'.repeat(1 << 20);
    (async () => {
      req.write(head);
      while (!answered && sent < totalBytes) {
        const ok = req.write(piece);
        sent += piece.length;
        if (!ok) await new Promise((r) => req.once('drain', r));
        // Let the server's answer, if any, arrive before the next mebibyte.
        await new Promise((r) => setImmediate(r));
      }
      if (!answered) req.end(tail);
    })().catch(() => undefined);
  });
}

const groupNames = async () =>
  (await s.ok('GET', '/api/v1/groups', undefined, { get_all: true })).map((g: { name: string }) => g.name);

beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.stop());

describe(covers('body limits on every door', 'v1.analyticsApps.create', 'v2.groups.create'), () => {
  it("the renderer's door refuses a chunked 20 MiB group name with 413 and stores nothing", async () => {
    const before = await groupNames();
    const { orgId } = await defaults(s);
    const res = await chunkedPost('/api/app/invoke/v2.groups.create', s.ownerKey, 20 << 20, () => [
      `{"body":{"organizationID":"${orgId}","name":"`,
      '"}}',
    ]);
    expect(res.status).toBe(413);
    expect(res.sentBytes).toBeLessThan(20 << 20);
    expect(await groupNames()).toEqual(before);
  });

  it('refuses an unauthenticated chunked upload with 401 before reading it, on both doors', async () => {
    const { orgId: _ } = await defaults(s);
    const app = (
      await s.ok('POST', '/api/v1/analytics-apps', {
        appId: 'limits',
        name: 'Limits',
        folderId: '00000000-0000-0000-0000-000000000000',
        folderPath: '/',
        allowAnalyticsSenseApp: false,
        allowMashup: false,
        defaultOpen: 'x',
      })
    ).id;
    const rss = process.memoryUsage().rss;
    const bridge = await chunkedPost('/api/app/invoke/app.analytics.import', null, 90 << 20, () => [
      `{"params":{"id":"${app}"},"body":{"fileName":"a.csv","content":"`,
      '"}}',
    ]);
    expect(bridge.status).toBe(401);
    expect(bridge.sentBytes).toBeLessThan(16 << 20);
    const rest = await chunkedPost(`/api/app/analytics/${app}/import`, 'bsk_not-a-key', 90 << 20, () => [
      '{"fileName":"a.csv","content":"',
      '"}',
    ]);
    expect(rest.status).toBe(401);
    expect(rest.sentBytes).toBeLessThan(16 << 20);
    // Nothing near the 90 MiB bodies was held (the old door peaked at 1.26 GB).
    expect(process.memoryUsage().rss - rss).toBeLessThan(200 << 20);
  });

  it('holds the operation limit over IPC too, where there is no body to measure', async () => {
    const { orgId } = await defaults(s);
    const r = await s.engine.invoke(
      'v2.groups.create',
      { body: { name: 'n'.repeat(2 << 20), organizationID: orgId } },
      { token: s.ownerKey, transport: 'ipc', client: 'ipc:1' },
    );
    expect(r.status).toBe(413);
  });

  it('names the field and its maximum when a text is too long', async () => {
    const { orgId } = await defaults(s);
    const r = await s.call('POST', '/api/v2/groups', { body: { name: 'g'.repeat(1_000_000), organizationID: orgId } });
    expect(r.status).toBe(400);
    expect(r.body.errorDetails).toContainEqual({ field: 'body.name', message: 'must be at most 300 characters' });
  });

  it("every string of every operation's input has a maximum length, an enumeration or a format", () => {
    const unbounded: string[] = [];
    const walk = (node: any, where: string) => {
      if (!node || typeof node !== 'object') return;
      const types = Array.isArray(node.type) ? node.type : [node.type];
      if (
        types.includes('string') &&
        node.maxLength === undefined &&
        node.enum === undefined &&
        node.const === undefined &&
        node.format === undefined &&
        !/^\^\[0-9a-fA-F\]\{8\}/.test(node.pattern ?? '')
      )
        unbounded.push(where);
      for (const [k, v] of Object.entries(node)) if (v && typeof v === 'object') walk(v, `${where}.${k}`);
    };
    for (const op of OPERATIONS) {
      for (const part of ['params', 'query', 'body'] as const) {
        const schema = (op.input as Record<string, z.ZodType | undefined>)[part];
        if (schema) walk(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }), `${op.id}.${part}`);
      }
    }
    expect(unbounded).toEqual([]);
  });
});

describe(covers('one e-mail rule', 'v1.users.update', 'v1.users.create'), () => {
  it('the owner can save their own profile unchanged with the e-mail the product gave them', async () => {
    const { orgId, ownerId } = await defaults(s);
    const [owner] = await s.engine.services.db.query('SELECT firstName, lastName, email FROM users WHERE id = ?', [
      ownerId,
    ]);
    expect(owner.email).toBe('owner@localhost');
    const r = await s.call('PUT', `/api/v1/users/${ownerId}`, {
      body: {
        firstName: owner.firstName,
        lastName: owner.lastName,
        email: owner.email,
        isActive: true,
        organizations: [{ id: orgId }],
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it.each(['a b@example.com', 'x@y@z', 'ab@-host', 'abc@host.', 'a@', 'a\r\nBcc: x@evil.example@host'])(
    'refuses %j, naming body.email',
    async (bad) => {
      const { orgId } = await defaults(s);
      const r = await s.call('POST', '/api/v1/users', {
        body: { firstName: 'E', lastName: 'Mail', email: bad, isActive: true, organizations: [{ id: orgId }] },
      });
      expect(r.status).toBe(400);
      expect(r.body.errorDetails!.map((d: { field: string }) => d.field)).toContain('body.email');
    },
  );
});

describe(covers('inputs that answered 500', 'v1.analyticsApps.updateSynchronization', 'v2.groups.create'), () => {
  it.each(['/api/v1/groups', '/api/v1/organizations', '/api/v1/api-keys'])(
    'DELETE %s with an empty list deletes nothing',
    async (path) => {
      const r = await s.call('DELETE', path, { body: [] });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data.deleted).toBe(0);
    },
  );

  it('refuses a schedule nested 3,000 levels deep with 400, naming where', async () => {
    let deep: unknown = { frequency: 'Daily' };
    for (let i = 0; i < 3000; i++) deep = { inner: deep };
    const r = await s.call('PUT', `/api/v1/analytics-apps/${MISSING_ID}/synchronization`, { body: { schedule: deep } });
    expect(r.status).toBe(400);
    expect(r.body.errorDetails![0].field).toMatch(/^body\.schedule/);
    expect(r.body.error).toMatch(/nested too deeply/);
  });

  it('refuses NUL characters with 400 naming the field', async () => {
    const { orgId } = await defaults(s);
    const r = await s.call('POST', '/api/v2/groups', { body: { name: 'a\u0000b', organizationID: orgId } });
    expect(r.status).toBe(400);
    expect(r.body.errorDetails![0].field).toBe('body.name');
  });
});
