// A credential's principal is read once while nothing changes (auth/principal.ts): these calls come
// right after the same credential was answered, so each change must be seen at the very next call —
// made by this engine, by another engine on the same data folder, or by the clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { memoryKeyStore, signedInUserWith, startTestServer, type TestServer } from '../support/test-server.js';

let clock = Date.now();
const now = () => new Date(clock);
let a: TestServer;
/** A second engine on the same data folder (another process on a shared folder, in effect). */
let b: TestServer;

beforeAll(async () => {
  const keys = memoryKeyStore();
  a = await startTestServer({ now, secretKeys: keys, keepDataDir: true });
  b = await startTestServer({ now, secretKeys: keys, dataDir: a.dataDir, keepDataDir: true, schedulerTimers: false });
});
afterAll(async () => {
  await b.stop();
  await a.stop();
  await rm(a.dataDir, { recursive: true, force: true });
});

/** The same call twice, so the second is answered from what the first read. */
const twice = async (s: TestServer, token: string, path = '/api/v1/users') => {
  await s.call('GET', path, { token });
  return s.call('GET', path, { token });
};

/** Sets one permission of a role, through the given engine. */
const setPermission = async (s: TestServer, roleId: string, permission: string, value: boolean) => {
  const roles = await s.ok('GET', '/api/v1/roles', undefined, { get_all: true });
  const role = roles.find((r: { id: string }) => r.id === roleId);
  await s.ok('PUT', `/api/v1/roles/${roleId}`, { ...role, permissions: { ...role.permissions, [permission]: value } });
};

describe('a remembered credential never outlives a change', () => {
  it('loses a permission at the next call once its role no longer grants it', async () => {
    const { token, roleId } = await signedInUserWith(a, { viewUser: true }, 'viewer');
    expect((await twice(a, token)).status).toBe(200);
    await setPermission(a, roleId, 'viewUser', false);
    const refused = await a.call('GET', '/api/v1/users', { token });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('Your roles do not let you see users');
    await setPermission(a, roleId, 'viewUser', true);
    expect((await a.call('GET', '/api/v1/users', { token })).status).toBe(200);
  });

  it('refuses a deleted API key at the next call', async () => {
    const created = await a.ok('POST', '/api/v1/api-keys', {
      name: 'remembered',
      expiryDate: new Date(clock + 86400_000).toISOString(),
    });
    expect((await twice(a, created.key, '/api/app/auth/me')).body.data.via).toBe('apiKey');
    await a.ok('DELETE', '/api/v1/api-keys', [created.id]);
    expect((await a.call('GET', '/api/app/auth/me', { token: created.key })).status).toBe(401);
  });

  it('sees a user deactivated by another engine on the same folder at the next call', async () => {
    const { token, userId } = await signedInUserWith(a, { viewUser: true }, 'elsewhere');
    expect((await twice(a, token)).status).toBe(200);
    // Engine b changes the file; engine a wrote nothing since it remembered the session.
    const users = await b.ok('GET', '/api/v1/users', undefined, { get_all: true });
    const user = users.find((u: { id: string }) => u.id === userId);
    await b.ok('PUT', `/api/v1/users/${userId}`, { ...user, isActive: false });
    const res = await a.call('GET', '/api/v1/users', { token });
    expect(res.status).toBe(401);
  });

  it('refuses a write at once when another engine took the permission away, and writes nothing', async () => {
    const { token, roleId } = await signedInUserWith(a, { viewGroup: true, createGroup: true }, 'writer');
    expect((await twice(a, token, '/api/v1/groups')).status).toBe(200);
    await setPermission(b, roleId, 'createGroup', false);
    const res = await a.call('POST', '/api/v1/groups', { token, body: { name: 'Should not exist' } });
    expect(res.status).toBe(403);
    const groups = await a.ok('GET', '/api/v1/groups', undefined, { get_all: true });
    expect(groups.map((g: { name: string }) => g.name)).not.toContain('Should not exist');
  });

  it('lets a read through at once when another engine granted what the remembered principal lacked', async () => {
    const { token, roleId } = await signedInUserWith(a, { viewGroup: true }, 'granted');
    expect((await twice(a, token)).status).toBe(403);
    await setPermission(b, roleId, 'viewUser', true);
    expect((await a.call('GET', '/api/v1/users', { token })).status).toBe(200);
  });

  it('ends a remembered session when the clock passes its expiry, with nothing written', async () => {
    const { token } = await signedInUserWith(a, { viewUser: true }, 'expiring');
    const me = await twice(a, token, '/api/app/auth/me');
    expect(me.status).toBe(200);
    const session = await a.call('GET', '/api/app/auth/me', { token });
    expect(session.status).toBe(200);
    clock += 400 * 86400_000;
    const res = await a.call('GET', '/api/app/auth/me', { token });
    expect(res.status).toBe(401);
  });
});
