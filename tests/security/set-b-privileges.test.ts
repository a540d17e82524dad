// Findings 1–3 of the second probe: set B's transfer, update by type, group joins and member
// permissions let a user grant what they did not hold. Each is a matrix of the actor's rights × the
// target × what is changed; a refusal leaves everything as it was, and the right thing still works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { defaults, signedInUserWith, startTestServer, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';
import { OPERATIONS } from '../../engine/catalogue.js';
import { PERMISSION_FLAGS } from '../../engine/model/members.entity.js';

let s: TestServer;
let d: Awaited<ReturnType<typeof defaults>>;
let otherOrg: string;
let guardedProject: string;
/** A group whose member permissions open everything in the guarded project. */
let strongGroup: string;
/** A role with less than any actor holds. */
let weakRoleId: string;
const tag = () => randomBytes(4).toString('hex');
const all = () => Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, true]));
const only = (...flags: string[]) => Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, flags.includes(f)]));

type Actor = 'editor' | 'groupEditor' | 'tenantAdmin';
const ACTOR_RIGHTS: Record<Actor, Record<string, boolean>> = {
  editor: { viewUser: true, editUser: true },
  groupEditor: { viewUser: true, editUser: true, editGroup: true, viewGroup: true },
  tenantAdmin: { viewUser: true },
};
const actors = {} as Record<Actor, { token: string; userId: string }>;

async function user(kind: 'administrator' | 'weaker' | 'otherOrg' | 'plain'): Promise<string> {
  const roles = kind === 'administrator' ? [{ id: d.adminRoleId }] : kind === 'weaker' ? [{ id: weakRoleId }] : [];
  const organizations = [{ id: kind === 'otherOrg' ? otherOrg : d.orgId }];
  return (
    await s.ok('POST', '/api/v1/users', {
      firstName: 'Target',
      lastName: kind,
      email: `${kind}-${tag()}@example.com`,
      isActive: true,
      roles,
      organizations,
    })
  ).id;
}

/** What a user holds, read from the database: every row a change or transfer could touch. */
async function holdings(id: string) {
  const q = (sql: string) => s.engine.services.db.query(sql, [id]);
  return {
    user: (await q('SELECT kind, isActive, isTenantAdmin FROM users WHERE id = ?'))[0],
    roles: (await q('SELECT targetId FROM user_roles WHERE userId = ? ORDER BY targetId')).map(
      (r: { targetId: string }) => r.targetId,
    ),
    orgs: (await q('SELECT targetId FROM user_organizations WHERE userId = ? ORDER BY targetId')).map(
      (r: { targetId: string }) => r.targetId,
    ),
    groups: (await q('SELECT targetId FROM user_groups WHERE userId = ? ORDER BY targetId')).map(
      (r: { targetId: string }) => r.targetId,
    ),
    members: (await q(
      'SELECT objectId, permissions FROM member_permissions WHERE memberId = ? ORDER BY objectId',
    )) as unknown[],
    created: Number((await q('SELECT COUNT(*) AS n FROM projects WHERE createdBy = ?'))[0].n),
  };
}

beforeAll(async () => {
  s = await startTestServer();
  d = await defaults(s);
  otherOrg = (
    await s.ok('POST', '/api/v1/organizations', {
      displayName: `Elsewhere ${tag()}`,
      themeId: '00000000-0000-0000-0000-000000000001',
    })
  ).id;
  weakRoleId = (
    await s.ok('POST', '/api/v1/roles', {
      name: `Viewer of users ${tag()}`,
      permissions: { viewUser: true },
      isActive: true,
      allProjects: true,
    })
  ).id;
  for (const a of Object.keys(ACTOR_RIGHTS) as Actor[]) actors[a] = await signedInUserWith(s, ACTOR_RIGHTS[a], a);
  await s.engine.services.db.query('UPDATE users SET isTenantAdmin = 1 WHERE id = ?', [actors.tenantAdmin.userId]);
  guardedProject = (await s.ok('POST', '/api/app/projects', { name: `Guarded ${tag()}` })).id;
  await s.ok('PUT', `/api/v2/projects/${guardedProject}/permissions-mode`, undefined, { value: 'true' });
  strongGroup = (await s.ok('POST', '/api/v1/groups', { name: `Insiders ${tag()}`, organizationId: d.orgId })).id;
  await s.ok('PUT', `/api/v2/projects/${guardedProject}/permissions`, {
    members: [{ id: strongGroup, type: 'group' }],
    permissions: all(),
  });
});
afterAll(() => s.stop());

type Target = 'self' | 'administrator' | 'weaker' | 'otherOrg';
type Change =
  | 'organizations: none'
  | 'organizations: another'
  | 'groups: insiders'
  | 'license: Viewer'
  | 'organizationRoles: Administrator';
const CHANGE_BODY: Record<Change, () => { type: string; value: unknown }> = {
  'organizations: none': () => ({ type: 'organizations', value: [] }),
  'organizations: another': () => ({ type: 'organizations', value: [d.orgId, otherOrg] }),
  'groups: insiders': () => ({ type: 'groups', value: [strongGroup] }),
  'license: Viewer': () => ({ type: 'license', value: 'Viewer' }),
  'organizationRoles: Administrator': () => ({ type: 'organizationRoles', value: [d.adminRoleId] }),
};

function expectedUpdate(actor: Actor, target: Target, change: Change): number {
  if (actor === 'tenantAdmin') return 200;
  // Another organization's user, or putting someone into another organization: not there for the actor.
  if (target === 'otherOrg' || change === 'organizations: another') return 404;
  // An administrator given the roles they have is no change at all.
  if (change === 'organizationRoles: Administrator' && target === 'administrator') return 200;
  // Grants: roles, a group's member permissions — never beyond one's own.
  if (change === 'organizationRoles: Administrator' || change === 'groups: insiders') return 403;
  // Taking away from someone stronger is a change of their access.
  return target === 'administrator' ? 403 : 200;
}

const ACTORS = Object.keys(ACTOR_RIGHTS) as Actor[];
const TARGETS: Target[] = ['self', 'administrator', 'weaker', 'otherOrg'];
const CHANGES = Object.keys(CHANGE_BODY) as Change[];
const updateCases = ACTORS.flatMap((a) =>
  TARGETS.flatMap((t) => CHANGES.map((c) => [a, t, c, expectedUpdate(a, t, c)] as const)),
);

describe(covers(`update by type: actor × target × change (${updateCases.length} cases)`, 'v2.users.update'), () => {
  it.each(updateCases)('%s changing %s: %s → %i', async (actor, kind, change, status) => {
    // A target of its own for each case, so no case depends on another; "self" is a fresh user of the actor's rights.
    const me = kind === 'self' ? await signedInUserWith(s, ACTOR_RIGHTS[actor], `self-${actor}`) : actors[actor];
    if (kind === 'self' && actor === 'tenantAdmin')
      await s.engine.services.db.query('UPDATE users SET isTenantAdmin = 1 WHERE id = ?', [me.userId]);
    const id = kind === 'self' ? me.userId : await user(kind);
    const before = await holdings(id);
    const res = await s.call('PUT', `/api/v2/users/${id}`, { token: me.token, body: CHANGE_BODY[change]() });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (status !== 200) {
      expect(await holdings(id)).toEqual(before);
      if (status === 403) expect(res.body.errorDetails?.[0]?.field).toMatch(/^(body\.|params\.id)/);
    }
  });
});

type From = 'administrator' | 'weaker' | 'memberHolder' | 'creator';
type To = 'self' | 'colleague' | 'otherOrg';
type What = 'permissions' | 'content';

function expectedTransfer(actor: Actor, from: From, to: To, what: What): number {
  if (actor === 'tenantAdmin') return 200;
  // Someone of another organization is no one to them: the wall answers as for an id that never was.
  if (to === 'otherOrg') return 404;
  if (from === 'administrator') return 403;
  if (what === 'permissions') return from === 'creator' ? 200 : 403; // roles, or member permissions beyond the actor's
  return from === 'creator' ? 403 : 200; // the creator of a project in permissions mode holds every flag on it
}

/** A user to transfer from: holding what their kind names. */
async function giver(from: From): Promise<string> {
  if (from === 'administrator' || from === 'weaker') return user(from);
  const id = await user('plain');
  if (from === 'memberHolder')
    await s.ok('PUT', `/api/v2/projects/${guardedProject}/permissions`, {
      members: [{ id, type: 'user' }],
      permissions: all(),
    });
  if (from === 'creator') {
    const project = (await s.ok('POST', '/api/app/projects', { name: `Theirs ${tag()}` })).id;
    await s.engine.services.db.query('UPDATE projects SET createdBy = ?, permissionsMode = 1 WHERE id = ?', [
      id,
      project,
    ]);
  }
  return id;
}

const transferCases = ACTORS.flatMap((a) =>
  (['administrator', 'weaker', 'memberHolder', 'creator'] as From[]).flatMap((f) =>
    (['self', 'colleague', 'otherOrg'] as To[]).flatMap((t) =>
      (['permissions', 'content'] as What[]).map((w) => [a, f, t, w, expectedTransfer(a, f, t, w)] as const),
    ),
  ),
);

describe(covers(`transfer: actor × from × to × what (${transferCases.length} cases)`, 'v2.users.transfer'), () => {
  it.each(transferCases)('%s transferring from %s to %s: %s → %i', async (actor, from, to, what, status) => {
    const me = actors[actor];
    const fromId = await giver(from);
    const toId = to === 'self' ? me.userId : await user(to === 'colleague' ? 'plain' : 'otherOrg');
    const before = [await holdings(fromId), await holdings(toId)];
    const body = { newUserID: toId, transferContent: what === 'content', transferPermissions: what === 'permissions' };
    const res = await s.call('POST', `/api/v2/users/${fromId}/transfer`, { token: me.token, body });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (status !== 200) expect([await holdings(fromId), await holdings(toId)]).toEqual(before);
    if (to === 'otherOrg' && status === 404) expect(res.body.errorDetails?.[0]?.field).toBe('body.newUserID');
  });

  it("the escalation that was found: an editor taking an administrator's rights stays an editor", async () => {
    const me = await signedInUserWith(s, { viewUser: true, editUser: true }, 'climber');
    const admin = await user('administrator');
    const res = await s.call('POST', `/api/v2/users/${admin}/transfer`, {
      token: me.token,
      body: { newUserID: me.userId, transferContent: true, transferPermissions: true },
    });
    expect(res.status).toBe(403);
    const callable = (await s.call('GET', '/api/app/auth/me', { token: me.token })).body.data;
    expect((await s.call('GET', '/api/v1/organizations', { token: me.token })).status).toBe(403);
    expect(JSON.stringify(callable)).not.toContain('v1.organizations.list');
  });
});

describe(
  covers(
    "group joins carry the group's member permissions",
    'v1.groups.addUsers',
    'v2.groups.setMembers',
    'v2.users.update',
  ),
  () => {
    it('a group editor cannot put anyone, themselves included, into a group holding more than they do', async () => {
      const me = actors.groupEditor;
      const before = await holdings(me.userId);
      for (const [method, path, body] of [
        ['POST', `/api/v1/groups/${strongGroup}/users`, [me.userId]],
        ['PUT', `/api/v2/groups/${strongGroup}/members`, [me.userId]],
        ['PUT', `/api/v2/users/${me.userId}`, { type: 'groups', value: [strongGroup] }],
      ] as const) {
        const res = await s.call(method, path, { token: me.token, body });
        expect(res.status, `${method} ${path}`).toBe(403);
      }
      expect(await holdings(me.userId)).toEqual(before);
      // A group that holds nothing special is theirs to fill.
      const plain = (await s.ok('POST', '/api/v1/groups', { name: `Plain ${tag()}`, organizationId: d.orgId })).id;
      expect(
        (await s.call('POST', `/api/v1/groups/${plain}/users`, { token: me.token, body: [me.userId] })).status,
      ).toBe(200);
      // Someone who holds the flags may add to it.
      expect((await s.call('POST', `/api/v1/groups/${strongGroup}/users`, { body: [me.userId] })).status).toBe(200);
      await s.ok('DELETE', `/api/v1/groups/${strongGroup}/users`, [me.userId]);
    });
  },
);

type Holder = 'viewer' | 'setter';
type Grant = 'the flags held' | 'one flag more' | 'every flag';
const HELD: Record<'project' | 'report', Record<Holder, string[]>> = {
  project: { viewer: ['viewProject'], setter: ['viewProject', 'viewReport', 'setPermissionsReport'] },
  report: { viewer: ['viewReport'], setter: ['viewReport', 'setPermissionsReport'] },
};

function expectedGrant(kind: 'project' | 'report', holder: Holder, grant: Grant): number {
  // Setting a report's permissions needs its setPermissions flag; then only what one holds is given.
  if (kind === 'report' && holder === 'viewer') return 403;
  return grant === 'the flags held' ? 200 : 403;
}
const grantCases = (['project', 'report'] as const).flatMap((k) =>
  (['viewer', 'setter'] as Holder[]).flatMap((h) =>
    (['the flags held', 'one flag more', 'every flag'] as Grant[]).map(
      (g) => [k, h, g, expectedGrant(k, h, g)] as const,
    ),
  ),
);

describe(
  covers(
    `member permissions: holder × kind × grant (${grantCases.length} cases)`,
    'v2.projects.setPermissions',
    'v2.reports.setPermissions',
    'v2.projects.updatePermissionsMode',
    'v2.reports.setMemberPermission',
    'v2.projects.deleteMemberPermission',
  ),
  () => {
    const ROLE = { viewProject: true, updateProject: true };

    async function project() {
      const id = (await s.ok('POST', '/api/app/projects', { name: `Members ${tag()}` })).id;
      const conn = (
        await s.ok('POST', '/api/v1/analytics-apps', {
          appId: `a-${tag()}`,
          name: `App ${tag()}`,
          folderId: '00000000-0000-0000-0000-000000000000',
          folderPath: '/',
          allowAnalyticsSenseApp: false,
          allowMashup: false,
          defaultOpen: 'Main',
        })
      ).id;
      const connectionID = (
        await s.ok('POST', '/api/app/connections', { projectId: id, name: 'Data', analyticsAppId: conn })
      ).id;
      const report = (
        await s.ok('POST', '/api/v2/reports', { name: `R ${tag()}`, projectID: id, type: 'Html', connectionID })
      ).id;
      await s.ok('PUT', `/api/v2/projects/${id}/permissions-mode`, undefined, { value: 'true' });
      return { id, report };
    }

    it.each(grantCases)('a %s %s granting %s → %i', async (kind, holder, grant, status) => {
      const p = await project();
      const me = await signedInUserWith(s, ROLE, `member-${holder}`);
      const other = await signedInUserWith(s, ROLE, 'other');
      await s.ok('PUT', `/api/v2/projects/${p.id}/permissions`, {
        members: [{ id: me.userId, type: 'user' }],
        permissions: only('viewProject', ...(kind === 'project' ? HELD.project[holder] : [])),
      });
      if (kind === 'report')
        await s.ok('PUT', `/api/v2/reports/${p.report}/permissions`, {
          members: [{ id: me.userId, type: 'user' }],
          permissions: only(...HELD.report[holder]),
        });
      const held = HELD[kind][holder];
      const extra = kind === 'project' ? 'deleteReport' : 'editReport';
      const flags =
        grant === 'the flags held' ? only(...held) : grant === 'one flag more' ? only(...held, extra) : all();
      const path =
        kind === 'project' ? `/api/v2/projects/${p.id}/permissions` : `/api/v2/reports/${p.report}/permissions`;
      const before = await s.engine.services.db.query(
        'SELECT memberId, permissions FROM member_permissions WHERE projectId = ? ORDER BY memberId, objectId',
        [p.id],
      );
      const res = await s.call('PUT', path, {
        token: me.token,
        body: {
          members: [{ id: grant === 'every flag' ? me.userId : other.userId, type: 'user' }],
          permissions: flags,
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      if (status !== 200)
        expect(
          await s.engine.services.db.query(
            'SELECT memberId, permissions FROM member_permissions WHERE projectId = ? ORDER BY memberId, objectId',
            [p.id],
          ),
        ).toEqual(before);
      if (status === 403 && holder === 'setter')
        expect(res.body.errorDetails?.[0]?.field).toMatch(/^body\.permissions\./);
    });

    it('the takeover that was found: a viewer neither grants themselves everything nor switches the mode off', async () => {
      const p = await project();
      const me = await signedInUserWith(s, ROLE, 'viewer');
      await s.ok('PUT', `/api/v2/projects/${p.id}/permissions`, {
        members: [{ id: me.userId, type: 'user' }],
        permissions: only('viewProject'),
      });
      const grab = await s.call('PUT', `/api/v2/projects/${p.id}/permissions`, {
        token: me.token,
        body: { members: [{ id: me.userId, type: 'user' }], permissions: all() },
      });
      expect(grab.status, 'grab').toBe(403);
      const off = await s.call('PUT', `/api/v2/projects/${p.id}/permissions-mode`, {
        token: me.token,
        query: { value: 'false' },
      });
      expect(off.status, 'mode off').toBe(403);
      expect((await s.ok('GET', `/api/app/projects/${p.id}`)).permissionsMode).toBe(true);
      expect((await s.call('GET', `/api/v1/reports/${p.report}`, { token: me.token })).status).toBe(404);
      // Nor may they change or remove a set stronger than their own (the owner's grant to someone else).
      const other = await signedInUserWith(s, ROLE, 'other');
      const rows = await s.ok('PUT', `/api/v2/projects/${p.id}/permissions`, {
        members: [{ id: other.userId, type: 'user' }],
        permissions: all(),
      });
      const row = rows.find((r: { memberId: string }) => r.memberId === other.userId);
      expect(
        (await s.call('DELETE', `/api/v2/projects/${p.id}/permissions/${row.id}`, { token: me.token })).status,
        'delete a stronger set',
      ).toBe(403);
      // The creator switches the mode; a tenant administrator too.
      expect(
        (
          await s.call('PUT', `/api/v2/projects/${p.id}/permissions-mode`, {
            token: actors.tenantAdmin.token,
            query: { value: 'false' },
          })
        ).status,
      ).toBe(200);
    });
  },
);

describe('every operation on member-bounded objects declares its member kind and action', () => {
  const areas =
    /^(v1|v2|app)\.(projects|reports|filters|conditions|conditionRules|tasks|taskReports|taskRecipients|taskTriggers|taskSchedules|taskExternalEvents|taskEmail|onDemand|requests|subscriptions|connections)\./;
  const bounded = OPERATIONS.filter((op) => areas.test(op.id));
  it.each(bounded.map((op) => [op.id, op] as const))('%s declares what it does', (_id, op) => {
    expect((op as { member?: object }).member, `${op.id} has no member declaration`).toBeTruthy();
  });
});
