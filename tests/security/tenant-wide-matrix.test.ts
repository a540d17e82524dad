// Issue 41, finding 1 (high): an administrator of one organization changed what every organization
// shares (the built-in Administrator role, a role held by another organization's people). The rule,
// as a matrix of actors × every operation that changes a tenant-wide object (declared `tenantWide`
// in the catalogue) and × roles by who holds them: an organization's administrator is refused and
// nothing changes; a tenant administrator passes; on a one-organization install its administrators
// pass too (there is nobody outside their organization to reach).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { defaults, signedInAdministrator, startTestServer, type TestServer } from '../support/test-server.js';
import { fixtures, type Fixtures, type Sample } from '../support/samples.js';
import { allSamples, pathOf } from '../support/all-samples.js';
import { covers } from '../support/covers.js';
import { OPERATIONS } from '../../engine/catalogue.js';

let s: TestServer;
let f: Fixtures;
let adminRoleId: string;
let orgA: string;
let orgB: string;
const tokens: Record<'orgAdmin' | 'tenantAdmin', string> = { orgAdmin: '', tenantAdmin: '' };

const TENANT_WIDE = OPERATIONS.filter((op) => op.tenantWide);
/** The tables tenant-wide operations write: a refusal leaves every row of them as it was. */
const TABLES = ['mail_servers', 'settings', 'identity_providers', 'user_directories', 'trusted_origins', 'roles'];

const samples = (): Record<string, (f: Fixtures) => Promise<Sample>> => ({
  ...allSamples(() => s),
  'app.mailServers.delete': async () => ({
    params: {
      id: (
        await s.ok('POST', '/api/v1/mail-servers', {
          name: `Mail ${randomBytes(3).toString('hex')}`,
          fromName: 'Reports',
          fromAddress: 'reports@example.com',
          hostName: '127.0.0.1',
          smtpPort: 9,
          ssl: false,
        })
      ).id,
    },
  }),
  'app.userDirectories.sync': async (fx) => ({ params: { id: await fx.make.userDirectory() } }),
});

async function snapshot() {
  const out: Record<string, unknown[]> = {};
  for (const t of TABLES) out[t] = await s.engine.services.db.query(`SELECT * FROM ${t} ORDER BY 1`);
  return out;
}

async function call(opId: string, token: string) {
  const op = OPERATIONS.find((o) => o.id === opId)!;
  const make = samples()[opId];
  if (!make) throw new Error(`no sample call for ${opId}`);
  const sample = await make(f);
  return s.call(op.http.method, pathOf(op, sample.params), { body: sample.body, query: sample.query, token });
}

beforeAll(async () => {
  s = await startTestServer();
  f = await fixtures(s);
  const d = await defaults(s);
  adminRoleId = d.adminRoleId;
  orgA = d.orgId;
  orgB = await f.make.org();
  tokens.orgAdmin = (await signedInAdministrator(s, [orgB], 'org-b-admin')).token;
  const tenant = await signedInAdministrator(s, [orgA], 'tenant-admin');
  await s.engine.services.db.query('UPDATE users SET isTenantAdmin = 1 WHERE id = ?', [tenant.userId]);
  tokens.tenantAdmin = tenant.token;
});
afterAll(() => s.stop());

describe(covers('tenant-wide objects: organization administrators × every operation that changes one'), () => {
  it('declares the tenant-wide operations in the catalogue', () => {
    expect(TENANT_WIDE.map((op) => op.id).sort()).toEqual([
      'app.mailServers.delete',
      'app.settings.setCloudApps',
      'app.userDirectories.sync',
      'v1.identityProviders.create',
      'v1.identityProviders.delete',
      'v1.identityProviders.update',
      'v1.mailServers.create',
      'v1.mailServers.update',
      'v1.settings.updateAuthenticationMethods',
      'v1.trustedOrigins.create',
      'v1.trustedOrigins.delete',
      'v1.trustedOrigins.update',
      'v1.userDirectories.create',
      'v1.userDirectories.delete',
      'v1.userDirectories.update',
      'v2.identityProviders.create',
      'v2.identityProviders.update',
    ]);
  });

  it.each(TENANT_WIDE.map((op) => op.id))('organization administrator × %s → 403, nothing changed', async (id) => {
    const op = OPERATIONS.find((o) => o.id === id)!;
    const make = samples()[id];
    const sample = await make(f);
    const before = await snapshot();
    const res = await s.call(op.http.method, pathOf(op, sample.params), {
      body: sample.body,
      query: sample.query,
      token: tokens.orgAdmin,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error).toMatch(/is shared by every organization: only a tenant administrator may change it/);
    expect(await snapshot()).toEqual(before);
  });

  it.each(TENANT_WIDE.map((op) => op.id))('tenant administrator × %s → passes the wall', async (id) => {
    const res = await call(id, tokens.tenantAdmin);
    // Past the wall the operation's own checks answer (a sync of a directory with no server is refused by them).
    expect(res.status, JSON.stringify(res.body)).not.toBe(403);
  });
});

describe(
  covers('roles are the tenant’s: organization administrators × roles by who holds them', 'v1.roles.update'),
  () => {
    const update = (id: string, token: string, permissions: Record<string, boolean>, isActive = true) =>
      s.call('PUT', `/api/v1/roles/${id}`, {
        token,
        body: { name: `Role ${id.slice(0, 6)}`, permissions, isActive, allProjects: true },
      });
    const roleRow = async (id: string) =>
      (await s.engine.services.db.query('SELECT * FROM roles WHERE id = ?', [id]))[0];
    /** A custom role held by a user of each of these organizations. */
    async function heldBy(organizations: string[]) {
      const role = await s.ok('POST', '/api/v1/roles', {
        name: `Held ${randomBytes(3).toString('hex')}`,
        permissions: { viewProject: true },
        isActive: true,
        allProjects: true,
      });
      for (const org of organizations)
        await s.ok('POST', '/api/v1/users', {
          firstName: 'Holder',
          lastName: org.slice(0, 6),
          email: `holder-${randomBytes(3).toString('hex')}@example.com`,
          isActive: true,
          roles: [{ id: role.id }],
          organizations: [{ id: org }],
        });
      return role.id as string;
    }

    it('organization administrator × the built-in Administrator role → 403, unchanged', async () => {
      const before = await roleRow(adminRoleId);
      const res = await update(adminRoleId, tokens.orgAdmin, { viewProject: true }, false);
      expect(res.status).toBe(403);
      expect(res.body.error).toMatch(/built-in role “Administrator” is shared by every organization/);
      expect(await roleRow(adminRoleId)).toEqual(before);
    });

    it('organization administrator × a role held in another organization → 403, unchanged', async () => {
      const id = await heldBy([orgA, orgB]);
      const before = await roleRow(id);
      const res = await update(id, tokens.orgAdmin, { viewProject: true, deleteProject: true });
      expect(res.status).toBe(403);
      expect(res.body.error).toMatch(/held by people of other organizations/);
      expect(await roleRow(id)).toEqual(before);
    });

    it('organization administrator × a role held only in their organization → 200', async () => {
      const id = await heldBy([orgB]);
      const res = await update(id, tokens.orgAdmin, { viewProject: true, deleteProject: true });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(JSON.parse((await roleRow(id)).permissions).deleteProject).toBe(true);
    });

    it('tenant administrator × a role held in another organization → 200', async () => {
      const id = await heldBy([orgA, orgB]);
      expect((await update(id, tokens.tenantAdmin, { viewProject: true, editProject: true })).status).toBe(200);
    });
  },
);

describe('one organization', () => {
  it('lets its administrators change what it shares: there is nobody outside it', async () => {
    const single = await startTestServer();
    try {
      const d = await defaults(single);
      const admin = await signedInAdministrator(single, [d.orgId], 'only-org-admin');
      const res = await single.call('POST', '/api/v1/mail-servers', {
        token: admin.token,
        body: {
          name: 'Office',
          fromName: 'Reports',
          fromAddress: 'reports@example.com',
          hostName: '127.0.0.1',
          smtpPort: 9,
          ssl: false,
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    } finally {
      await single.stop();
    }
  });
});
