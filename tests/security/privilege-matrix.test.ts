// Finding 1 (high): privilege escalation through user editing. The rules, as a matrix of the
// actor's rights × the target × the field changed; every refusal leaves the target as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { defaults, signedInUserWith, startTestServer, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';

let s: TestServer;
let d: Awaited<ReturnType<typeof defaults>>;
const actors: Record<string, { token: string; userId: string }> = {};
let weakRoleId: string;

type Actor = 'limited' | 'tenantAdmin' | 'owner';
type Target = 'self' | 'owner' | 'tenantAdmin' | 'adminRole' | 'weaker';
type Field = 'roles' | 'password' | 'email' | 'isActive' | 'name';

async function signIn(email: string, password: string) {
  const r = await s.call('POST', '/api/app/auth/login', { token: null, body: { email, password } });
  return r;
}

async function row(id: string) {
  const [u] = await s.engine.services.db.query(
    'SELECT email, isActive, passwordHash, firstName, isTenantAdmin FROM users WHERE id = ?',
    [id],
  );
  const roles = (
    await s.engine.services.db.query('SELECT targetId FROM user_roles WHERE userId = ? ORDER BY targetId', [id])
  ).map((r: { targetId: string }) => r.targetId);
  return { ...u, roles };
}

/** A fresh target of the given kind (no password: hashing is slow, and no case needs one). */
async function target(kind: Target, actor: Actor): Promise<string> {
  if (kind === 'self') return actors[actor].userId;
  if (kind === 'owner') return d.ownerId;
  const tag = randomBytes(4).toString('hex');
  const roles = kind === 'adminRole' ? [{ id: d.adminRoleId }] : [{ id: weakRoleId }];
  const u = await s.ok('POST', '/api/v1/users', {
    firstName: 'Target',
    lastName: tag,
    email: `target-${tag}@example.com`,
    isActive: true,
    roles,
    organizations: [{ id: d.orgId }],
  });
  if (kind === 'tenantAdmin')
    await s.engine.services.db.query('UPDATE users SET isTenantAdmin = 1 WHERE id = ?', [u.id]);
  return u.id;
}

function bodyFor(
  current: { email: string | null; isActive: number; firstName: string; roles: string[] },
  field: Field,
) {
  const body: Record<string, unknown> = {
    firstName: current.firstName,
    lastName: 'Person',
    email: current.email,
    isActive: !!current.isActive,
    organizations: [{ id: d.orgId }],
  };
  // A different set of roles than the target has: promotion, or demotion of an Administrator.
  if (field === 'roles') body.roles = [{ id: current.roles.includes(d.adminRoleId) ? weakRoleId : d.adminRoleId }];
  if (field === 'password') body.password = 'a-brand-new-password-1';
  if (field === 'email') body.email = `changed-${randomBytes(4).toString('hex')}@example.com`;
  if (field === 'isActive') body.isActive = false;
  if (field === 'name') body.firstName = 'Renamed';
  return body;
}

function expected(actor: Actor, t: Target, field: Field): number {
  if (t === 'owner' && actor !== 'owner') return 403;
  if (t === 'owner' && field === 'isActive') return 409; // the owner cannot be deactivated at all
  if (actor !== 'limited') return 200;
  if (field === 'roles') return 403;
  if (field === 'name' || t === 'self' || t === 'weaker') return 200;
  return 403;
}

beforeAll(async () => {
  s = await startTestServer();
  d = await defaults(s);
  weakRoleId = (
    await s.ok('POST', '/api/v1/roles', {
      name: 'Viewer of users',
      permissions: { viewUser: true },
      isActive: true,
      allProjects: true,
    })
  ).id;
  actors.limited = await signedInUserWith(s, { viewUser: true, editUser: true, createUser: true }, 'limited');
  const admin = await signedInUserWith(s, { viewUser: true }, 'tenant-admin');
  await s.engine.services.db.query('UPDATE users SET isTenantAdmin = 1 WHERE id = ?', [admin.userId]);
  actors.tenantAdmin = admin;
  actors.owner = { token: s.ownerKey, userId: d.ownerId };
});
afterAll(() => s.stop());

const ACTORS: Actor[] = ['limited', 'tenantAdmin', 'owner'];
const TARGETS: Target[] = ['self', 'owner', 'tenantAdmin', 'adminRole', 'weaker'];
const FIELDS: Field[] = ['roles', 'password', 'email', 'isActive', 'name'];
const all = ACTORS.flatMap((a) =>
  TARGETS.filter((t) => !(a === 'owner' && t === 'self')).flatMap((t) =>
    FIELDS.filter((f) => !(t === 'self' && f === 'isActive')).map((f) => [a, t, f, expected(a, t, f)] as const),
  ),
);
// A new password of one's own ends one's sessions: those cases go last.
const endsSession = (c: (typeof all)[number]) => c[1] === 'self' && c[2] === 'password';
const cases = [...all.filter((c) => !endsSession(c)), ...all.filter(endsSession)];

describe(covers('who may change whom (PUT /api/v1/users/{id})', 'v1.users.update'), () => {
  it.each(cases)('%s changing %s: %s → %i', async (actor, kind, field, status) => {
    const id = await target(kind, actor);
    const before = await row(id);
    const res = await s.call('PUT', `/api/v1/users/${id}`, {
      token: actors[actor].token,
      body: bodyFor(before, field),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (status === 403) {
      expect(await row(id)).toEqual(before);
      expect(res.body.errorDetails?.[0]?.field).toMatch(/^(body\.|params\.id)/);
    }
  });
});

describe(
  covers(
    'the escalation that was found',
    'v1.users.update',
    'v1.organizations.list',
    'v1.recipients.create',
    'v1.recipients.convertToUser',
  ),
  () => {
    it('a user with only viewUser and editUser cannot make themselves Administrator nor take over the owner', async () => {
      const me = await signedInUserWith(s, { viewUser: true, editUser: true }, 'climber');
      const mine = await row(me.userId);
      const promote = await s.call('PUT', `/api/v1/users/${me.userId}`, {
        token: me.token,
        body: { ...bodyFor(mine, 'name'), roles: [{ id: d.adminRoleId }] },
      });
      expect(promote.status).toBe(403);
      expect(promote.body.error).toMatch(/Only a tenant administrator may assign roles/);
      expect((await s.call('GET', '/api/v1/organizations', { token: me.token })).status).toBe(403);
      const owner = await row(d.ownerId);
      const takeOver = await s.call('PUT', `/api/v1/users/${d.ownerId}`, {
        token: me.token,
        body: { ...bodyFor(owner, 'name'), firstName: owner.firstName, password: 'i-own-this-now-1' },
      });
      expect(takeOver.status).toBe(403);
      expect((await signIn(owner.email, 'i-own-this-now-1')).status).toBe(401);
      expect(await row(d.ownerId)).toEqual(owner);
    });

    it('converting a recipient with roles needs a tenant administrator, and a refusal leaves the recipient a recipient', async () => {
      const me = await signedInUserWith(s, { viewUser: true, editUser: true, createUser: true }, 'converter');
      const r = await s.ok('POST', '/api/v1/recipients', {
        firstName: 'Rita',
        lastName: 'Recipient',
        email: `rita-${randomBytes(3).toString('hex')}@example.com`,
        isActive: true,
        organizations: [{ id: d.orgId }],
      });
      // Recipients get "Hub users" by rule, whoever creates them.
      expect((await row(r.id)).roles).toEqual([d.hubRoleId]);
      const convert = await s.call('POST', `/api/v1/recipients/${r.id}/convert`, {
        token: me.token,
        body: { roles: [{ id: d.adminRoleId }], isActive: true, language: 'en' },
      });
      expect(convert.status).toBe(403);
      const [{ kind }] = await s.engine.services.db.query('SELECT kind FROM users WHERE id = ?', [r.id]);
      expect(kind).toBe('recipient');
      expect(
        (
          await s.call('POST', `/api/v1/recipients/${r.id}/convert`, {
            body: { roles: [{ id: d.adminRoleId }], isActive: true, language: 'en' },
          })
        ).status,
      ).toBe(200);
    });
  },
);

describe(
  covers('roles: nobody grants what they do not hold', 'v1.roles.create', 'v1.roles.list', 'v1.roles.update'),
  () => {
    it('a role editor cannot create a role with permissions beyond their own, nor edit a stronger role', async () => {
      const me = await signedInUserWith(s, { viewUser: true, createSystem: true, editSystem: true }, 'role-editor');
      const tooMuch = await s.call('POST', '/api/v1/roles', {
        token: me.token,
        body: {
          name: 'Sneaky',
          permissions: { deleteUser: true, createSystem: true },
          isActive: true,
          allProjects: true,
        },
      });
      expect(tooMuch.status).toBe(403);
      expect(tooMuch.body.errorDetails![0].field).toBe('body.permissions.deleteUser');
      const names = (await s.ok('GET', '/api/v1/roles', undefined, { get_all: true })).map(
        (r: { name: string }) => r.name,
      );
      expect(names).not.toContain('Sneaky');
      const fine = await s.call('POST', '/api/v1/roles', {
        token: me.token,
        body: { name: 'Narrow', permissions: { viewUser: true }, isActive: true, allProjects: true },
      });
      expect(fine.status).toBe(200);
      const admin = (await s.ok('GET', '/api/v1/roles', undefined, { get_all: true })).find(
        (r: { name: string }) => r.name === 'Administrator',
      );
      const edit = await s.call('PUT', `/api/v1/roles/${admin.id}`, {
        token: me.token,
        body: { name: 'Administrator', permissions: admin.permissions, isActive: false, allProjects: true },
      });
      expect(edit.status).toBe(403);
      expect(
        (await s.ok('GET', '/api/v1/roles', undefined, { get_all: true })).find(
          (r: { id: string }) => r.id === admin.id,
        ).isActive,
      ).toBe(true);
      // Adding a permission the editor holds to a weaker role is allowed.
      const widen = await s.call('PUT', `/api/v1/roles/${fine.body.data.id}`, {
        token: me.token,
        body: {
          name: 'Narrow',
          permissions: { viewUser: true, createSystem: true },
          isActive: true,
          allProjects: true,
        },
      });
      expect(widen.status).toBe(200);
    });

    it('a role editor limited to some projects cannot grant all projects or others', async () => {
      const me = await signedInUserWith(s, { viewUser: true, createSystem: true }, 'scoped');
      await s.engine.services.db.query(
        `UPDATE roles SET allProjects = 0, projects = '[{"id":"00000000-0000-4000-8000-000000000001","name":"Mine"}]' WHERE id = (SELECT targetId FROM user_roles WHERE userId = ?)`,
        [me.userId],
      );
      const all = await s.call('POST', '/api/v1/roles', {
        token: me.token,
        body: { name: 'All of them', permissions: { viewUser: true }, isActive: true, allProjects: true },
      });
      expect(all.status).toBe(403);
      expect(all.body.errorDetails![0].field).toBe('body.allProjects');
      const other = await s.call('POST', '/api/v1/roles', {
        token: me.token,
        body: {
          name: 'Other',
          permissions: { viewUser: true },
          isActive: true,
          allProjects: false,
          projects: [{ id: '00000000-0000-4000-8000-000000000002' }],
        },
      });
      expect(other.status).toBe(403);
      const mine = await s.call('POST', '/api/v1/roles', {
        token: me.token,
        body: {
          name: 'Mine only',
          permissions: { viewUser: true },
          isActive: true,
          allProjects: false,
          projects: [{ id: '00000000-0000-4000-8000-000000000001' }],
        },
      });
      expect(mine.status).toBe(200);
    });
  },
);

describe(
  covers(
    "API keys act within their owner's current rights",
    'v1.apiKeys.create',
    'v1.users.list',
    'v1.organizations.list',
    'v1.roles.list',
    'v1.roles.update',
  ),
  () => {
    it('a key loses what its owner loses, at once', async () => {
      const me = await signedInUserWith(s, { useApiKeys: true, viewUser: true }, 'keyholder');
      const key = (
        await s.call('POST', '/api/v1/api-keys', {
          token: me.token,
          body: { name: 'script', expiryDate: new Date(Date.now() + 86_400_000).toISOString() },
        })
      ).body.data.key;
      expect((await s.call('GET', '/api/v1/users', { token: key })).status).toBe(200);
      expect((await s.call('GET', '/api/v1/organizations', { token: key })).status).toBe(403);
      const role = (await s.ok('GET', '/api/v1/roles', undefined, { get_all: true })).find(
        (r: { id: string }) => r.id === me.roleId,
      );
      await s.ok('PUT', `/api/v1/roles/${me.roleId}`, {
        name: role.name,
        permissions: { useApiKeys: true },
        isActive: true,
        allProjects: true,
      });
      expect((await s.call('GET', '/api/v1/users', { token: key })).status).toBe(403);
      await s.ok('PUT', `/api/v1/roles/${me.roleId}`, {
        name: role.name,
        permissions: { viewUser: true },
        isActive: true,
        allProjects: true,
      });
      expect((await s.call('GET', '/api/v1/users', { token: key })).status).toBe(401);
    });
  },
);

describe(covers('a role over some projects makes none it could not reach', 'app.projects.create'), () => {
  it('refuses a project to a role limited to one project, and lets a role over all projects make it', async () => {
    const mine = (await s.ok('POST', '/api/app/projects', { name: `Mine ${randomBytes(3).toString('hex')}` })).id;
    const scoped = await signedInUserWith(s, { viewProject: true, updateProject: true }, 'one-project');
    await s.engine.services.db.query(`UPDATE roles SET allProjects = 0, projects = ? WHERE id = ?`, [
      JSON.stringify([{ id: mine, name: 'Mine' }]),
      scoped.roleId,
    ]);
    const count = async () => Number((await s.engine.services.db.query('SELECT COUNT(*) AS n FROM projects'))[0].n);
    const before = await count();
    const refused = await s.call('POST', '/api/app/projects', { token: scoped.token, body: { name: 'Out of reach' } });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/reach only some projects/);
    expect(await count()).toBe(before);
    const wide = await signedInUserWith(s, { viewProject: true, updateProject: true }, 'all-projects');
    const made = await s.call('POST', '/api/app/projects', { token: wide.token, body: { name: 'Within reach' } });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    expect((await s.call('GET', `/api/app/projects/${made.body.data.id}`, { token: wide.token })).status).toBe(200);
  });
});
