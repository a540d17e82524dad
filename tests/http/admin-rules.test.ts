// The business rules of the administration areas, as a user would notice them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  startTestServer,
  signedInUserWith,
  DEFAULT_THEME,
  MISSING_ID,
  type TestServer,
} from '../support/test-server.js';
import { fixtures, type Fixtures } from '../support/samples.js';
import { covers } from '../support/covers.js';

let s: TestServer;
let f: Fixtures;
beforeAll(async () => {
  s = await startTestServer();
  f = await fixtures(s);
});
afterAll(() => s.stop());

const names = (rows: { name?: string; fullName?: string }[]) => rows.map((r) => r.name ?? r.fullName);

describe(
  covers(
    'users and recipients',
    'v1.recipients.create',
    'v1.recipients.convertToUser',
    'v1.users.create',
    'v1.users.list',
    'v1.groups.create',
    'v1.users.update',
  ),
  () => {
    it('gives a new recipient the role "Hub users" and puts it in "All users"', async () => {
      const r = await s.ok('POST', '/api/v1/recipients', {
        firstName: 'Hub',
        lastName: 'Reader',
        email: 'reader@example.com',
        isActive: true,
        organizations: [{ id: f.orgId }],
      });
      expect(r.type).toBe('recipient');
      expect(r.roles).toEqual([{ id: f.hubRoleId, name: 'Hub users' }]);
      expect(names(r.groups)).toContain('All users');
    });

    it('converts a recipient to a user with the roles and language given', async () => {
      const id = await f.make.recipient();
      const u = await s.ok('POST', `/api/v1/recipients/${id}/convert`, {
        roles: [{ id: f.adminRoleId }],
        isActive: true,
        language: 'fr',
        domain: 'CORP\\rita',
      });
      expect(u.type).toBe('user');
      expect(u.roles.map((r: { id: string }) => r.id)).toEqual([f.adminRoleId]);
      expect(u.isoLanguage).toBe('fr');
      expect(u.userName).toBe('CORP\\rita');
      const again = await s.call('POST', `/api/v1/recipients/${id}/convert`, {
        body: { roles: [], isActive: true, language: 'fr' },
      });
      expect(again.status).toBe(409);
    });

    it('refuses a second user with the same e-mail, ignoring case, naming the field', async () => {
      await s.ok('POST', '/api/v1/users', {
        firstName: 'A',
        lastName: 'One',
        email: 'dup@example.com',
        isActive: true,
        organizations: [{ id: f.orgId }],
      });
      const res = await s.call('POST', '/api/v1/users', {
        body: {
          firstName: 'B',
          lastName: 'Two',
          email: 'DUP@example.com',
          isActive: true,
          organizations: [{ id: f.orgId }],
        },
      });
      expect(res.status).toBe(409);
      expect(res.body.errorDetails).toEqual([{ field: 'body.email', message: 'is already in use' }]);
    });

    it('refuses a malformed e-mail, a short password and an unknown role without storing anything', async () => {
      const before = (await s.call('GET', '/api/v1/users', { query: { get_all: true } })).body.totalItems;
      const bad = [
        [{ email: 'not an email' }, 'body.email'],
        [{ email: 'x@y.z\r\nBcc: evil@example.com' }, 'body.email'],
        [{ password: 'short' }, 'body.password'],
      ] as const;
      for (const [patch, field] of bad) {
        const res = await s.call('POST', '/api/v1/users', {
          body: { firstName: 'N', lastName: 'O', isActive: true, organizations: [{ id: f.orgId }], ...patch },
        });
        expect(res.status).toBe(400);
        expect(res.body.errorDetails!.map((d) => d.field)).toContain(field);
      }
      const unknownRole = await s.call('POST', '/api/v1/users', {
        body: {
          firstName: 'N',
          lastName: 'O',
          isActive: true,
          organizations: [{ id: f.orgId }],
          roles: [{ id: MISSING_ID }],
        },
      });
      expect(unknownRole.status).toBe(404);
      expect((await s.call('GET', '/api/v1/users', { query: { get_all: true } })).body.totalItems).toBe(before);
    });

    it('sorts, filters by name, activity and group as asked', async () => {
      const g = await s.ok('POST', '/api/v1/groups', { name: 'Sorters', organizationId: f.orgId });
      const mk = (first: string, last: string, isActive = true) =>
        s.ok('POST', '/api/v1/users', {
          firstName: first,
          lastName: last,
          email: `${first}.${last}@sort.example`.toLowerCase(),
          isActive,
          organizations: [{ id: f.orgId }],
          groups: [{ id: g.id }],
        });
      await mk('Zoe', 'Zeta');
      await mk('amy', 'Alpha');
      await mk('Mia', 'Mu', false);
      const inGroup = await s.ok('GET', '/api/v1/users', undefined, { group_id: g.id, sort_by: 'fullname' });
      expect(names(inGroup)).toEqual(['amy Alpha', 'Mia Mu', 'Zoe Zeta']);
      const active = await s.ok('GET', '/api/v1/users', undefined, { group_id: g.id, is_active: false });
      expect(names(active)).toEqual(['Mia Mu']);
      const starts = await s.ok('GET', '/api/v1/users', undefined, { 'full_name[startswith]': 'ZOE' });
      expect(names(starts)).toEqual(['Zoe Zeta']);
      const ends = await s.ok('GET', '/api/v1/users', undefined, {
        'email[endswith]': 'sort.example',
        sort_by: 'Email',
        sort_direction: 'desc',
      });
      expect(ends.map((u: { email: string }) => u.email)).toEqual([
        'zoe.zeta@sort.example',
        'mia.mu@sort.example',
        'amy.alpha@sort.example',
      ]);
      const exact = await s.ok('GET', '/api/v1/users', undefined, { 'email[equals]': 'AMY.ALPHA@sort.example' });
      expect(names(exact)).toEqual(['amy Alpha']);
      const page2 = await s.call('GET', '/api/v1/users', {
        query: { group_id: g.id, page_size: 2, page: 2, sort_by: 'FullName' },
      });
      expect(page2.body).toMatchObject({ page: 2, pageSize: 2, totalItems: 3, totalPages: 2 });
      expect(names(page2.body.data)).toEqual(['Zoe Zeta']);
    });

    it('does not let the tenant owner be deactivated', async () => {
      const res = await s.call('PUT', `/api/v1/users/${f.ownerId}`, {
        body: { firstName: 'Tenant', lastName: 'Owner', isActive: false, organizations: [{ id: f.orgId }] },
      });
      expect(res.status).toBe(409);
    });
  },
);

describe(covers('deleting users', 'v2.users.delete', 'v1.tasks.create'), () => {
  it('refuses oneself and the owner, refuses someone who still owns a task, and deletes the rest', async () => {
    const admin = await signedInUserWith(
      s,
      { viewUser: true, deleteUser: true, viewProject: true, createTask: true },
      'deleter',
    );
    expect((await s.call('DELETE', `/api/v2/users/${admin.userId}`, { token: admin.token })).status).toBe(409);
    expect((await s.call('DELETE', `/api/v2/users/${f.ownerId}`, { token: admin.token })).status).toBe(409);
    const author = await signedInUserWith(s, { viewProject: true, createTask: true }, 'author');
    const projectId = (await f.make.connected()).projectId;
    await s.call('POST', '/api/v1/tasks', { token: author.token, body: { name: 'Owned task', projectId } });
    const refused = await s.call('DELETE', `/api/v2/users/${author.userId}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/still owns 1 task/);
    const plain = await f.make.user();
    expect((await s.call('DELETE', `/api/v2/users/${plain}`)).status).toBe(200);
    expect(
      (await s.call('GET', '/api/v1/users', { query: { get_all: true } })).body.data.some(
        (u: { id: string }) => u.id === plain,
      ),
    ).toBe(false);
  });
});

describe(
  covers(
    'groups',
    'v1.users.create',
    'v1.groups.addUsers',
    'v1.groups.listMembers',
    'v1.groups.removeUsers',
    'v1.groups.create',
    'v2.groups.update',
    'v2.groups.setMembers',
    'v1.groups.list',
    'v1.groups.delete',
    'v1.groups.update',
  ),
  () => {
    it('adds users already in the group only once, and lists members by name or e-mail', async () => {
      const g = await f.make.group();
      const u1 = await s.ok('POST', '/api/v1/users', {
        firstName: 'Bob',
        lastName: 'Brown',
        email: 'zz-bob@example.com',
        isActive: true,
        organizations: [{ id: f.orgId }],
      });
      const u2 = await s.ok('POST', '/api/v1/users', {
        firstName: 'Cat',
        lastName: 'Cole',
        email: 'aa-cat@example.com',
        isActive: true,
        organizations: [{ id: f.orgId }],
      });
      await s.ok('POST', `/api/v1/groups/${g}/users`, [u1.id, u2.id]);
      const again = await s.ok('POST', `/api/v1/groups/${g}/users`, [u1.id, u1.id, u2.id]);
      expect(again.users).toBe(2);
      expect(names(await s.ok('GET', `/api/v1/groups/${g}/users`))).toEqual(['Bob Brown', 'Cat Cole']);
      expect(names(await s.ok('GET', `/api/v1/groups/${g}/users`, undefined, { sort_by: 'email' }))).toEqual([
        'Cat Cole',
        'Bob Brown',
      ]);
      const removed = await s.ok('DELETE', `/api/v1/groups/${g}/users`, [u1.id]);
      expect(removed.users).toBe(1);
    });

    it('is one group for both interfaces: created in v1, renamed in v2, members set in v2', async () => {
      const g = await s.ok('POST', '/api/v1/groups', { name: 'Finance', organizationId: f.orgId });
      await s.ok('PUT', `/api/v2/groups/${g.id}`, { name: 'Finance EMEA', description: 'renamed through v2' });
      const u = await f.make.user();
      await s.ok('PUT', `/api/v2/groups/${g.id}/members`, [u]);
      const [listed] = await s.ok('GET', '/api/v1/groups', undefined, { 'name[equals]': 'finance emea' });
      expect(listed).toMatchObject({
        id: g.id,
        name: 'Finance EMEA',
        description: 'renamed through v2',
        users: 1,
        organizationName: 'Default',
      });
    });

    it('refuses to delete a group that has members, saying so, and deletes it once empty', async () => {
      const g = await f.make.group();
      const u = await f.make.user();
      await s.ok('POST', `/api/v1/groups/${g}/users`, [u]);
      const res = await s.call('DELETE', '/api/v1/groups', { body: [g] });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatch(/1 member/);
      await s.ok('DELETE', `/api/v1/groups/${g}/users`, [u]);
      expect((await s.ok('DELETE', '/api/v1/groups', [g])).deleted).toBe(1);
    });

    it('protects the built-in "All users" group', async () => {
      expect((await s.call('DELETE', '/api/v1/groups', { body: [f.allUsersGroupId] })).status).toBe(409);
      expect((await s.call('DELETE', `/api/v1/groups/${f.allUsersGroupId}/users`, { body: [f.ownerId] })).status).toBe(
        409,
      );
      expect(
        (await s.call('PUT', `/api/v1/groups/${f.allUsersGroupId}`, { body: { name: 'Everyone else' } })).status,
      ).toBe(409);
    });

    it('answers 404 naming the missing ids and deletes nothing when one id is unknown', async () => {
      const g = await f.make.group();
      const res = await s.call('DELETE', '/api/v1/groups', { body: [g, MISSING_ID] });
      expect(res.status).toBe(404);
      expect(res.body.error).toContain(MISSING_ID);
      expect(await s.ok('GET', '/api/v1/groups', undefined, { get_all: true })).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: g })]),
      );
    });

    it('sorts by member count', async () => {
      const rows = await s.ok('GET', '/api/v1/groups', undefined, {
        get_all: true,
        sort_by: 'users',
        sort_direction: 'desc',
      });
      const counts = rows.map((g: { users: number }) => g.users);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
    });
  },
);

describe(
  covers(
    'organizations',
    'v1.organizations.delete',
    'v2.organizations.create',
    'v2.groups.create',
    'v1.users.create',
    'v1.resources.create',
    'v1.organizations.listMembers',
    'v1.organizations.listResources',
    'v1.organizations.updateAuthentication',
    'v2.organizations.updateAuthentication',
    'v1.identityProviders.delete',
  ),
  () => {
    it('refuses to delete an organization that users and groups reference, naming them', async () => {
      const res = await s.call('DELETE', '/api/v1/organizations', { body: [f.orgId] });
      expect(res.status).toBe(409);
      expect(res.body.error).toMatch(/user\(s\)/);
      expect(res.body.error).toMatch(/group\(s\)/);
    });

    it('lists its members (users and groups) with the type filter, and its resources', async () => {
      const org = await s.ok('POST', '/api/v2/organizations', { displayName: 'Acme', themeID: DEFAULT_THEME });
      await s.ok('POST', '/api/v2/groups', { name: 'Acme readers', organizationID: org.id });
      await s.ok('POST', '/api/v1/users', {
        firstName: 'Acme',
        lastName: 'Admin',
        isActive: true,
        organizations: [{ id: org.id }],
      });
      await s.ok('POST', '/api/v1/resources', {
        name: 'Acme wiki',
        type: 'link',
        organizationId: org.id,
        url: 'https://wiki.acme.test',
      });
      const all = await s.ok('GET', `/api/v1/organizations/${org.id}/members`, undefined, { sort_by: 'type' });
      expect(all.map((m: { type: string; name: string }) => `${m.type}:${m.name}`)).toEqual([
        'group:Acme readers',
        'user:Acme Admin',
      ]);
      const groupsOnly = await s.ok('GET', `/api/v1/organizations/${org.id}/members`, undefined, { type: 'group' });
      expect(groupsOnly).toHaveLength(1);
      expect(names(await s.ok('GET', `/api/v1/organizations/${org.id}/resources`))).toEqual(['Acme wiki']);
    });

    it('links identity providers once, however often they are named, and v2 sets the service sign-in flag', async () => {
      const org = await f.make.org();
      const idp = await f.make.samlProvider();
      const auth = await s.ok('PUT', `/api/v1/organizations/${org}/authentication`, {
        allowJwt: true,
        identityProviders: [{ id: idp }, { id: idp }],
      });
      expect(auth.identityProviders).toHaveLength(1);
      expect(auth.identityProviders[0]).toMatchObject({ id: idp, isAactive: true });
      expect(auth.allowJwt).toBe(true);
      const v2 = await s.ok('PUT', `/api/v2/organizations/${org}/authentication`, {
        qalyptusAuth: false,
        identityProvider: idp,
      });
      expect(v2).toMatchObject({ serviceAuth: false, identityProvider: idp, allowJwt: true });
      const referenced = await s.call('DELETE', '/api/v1/identity-providers', { body: [idp] });
      expect(referenced.status).toBe(409);
      expect(referenced.body.error).toMatch(/organization/);
    });
  },
);

describe(
  covers(
    'resources, trusted origins, roles, settings, directories',
    'v1.resources.create',
    'v1.resources.delete',
    'v1.resources.listOwn',
    'v1.trustedOrigins.create',
    'v1.roles.create',
    'v1.roles.listSimple',
    'v1.settings.updateAuthenticationMethods',
    'app.settings.getAuthenticationMethods',
    'v1.userDirectories.create',
    'v1.userDirectories.update',
  ),
  () => {
    it('accepts only http(s) links for resources', async () => {
      const res = await s.call('POST', '/api/v1/resources', {
        body: { name: 'x', type: 'link', organizationId: f.orgId, url: 'javascript:alert(1)' },
      });
      expect(res.status).toBe(400);
      expect(res.body.errorDetails![0].field).toBe('body.url');
    });

    it('deletes resources named in the resourceIds parameter or the body', async () => {
      const [a, b] = [await f.make.resource(), await f.make.resource()];
      expect(
        (await s.call('DELETE', '/api/v1/resources', { query: { resourceIds: `${a},${b}` } })).body.data.deleted,
      ).toBe(2);
      expect((await s.call('DELETE', '/api/v1/resources', {})).status).toBe(400);
    });

    it('shows a user only the resources of their organizations', async () => {
      const other = await f.make.org();
      await s.ok('POST', '/api/v1/resources', {
        name: 'Hidden',
        type: 'link',
        organizationId: other,
        url: 'https://hidden.test',
      });
      const { token } = await signedInUserWith(s, {}, 'reader');
      const own = await s.call('GET', '/api/v1/resources/me', { token, query: { get_all: true } });
      expect(own.status).toBe(200);
      expect(names(own.body.data)).not.toContain('Hidden');
    });

    it('normalizes a trusted origin and refuses paths and other schemes', async () => {
      const o = await s.ok('POST', '/api/v1/trusted-origins', {
        name: 'Portal',
        address: 'HTTPS://Portal.Example.com:443/',
      });
      expect(o.address).toBe('https://portal.example.com');
      for (const address of ['https://x.test/path', 'ftp://x.test', '*']) {
        expect((await s.call('POST', '/api/v1/trusted-origins', { body: { name: 'Bad', address } })).status).toBe(400);
      }
    });

    it("keeps a role's permission set with its own dates, false where not given", async () => {
      const r = await s.ok('POST', '/api/v1/roles', {
        name: 'Auditors',
        isActive: true,
        permissions: { viewUser: true, viewGroup: true },
      });
      expect(r.permissions).toMatchObject({
        id: r.id,
        viewUser: true,
        viewGroup: true,
        deleteUser: false,
        enterprise: false,
      });
      expect(Object.keys(r.permissions)).toHaveLength(38 + 3);
      const simple = await s.ok('GET', '/api/v1/roles/simple', undefined, { 'name[equals]': 'auditors' });
      expect(simple).toEqual([{ id: r.id, name: 'Auditors' }]);
    });

    it('stores authentication methods', async () => {
      await s.ok('PUT', '/api/v1/settings/authentication-methods', { jwtAuth: true, ntlmAuth: true });
      expect(await s.ok('GET', '/api/app/settings/authentication-methods')).toEqual({ jwtAuth: true, ntlmAuth: true });
    });

    it('keeps a directory password when an update omits it, and never returns it', async () => {
      const d = await s.ok('POST', '/api/v1/user-directories', {
        type: 'LDAP',
        name: 'Corp LDAP',
        password: 'ldap-pass-123',
        sendNotification: false,
        synchronization: 'Daily',
        organizationId: f.orgId,
        port: 636,
      });
      expect(d.hasPassword).toBe(true);
      expect(JSON.stringify(d)).not.toContain('ldap-pass-123');
      const u = await s.ok('PUT', `/api/v1/user-directories/${d.id}`, {
        type: 'LDAP',
        name: 'Corp LDAP 2',
        sendNotification: false,
        synchronization: 'Daily',
        organizationId: f.orgId,
      });
      expect(u.hasPassword).toBe(true);
      const files = Buffer.concat([
        await readFile(join(s.dataDir, 'broadsheet.db')),
        await readFile(join(s.dataDir, 'broadsheet.db-wal')).catch(() => Buffer.alloc(0)),
      ]);
      expect(files.includes('ldap-pass-123')).toBe(false);
      const badPort = await s.call('POST', '/api/v1/user-directories', {
        body: {
          type: 'LDAP',
          name: 'x',
          sendNotification: false,
          synchronization: 'D',
          organizationId: f.orgId,
          port: 70000,
        },
      });
      expect(badPort.status).toBe(400);
    });
  },
);

describe(
  covers(
    'secrets and API keys',
    'v1.apiKeys.create',
    'v1.apiKeys.listOwn',
    'app.auth.me',
    'v2.identityProviders.create',
    'v2.identityProviders.update',
    'v1.identityProviders.list',
    'v1.apiKeys.delete',
    'v1.apiKeys.listAll',
  ),
  () => {
    it('shows a new key once, accepts it as a bearer credential, and stores only its hash', async () => {
      const created = await s.ok('POST', '/api/v1/api-keys', {
        name: 'CI key',
        expiryDate: new Date(Date.now() + 86400_000).toISOString(),
      });
      expect(created.key).toMatch(/^bsk_/);
      const listed = await s.ok('GET', '/api/v1/api-keys', undefined, { get_all: true });
      expect(JSON.stringify(listed)).not.toContain(created.key);
      expect(listed.find((k: { id: string }) => k.id === created.id)).toMatchObject({
        keyPrefix: created.key.slice(0, 10),
        expired: false,
      });
      const me = await s.call('GET', '/api/app/auth/me', { token: created.key });
      expect(me.status).toBe(200);
      expect(me.body.data.via).toBe('apiKey');
      const db = await readFile(join(s.dataDir, 'broadsheet.db'));
      const wal = await readFile(join(s.dataDir, 'broadsheet.db-wal')).catch(() => Buffer.alloc(0));
      expect(db.includes(created.key) || wal.includes(created.key)).toBe(false);
    });

    it('refuses an expiry in the past and rejects an expired key', async () => {
      const past = await s.call('POST', '/api/v1/api-keys', {
        body: { name: 'old', expiryDate: '2020-01-01T00:00:00Z' },
      });
      expect(past.status).toBe(400);
      expect(past.body.errorDetails![0].field).toBe('body.expiryDate');
      let clock = Date.now();
      const later = await startTestServer({ now: () => new Date(clock) });
      try {
        const key = await later.ok('POST', '/api/v1/api-keys', {
          name: 'short',
          expiryDate: new Date(clock + 86400_000).toISOString(),
        });
        expect((await later.call('GET', '/api/app/auth/me', { token: key.key })).status).toBe(200);
        clock += 2 * 86400_000;
        const res = await later.call('GET', '/api/app/auth/me', { token: key.key });
        expect(res.status).toBe(401);
        expect(res.body.error).toMatch(/expired/);
      } finally {
        await later.stop();
      }
    });

    it("never returns or stores an identity provider's client secret in plain text, and keeps it on update without one", async () => {
      const secret = 'oauth-client-secret-XYZ-123';
      const p = await s.ok('POST', '/api/v2/identity-providers', {
        name: 'Okta',
        type: 'OAuth',
        clientID: 'abc',
        clientSecret: secret,
        authorizationEndpoint: 'https://a',
        accessTokenEndpoint: 'https://t',
        userinfoEndpoint: 'https://u',
      });
      expect(p.hasClientSecret).toBe(true);
      const u = await s.ok('PUT', `/api/v2/identity-providers/${p.id}`, {
        name: 'Okta',
        clientID: 'abc',
        authorizationEndpoint: 'https://a',
        accessTokenEndpoint: 'https://t',
        userinfoEndpoint: 'https://u',
      });
      expect(u.hasClientSecret).toBe(true);
      const all = await s.ok('GET', '/api/v1/identity-providers', undefined, { get_all: true });
      expect(JSON.stringify([p, u, all])).not.toContain(secret);
      const db = await readFile(join(s.dataDir, 'broadsheet.db'));
      const wal = await readFile(join(s.dataDir, 'broadsheet.db-wal')).catch(() => Buffer.alloc(0));
      expect(db.includes(secret) || wal.includes(secret)).toBe(false);
      const stored = await s.engine.services.db.query('SELECT clientSecret FROM identity_providers WHERE id = ?', [
        p.id,
      ]);
      expect(s.engine.services.secrets.open(stored[0].clientSecret)).toBe(secret);
    });

    it('lets a user delete only their own keys unless they are an administrator', async () => {
      const theirs = await signedInUserWith(s, { useApiKeys: true }, 'keyholder');
      const ownerKey = await f.make.apiKey();
      const res = await s.call('DELETE', '/api/v1/api-keys', { token: theirs.token, body: [ownerKey] });
      expect(res.status).toBe(403);
      expect((await s.call('GET', '/api/v1/api-keys/all', { token: theirs.token })).status).toBe(403);
      const all = await s.ok('GET', '/api/v1/api-keys/all', undefined, { user_id: f.ownerId, get_all: true });
      expect(all.every((k: { userId: string }) => k.userId === f.ownerId)).toBe(true);
    });
  },
);

describe(covers('user passwords', 'v1.users.create'), () => {
  it('are stored as scrypt hashes only and never returned', async () => {
    const u = await s.ok('POST', '/api/v1/users', {
      firstName: 'Pat',
      lastName: 'Word',
      email: 'pat@example.com',
      password: 'plain-text-never-stored',
      isActive: true,
      organizations: [{ id: f.orgId }],
    });
    expect(JSON.stringify(u)).not.toContain('plain-text-never-stored');
    expect(u.hasPassword).toBe(true);
    const [row] = await s.engine.services.db.query('SELECT passwordHash FROM users WHERE id = ?', [u.id]);
    expect(row.passwordHash).toMatch(/^scrypt\$/);
    const files = Buffer.concat([
      await readFile(join(s.dataDir, 'broadsheet.db')),
      await readFile(join(s.dataDir, 'broadsheet.db-wal')).catch(() => Buffer.alloc(0)),
    ]);
    expect(files.includes('plain-text-never-stored')).toBe(false);
  });
});

describe(covers('audit trail', 'v1.groups.create'), () => {
  it('records who changed what, without request bodies', async () => {
    const g = await s.ok('POST', '/api/v1/groups', { name: 'Audited', organizationId: f.orgId });
    const rows = await s.engine.services.db.query('SELECT * FROM audit_log WHERE operation = ? AND targetId = ?', [
      'v1.groups.create',
      g.id,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ userId: f.ownerId, transport: 'http' });
    expect(JSON.stringify(rows)).not.toContain('Audited');
  });
});
