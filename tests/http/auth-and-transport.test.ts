// Sign-in, sessions and the HTTP server's guards: Host allow-list, CORS, body limit, rate limits, OpenAPI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { startTestServer, signedInUserWith, type TestServer } from '../support/test-server.js';
import { fixtures, ISSUE2_OPS, type Fixtures } from '../support/samples.js';
import { covers } from '../support/covers.js';

let s: TestServer;
let f: Fixtures;
let clock = Date.now();
beforeAll(async () => {
  s = await startTestServer({ now: () => new Date(clock) });
  f = await fixtures(s);
});
afterAll(() => s.stop());

async function createUser(email: string, password: string, extra: object = {}) {
  return s.ok('POST', '/api/v1/users', {
    firstName: 'Sign',
    lastName: 'In',
    email,
    password,
    isActive: true,
    organizations: [{ id: f.orgId }],
    ...extra,
  });
}
const login = (email: string, password: string) =>
  s.call('POST', '/api/app/auth/login', { token: null, body: { email, password } });

describe(
  covers(
    'sign-in and sessions',
    'app.auth.me',
    'app.auth.logout',
    'app.auth.changePassword',
    'v1.users.update',
    'app.setup.status',
    'app.setup.complete',
    'v1.groups.list',
    'v1.groups.listMembers',
    'v1.groups.create',
    'v1.groups.delete',
    'v1.users.list',
    'v1.apiKeys.listAll',
  ),
  () => {
    it('signs in with e-mail (any case) and password, and /me tells the user, roles and effective permissions', async () => {
      await createUser('alice@example.com', 'alice-password-1', { roles: [{ id: f.hubRoleId }] });
      const res = await login('Alice@Example.com', 'alice-password-1');
      expect(res.status).toBe(200);
      expect(res.body.data.token).toMatch(/^bss_/);
      expect(new Date(res.body.data.expiresAt).getTime()).toBeGreaterThan(clock);
      const me = await s.call('GET', '/api/app/auth/me', { token: res.body.data.token });
      expect(me.body.data.user.email).toBe('alice@example.com');
      expect(me.body.data.user.roles.map((r: { name: string }) => r.name)).toEqual(['Hub users']);
      expect(me.body.data.permissions).toMatchObject({ previewPublishedReport: true, viewUser: false });
      expect(JSON.stringify(me.body)).not.toMatch(/passwordHash|scrypt/);
    });

    it('/me lists exactly the operations the caller may call, so screens ask by operation id', async () => {
      const { token } = await signedInUserWith(s, { viewGroup: true }, 'group-viewer');
      const ops: string[] = (await s.call('GET', '/api/app/auth/me', { token })).body.data.operations;
      expect(ops).toEqual(
        expect.arrayContaining(['v1.groups.list', 'v1.groups.listMembers', 'app.auth.me', 'app.auth.logout']),
      );
      for (const id of ['v1.groups.create', 'v1.groups.delete', 'v1.users.list', 'v1.apiKeys.listAll'])
        expect(ops).not.toContain(id);
      const owner: string[] = (await s.call('GET', '/api/app/auth/me')).body.data.operations;
      expect(owner.length).toBe(s.engine.catalogue.size);
    });

    it('answers the same 401 for an unknown address and a wrong password', async () => {
      const a = await login('nobody@example.com', 'whatever-pass');
      const b = await login('alice@example.com', 'wrong-password');
      expect(a.status).toBe(401);
      expect(b.status).toBe(401);
      expect(a.body.error).toBe(b.body.error);
    });

    it('ends a session on log-out', async () => {
      const { token } = (await login('alice@example.com', 'alice-password-1')).body.data;
      expect((await s.call('POST', '/api/app/auth/logout', { token })).status).toBe(200);
      expect((await s.call('GET', '/api/app/auth/me', { token })).status).toBe(401);
    });

    it('ends sessions when they expire', async () => {
      const { token } = (await login('alice@example.com', 'alice-password-1')).body.data;
      clock += 13 * 3600_000;
      try {
        expect((await s.call('GET', '/api/app/auth/me', { token })).status).toBe(401);
      } finally {
        clock -= 13 * 3600_000;
      }
    });

    it('ends every session on a password change and on deactivation', async () => {
      const u = await createUser('bob@example.com', 'bob-password-1');
      const first = (await login('bob@example.com', 'bob-password-1')).body.data.token;
      const changed = await s.call('POST', '/api/app/auth/password', {
        token: first,
        body: { currentPassword: 'bob-password-1', newPassword: 'bob-password-2' },
      });
      expect(changed.status).toBe(200);
      expect((await s.call('GET', '/api/app/auth/me', { token: first })).status).toBe(401);
      const second = changed.body.data.token;
      expect((await s.call('GET', '/api/app/auth/me', { token: second })).status).toBe(200);
      await s.ok('PUT', `/api/v1/users/${u.id}`, {
        firstName: 'Sign',
        lastName: 'In',
        email: 'bob@example.com',
        isActive: false,
        organizations: [{ id: f.orgId }],
      });
      expect((await s.call('GET', '/api/app/auth/me', { token: second })).status).toBe(401);
      expect((await login('bob@example.com', 'bob-password-2')).status).toBe(401);
    });

    it('finishes first-run setup over HTTP only with the owner key, then signs the owner in', async () => {
      expect((await s.ok('GET', '/api/app/setup')).setupComplete).toBe(false);
      const body = { firstName: 'Olive', lastName: 'Owner', email: 'olive@example.com', password: 'owner-password-1' };
      const { token: other } = await signedInUserWith(s, { editUser: true }, 'intruder');
      expect((await s.call('POST', '/api/app/setup', { token: null, body })).status).toBe(403);
      expect((await s.call('POST', '/api/app/setup', { token: other, body })).status).toBe(403);
      // The key `serve` writes to owner-api-key at first start finishes setup once, then opens nothing.
      const firstStartKey = await s.engine.issueOwnerKey({ firstStart: true });
      expect((await s.call('POST', '/api/app/setup', { token: firstStartKey, body })).status).toBe(200);
      expect((await s.call('GET', '/api/v1/users', { token: firstStartKey })).status).toBe(401);
      expect((await s.call('POST', '/api/app/setup', { body })).status).toBe(409);
      expect((await login('olive@example.com', 'owner-password-1')).status).toBe(200);
    });
  },
);

describe(
  covers('transport guards', 'v1.users.list', 'v1.trustedOrigins.create', 'v1.groups.list', 'v1.groups.create'),
  () => {
    it('refuses credentials in the query string', async () => {
      const res = await s.call('GET', '/api/v1/users', { token: null, query: { api_key: s.ownerKey } });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/Authorization header/);
    });

    it('refuses a foreign Host header (DNS rebinding)', async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port: s.http.port, path: '/api/app/setup', headers: { host: 'evil.example.com' } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(status).toBe(403);
    });

    it('answers CORS only for trusted origins', async () => {
      await s.ok('POST', '/api/v1/trusted-origins', { name: 'Portal', address: 'https://portal.example.com' });
      const pre = (origin: string) =>
        fetch(`${s.url}/api/v1/users`, {
          method: 'OPTIONS',
          headers: { origin, 'access-control-request-method': 'GET' },
        });
      expect((await pre('https://portal.example.com')).headers.get('access-control-allow-origin')).toBe(
        'https://portal.example.com',
      );
      expect((await pre('https://evil.example.com')).headers.get('access-control-allow-origin')).toBeNull();
      // Removing it holds at once too.
      const [portal] = (await s.ok('GET', '/api/v1/trusted-origins', undefined, { get_all: true })).filter(
        (o: { address: string }) => o.address === 'https://portal.example.com',
      );
      await s.ok('DELETE', '/api/v1/trusted-origins', [portal.id]);
      expect((await pre('https://portal.example.com')).headers.get('access-control-allow-origin')).toBeNull();
    });

    it('takes an empty JSON body as no body: 200 where none is needed, 400 naming the body where one is', async () => {
      const json = { 'content-type': 'application/json' };
      // A bodiless POST and DELETE with the JSON header, as jQuery's $.ajax sends them.
      const logout = await s.call('POST', '/api/app/auth/logout', { rawBody: '', headers: json });
      expect(logout.status, JSON.stringify(logout.body)).toBe(200);
      const orgs = await s.ok('GET', '/api/v1/organizations', undefined, { get_all: true });
      const user = await s.ok('POST', '/api/v1/users', {
        firstName: 'Empty',
        lastName: 'Body',
        email: 'empty-body@example.com',
        isActive: true,
        organizations: [{ id: orgs[0].id }],
      });
      const del = await s.call('DELETE', `/api/v2/users/${user.id}`, { rawBody: '', headers: json });
      expect(del.status, JSON.stringify(del.body)).toBe(200);
      // Where a body is needed, the usual 400 naming it.
      const noBody = await s.call('POST', '/api/v1/groups', { rawBody: '', headers: json });
      expect(noBody.status).toBe(400);
      expect(noBody.body.errorDetails?.[0].field).toMatch(/^body/);
      // Prototype poisoning is still refused by the JSON parser.
      const poisoned = await s.call('POST', '/api/v1/groups', {
        rawBody: '{"name":"x","__proto__":{"admin":true}}',
        headers: json,
      });
      expect(poisoned.status).toBe(400);
    });

    it('answers 413 for a body over the limit and 400 for malformed JSON, changing nothing', async () => {
      const before = (await s.call('GET', '/api/v1/groups', { query: { get_all: true } })).body.totalItems;
      const huge = await s.call('POST', '/api/v1/groups', { body: { name: 'x'.repeat(1_100_000) } });
      expect(huge.status).toBe(413);
      const broken = await s.call('POST', '/api/v1/groups', { rawBody: '{"name": "half' });
      expect(broken.status).toBe(400);
      expect(broken.body.isSuccess).toBe(false);
      expect((await s.call('GET', '/api/v1/groups', { query: { get_all: true } })).body.totalItems).toBe(before);
    });

    it('sends a strict CSP and no-sniff on every answer', async () => {
      const res = await fetch(`${s.url}/api/app/setup`);
      expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('answers 404 in the envelope for an unknown operation through the bridge', async () => {
      const res = await s.call('POST', '/api/app/invoke/v9.nothing', { body: {} });
      expect(res.status).toBe(404);
      expect(res.body.isSuccess).toBe(false);
    });
  },
);

describe(
  covers(
    "the wire contract on the renderer's door",
    'app.projects.create',
    'app.projects.export',
    'app.auth.login',
    'app.auth.me',
    'app.auth.logout',
  ),
  () => {
    const door = (id: string, input: object, token: string | null = s.ownerKey) =>
      s.call('POST', `/api/app/invoke/${id}`, { token, body: input });

    it('says by a header when an operation starts or ends a session, and only then', async () => {
      await createUser('wendy@example.com', 'wendy-password-1');
      const login = await door(
        'app.auth.login',
        { body: { email: 'wendy@example.com', password: 'wendy-password-1' } },
        null,
      );
      expect(login.status).toBe(200);
      expect(login.headers.get('x-broadsheet-session')).toBe('start');
      const token = login.body.data.token;
      const me = await door('app.auth.me', {}, token);
      expect(me.status).toBe(200);
      expect(me.headers.get('x-broadsheet-session')).toBeNull();
      const wrong = await door('app.auth.login', { body: { email: 'wendy@example.com', password: 'nope' } }, null);
      expect(wrong.headers.get('x-broadsheet-session')).toBeNull();
      const out = await door('app.auth.logout', {}, token);
      expect(out.headers.get('x-broadsheet-session')).toBe('end');
      expect((await door('app.auth.me', {}, token)).status).toBe(401);
    });

    it('answers a file as IPC does, base64 in the envelope, with the bytes the REST route sends', async () => {
      const project = await s.ok('POST', '/api/app/projects', { name: 'Wire' });
      const rest = await s.file('GET', `/api/app/projects/${project.id}/export`);
      expect(rest.status).toBe(200);
      const viaDoor = await door('app.projects.export', { params: { id: project.id } });
      expect(viaDoor.status).toBe(200);
      expect(viaDoor.body.data).toMatchObject({ fileName: 'Wire.broadsheet.json', mime: 'application/json' });
      expect(Buffer.from(viaDoor.body.data.base64, 'base64').equals(rest.data)).toBe(true);
    });
  },
);

describe(covers('OpenAPI', 'v1.groups.create', 'v1.users.list'), () => {
  it('lists every operation of issue 2 with its id as operationId and request schemas', async () => {
    const doc = (await (await fetch(`${s.url}/api/openapi.json`)).json()) as any;
    expect(doc.openapi).toBe('3.1.0');
    const ops = new Map<string, any>();
    for (const methods of Object.values(doc.paths) as Record<string, any>[])
      for (const op of Object.values(methods)) ops.set(op.operationId, op);
    for (const id of ISSUE2_OPS) expect(ops.has(id), id).toBe(true);
    expect(ops.get('v1.groups.create').requestBody.content['application/json'].schema.required).toEqual(['name']);
    expect(ops.get('v1.users.list').parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['page', 'page_size', 'get_all', 'sort_by', 'full_name', 'group_id']),
    );
  });
});
