// Set B member permissions over HTTP. A project in permissions mode: for each kind of object and each
// flag of its set, a user holding only that flag (with the view flag that lets them reach the object)
// may do exactly that and gets 403 for the rest; without the view flag everything is 404 and the
// lists never show the object. Object rows override the project's; groups count; mode off opens all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, signedInUserWith, defaults, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';
import { until } from '../support/until.js';

let s: TestServer;
let projectId: string;
let connectionId: string;
let orgId: string;
let n = 0;
const uniq = (p: string) => `${p} ${++n}`;

/** Roles open everything these tests touch: member permissions alone decide. */
const ROLE = {
  viewProject: true,
  updateProject: true,
  viewTask: true,
  createTask: true,
  editTask: true,
  deleteTask: true,
  runTask: true,
  viewCondition: true,
  createCondition: true,
  editCondition: true,
  deleteCondition: true,
};
type Kind = 'report' | 'filter' | 'condition' | 'task';
const NAME: Record<Kind, string> = { report: 'Report', filter: 'Filter', condition: 'Condition', task: 'Task' };
const PATH: Record<Kind, string> = {
  report: '/api/v2/reports',
  filter: '/api/v2/filters',
  condition: '/api/v2/conditions',
  task: '/api/v2/tasks',
};

async function make(kind: Kind): Promise<string> {
  if (kind === 'report')
    return (
      await s.ok('POST', '/api/v2/reports', {
        name: uniq('Report'),
        projectID: projectId,
        type: 'Html',
        connectionID: connectionId,
      })
    ).id;
  if (kind === 'filter')
    return (await s.ok('POST', '/api/v2/filters', { name: uniq('Filter'), projectID: projectId })).id;
  if (kind === 'condition')
    return (await s.ok('POST', '/api/v1/conditions', { projectId, name: uniq('Condition'), isActive: true })).id;
  return (await s.ok('POST', '/api/v2/tasks', { name: uniq('Task'), projectID: projectId })).id;
}

type Call = [string, string, unknown?, Record<string, string>?];
/** An HTML template of the demo app, as the template operations take it. */
const TEMPLATE = () => ({
  fileName: 'Member.html',
  content: Buffer.from('<h1>{{vTotalSales}}</h1>').toString('base64'),
});
/** What each action of a kind is over HTTP: the calls each flag of the set allows. */
const ACTIONS: Record<Kind, Record<string, (id: string) => Call | Call[]>> = {
  report: {
    viewReport: (id) => [
      ['GET', `/api/v1/reports/${id}`],
      ['GET', `/api/v1/reports/${id}/template-items`],
    ],
    // Checking and uploading a template is editing the report (the upload makes it a template report).
    editReport: (id) => [
      ['PUT', `/api/v2/reports/${id}`, { name: uniq('Renamed'), isIteration: false }],
      ['POST', `/api/app/reports/${id}/template/check`, TEMPLATE()],
      ['PUT', `/api/app/reports/${id}/template`, TEMPLATE()],
    ],
    runReport: (id) => ['POST', `/api/v2/reports/${id}/generate`, { selections: [] }, { outputFormat: 'Html' }],
    duplicateReport: (id) => [
      'POST',
      `/api/v2/reports/${id}/duplicate`,
      { projectID: projectId, organizationID: orgId },
    ],
    setPermissionsReport: (id) => ['DELETE', `/api/v2/reports/${id}/permissions`, []],
    deleteReport: (id) => ['DELETE', `/api/app/reports/${id}`],
  },
  filter: {
    viewFilter: (id) => ['GET', `/api/app/filters/${id}/permissions`],
    editFilter: (id) => ['PUT', `/api/v2/filters/${id}`, { name: uniq('Renamed'), projectID: projectId }],
    duplicateFilter: (id) => [
      'POST',
      `/api/v2/filters/${id}/duplicate`,
      { projectID: projectId, organizationID: orgId },
    ],
    setPermissionsFilter: (id) => ['DELETE', `/api/v2/filters/${id}/permissions`, []],
    deleteFilter: (id) => ['DELETE', `/api/app/filters/${id}`],
  },
  condition: {
    viewCondition: (id) => ['GET', `/api/v1/conditions/${id}`],
    editCondition: (id) => ['PUT', `/api/v1/conditions/${id}`, { projectId, name: uniq('Renamed'), isActive: true }],
    duplicateCondition: (id) => [
      'POST',
      `/api/v2/conditions/${id}/duplicate`,
      { projectID: projectId, organizationID: orgId },
    ],
    setPermissionsCondition: (id) => ['DELETE', `/api/v2/conditions/${id}/permissions`, []],
    deleteCondition: (id) => ['DELETE', '/api/v1/conditions', [id]],
  },
  task: {
    viewTask: (id) => ['GET', `/api/v1/tasks/${id}`],
    editTask: (id) => ['PUT', `/api/v1/tasks/${id}`, { name: uniq('Renamed'), isActive: true }],
    runTask: (id) => ['POST', `/api/v2/requests/${id}/run`],
    duplicateTask: (id) => ['POST', `/api/v1/tasks/${id}/duplicate`, { newName: uniq('Copy') }],
    setPermissionsTask: (id) => ['DELETE', `/api/v2/tasks/${id}/permissions`, []],
    deleteTask: (id) => ['DELETE', '/api/v1/tasks', [id]],
  },
};
const LIST: Record<Kind, string> = {
  report: '/api/v1/reports',
  filter: '/api/v1/filters',
  condition: '/api/v1/conditions',
  task: '/api/v1/tasks',
};

const call = (token: string, [method, path, body, query]: Call) => s.call(method, path, { token, body, query });
const calls = (c: Call | Call[]): Call[] => (Array.isArray(c[0]) ? (c as Call[]) : [c as Call]);
const listed = async (token: string, kind: Kind) => {
  const r = await s.call('GET', LIST[kind], { token, query: kind === 'filter' ? { projectId } : { get_all: true } });
  return (r.body.data as { id: string }[]).map((x) => x.id);
};
const only = (flags: string[]) => Object.fromEntries(flags.map((f) => [f, true]));

beforeAll(async () => {
  s = await startTestServer({ demo: true });
  orgId = (await defaults(s)).orgId;
  const [demo] = await s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
  projectId = demo.projectId;
  connectionId = demo.connectionId;
});
afterAll(() => s.stop());

/** A member's permission set with every flag of set B 2.1 named (false unless listed). */
let FLAGS: string[] = [];
const set = (flags: string[]) => ({ ...Object.fromEntries(FLAGS.map((f) => [f, false])), ...only(flags) });

describe(
  covers(
    'member permissions',
    'v2.projects.updatePermissionsMode',
    'v2.projects.setPermissions',
    'v2.reports.setPermissions',
    'v2.filters.setPermissions',
    'v2.conditions.setPermissions',
    'v2.tasks.setPermissions',
    'v2.reports.getMemberPermission',
    'v2.reports.setMemberPermission',
    'v2.projects.deleteMemberPermission',
    'v2.tasks.deleteMemberPermissions',
    'app.requests.list',
  ),
  () => {
    it('lets a user holding one flag do exactly that, 403 for the rest, and 404 with nothing', async () => {
      const { PERMISSION_FLAGS } = await import('../../engine/model/members.entity.js');
      FLAGS = [...PERMISSION_FLAGS];
      const nobody = await signedInUserWith(s, ROLE, 'nobody');
      await s.ok('PUT', `/api/v2/projects/${projectId}/permissions-mode`, undefined, { value: 'true' });
      for (const kind of Object.keys(ACTIONS) as Kind[]) {
        for (const flag of Object.keys(ACTIONS[kind])) {
          const user = await signedInUserWith(s, ROLE, `${kind}-${flag}`);
          const id = await make(kind);
          const other = await make(kind);
          // The project shows to them (viewProject) and gives nothing else; the object gives view and the flag.
          await s.ok('PUT', `/api/v2/projects/${projectId}/permissions`, {
            members: [{ id: user.userId, type: 'user' }],
            permissions: set(['viewProject']),
          });
          await s.ok('PUT', `${PATH[kind]}/${id}/permissions`, {
            members: [{ id: user.userId, type: 'User' }],
            permissions: set([`view${NAME[kind]}`, flag]),
          });
          expect(await listed(user.token, kind), `${kind} list for ${flag}`).toContain(id);
          expect(await listed(user.token, kind)).not.toContain(other);
          expect(await listed(nobody.token, kind)).not.toContain(id);
          // Deleting last: it takes the object away.
          const order = Object.keys(ACTIONS[kind]).sort(
            (a, b) => Number(a.startsWith('delete')) - Number(b.startsWith('delete')),
          );
          for (const action of order) {
            const allowed = action === flag || action === `view${NAME[kind]}`;
            for (const [k, one] of calls(ACTIONS[kind][action](id)).entries()) {
              const res = await call(user.token, one);
              if (allowed)
                expect(
                  [403, 404],
                  `${flag} holder doing ${action} (${one[1]}): ${JSON.stringify(res.body)}`,
                ).not.toContain(res.status);
              else
                expect(res.status, `${flag} holder doing ${action} (${one[1]}): ${JSON.stringify(res.body)}`).toBe(403);
              expect(
                (await call(nobody.token, calls(ACTIONS[kind][action](other))[k])).status,
                `no member doing ${action}`,
              ).toBe(404);
            }
          }
        }
      }
    });

    it("falls back to the project's set, is overridden by the object's, counts groups, and opens up with the mode off", async () => {
      const alice = await signedInUserWith(s, ROLE, 'alice');
      const bob = await signedInUserWith(s, ROLE, 'bob');
      const group = await s.ok('POST', '/api/v1/groups', { name: uniq('Analysts'), organizationId: orgId });
      await s.ok('POST', `/api/v1/groups/${group.id}/users`, [bob.userId]);
      const [r1, r2] = [await make('report'), await make('report')];
      await s.ok('PUT', `/api/v2/projects/${projectId}/permissions-mode`, undefined, { value: 'true' });
      expect(
        (await s.call('GET', '/api/v1/projects', { token: alice.token, query: { get_all: true } })).body.data.map(
          (p: { id: string }) => p.id,
        ),
      ).not.toContain(projectId);
      expect((await s.call('GET', `/api/v1/reports/${r1}`, { token: alice.token })).status).toBe(404);

      // The project's set for a group: both of its reports show to its members, read-only.
      const members = await s.ok('PUT', `/api/v2/projects/${projectId}/permissions`, {
        members: [
          { id: group.id, type: 'group' },
          { id: alice.userId, type: 'user' },
        ],
        permissions: set(['viewProject', 'viewReport']),
      });
      expect(members.find((m: { memberId: string }) => m.memberId === group.id)).toMatchObject({
        memberType: 'group',
        memberName: group.name,
      });
      for (const who of [alice, bob]) {
        const ids = await listed(who.token, 'report');
        expect(ids).toEqual(expect.arrayContaining([r1, r2]));
        expect(
          (
            await s.call('PUT', `/api/v2/reports/${r1}`, {
              token: who.token,
              body: { name: uniq('No'), isIteration: false },
            })
          ).status,
        ).toBe(403);
      }
      // The object's own rows win: alice may edit r1, and r2 is gone for her (a row with no view).
      const [onR1] = await s.ok('PUT', `/api/v2/reports/${r1}/permissions`, {
        members: [{ id: alice.userId, type: 'user' }],
        permissions: set(['viewReport', 'editReport']),
      });
      await s.ok('PUT', `/api/v2/reports/${r2}/permissions`, {
        members: [{ id: alice.userId, type: 'user' }],
        permissions: set([]),
      });
      expect(
        (
          await s.call('PUT', `/api/v2/reports/${r1}`, {
            token: alice.token,
            body: { name: uniq('Yes'), isIteration: false },
          })
        ).status,
      ).toBe(200);
      expect((await s.call('GET', `/api/v1/reports/${r2}`, { token: alice.token })).status).toBe(404);
      expect(await listed(alice.token, 'report')).not.toContain(r2);
      expect(await listed(bob.token, 'report')).toContain(r2);
      // One flag of one member changes alone; the others stay.
      const changed = await s.ok('PUT', `/api/v2/reports/${r1}/permissions/${onR1.id}`, {
        editReport: false,
        runReport: true,
      });
      expect(changed.permissions).toMatchObject({ viewReport: true, editReport: false, runReport: true });
      expect((await s.ok('GET', `/api/v2/reports/${r1}/permissions/${onR1.id}`)).permissions.runReport).toBe(true);
      expect(
        (
          await s.call('PUT', `/api/v2/reports/${r1}`, {
            token: alice.token,
            body: { name: uniq('No'), isIteration: false },
          })
        ).status,
      ).toBe(403);
      // Leaving the group takes bob's view away at once.
      await s.ok('DELETE', `/api/v1/groups/${group.id}/users`, [bob.userId]);
      expect(await listed(bob.token, 'report')).not.toContain(r1);
      // Removing a project row; a member row of another object is refused, naming it.
      const projectRows = await s.ok('GET', `/api/app/projects/${projectId}/permissions`);
      const aliceRow = projectRows.find((m: { memberId: string }) => m.memberId === alice.userId);
      await s.ok('DELETE', `/api/v2/projects/${projectId}/permissions/${aliceRow.id}`);
      const task = await make('task');
      const wrong = await s.call('DELETE', `/api/v2/tasks/${task}/permissions`, { body: [onR1.id] });
      expect(wrong.status).toBe(400);
      expect(wrong.body.errorDetails?.[0].field).toBe('body.0');
      // Mode off: roles alone decide again.
      await s.ok('PUT', `/api/v2/projects/${projectId}/permissions-mode`, undefined, { value: 'false' });
      expect(await listed(alice.token, 'report')).toEqual(expect.arrayContaining([r1, r2]));
      expect(
        (
          await s.call('PUT', `/api/v2/reports/${r2}`, {
            token: alice.token,
            body: { name: uniq('Open'), isIteration: false },
          })
        ).status,
      ).toBe(200);
    });

    it('shows run history only of the tasks a member may view', async () => {
      await s.ok('PUT', `/api/v2/projects/${projectId}/permissions-mode`, undefined, { value: 'true' });
      const seen = await make('task');
      const hidden = await make('task');
      for (const task of [seen, hidden]) await s.ok('POST', `/api/v2/requests/${task}/run`);
      const runOf = async (task: string) =>
        (
          await until(
            () => s.ok('GET', '/api/v1/requests', undefined, { task_id: task, get_all: true }),
            (x: { id: string }[]) => x.length > 0,
          )
        )[0].id;
      const [seenRun, hiddenRun] = [await runOf(seen), await runOf(hidden)];
      const watcher = await signedInUserWith(s, { ...ROLE, viewTaskStatus: true }, 'watcher');
      await s.ok('PUT', `/api/v2/projects/${projectId}/permissions`, {
        members: [{ id: watcher.userId, type: 'user' }],
        permissions: set(['viewProject']),
      });
      await s.ok('PUT', `/api/v2/tasks/${seen}/permissions`, {
        members: [{ id: watcher.userId, type: 'user' }],
        permissions: set(['viewTask']),
      });
      const runs = (
        await s.call('GET', '/api/v1/requests', { token: watcher.token, query: { get_all: true } })
      ).body.data.map((r: { id: string }) => r.id);
      expect(runs).toContain(seenRun);
      expect(runs).not.toContain(hiddenRun);
      expect((await s.call('GET', `/api/v1/requests/${hiddenRun}/log`, { token: watcher.token })).status).toBe(404);
      expect((await s.call('GET', `/api/v1/requests/${seenRun}/log`, { token: watcher.token })).status).toBe(200);
    });

    it('refuses members that do not exist and sets that are not whole, naming the field', async () => {
      const report = await make('report');
      const missing = await s.call('PUT', `/api/v2/reports/${report}/permissions`, {
        body: { members: [{ id: '7b1e0a4e-1111-4222-8333-944455556666', type: 'user' }], permissions: set([]) },
      });
      expect(missing.status).toBe(400);
      expect(missing.body.errorDetails?.[0].field).toBe('body.members.0.id');
      const partial = await s.call('PUT', `/api/v2/reports/${report}/permissions`, {
        body: { members: [{ id: (await defaults(s)).ownerId, type: 'user' }], permissions: { viewReport: true } },
      });
      expect(partial.status).toBe(400);
      expect(partial.body.errorDetails?.map((e: { field: string }) => e.field)).toContain(
        'body.permissions.editReport',
      );
      const badType = await s.call('PUT', `/api/v2/reports/${report}/permissions`, {
        body: { members: [{ id: (await defaults(s)).ownerId, type: 'robot' }], permissions: set([]) },
      });
      expect(badType.body.errorDetails?.[0].field).toBe('body.members.0.type');
    });
  },
);

describe(covers('what the caller may do, for the screens', 'app.projects.access'), () => {
  it('answers per object the operations the checks allow, agreeing with the calls, refusals in words', async () => {
    const { PERMISSION_FLAGS } = await import('../../engine/model/members.entity.js');
    FLAGS = [...PERMISSION_FLAGS];
    await s.ok('PUT', `/api/v2/projects/${projectId}/permissions-mode`, undefined, { value: 'true' });
    const viewer = await signedInUserWith(s, ROLE, 'access-viewer');
    const editor = await signedInUserWith(s, ROLE, 'access-editor');
    const report = await make('report');
    const hidden = await make('report');
    await s.ok('PUT', `/api/v2/projects/${projectId}/permissions`, {
      members: [
        { id: viewer.userId, type: 'user' },
        { id: editor.userId, type: 'user' },
      ],
      permissions: set(['viewProject']),
    });
    for (const [user, flags] of [
      [viewer, ['viewReport']],
      [editor, ['viewReport', 'editReport']],
    ] as const)
      await s.ok('PUT', `/api/v2/reports/${report}/permissions`, {
        members: [{ id: user.userId, type: 'User' }],
        permissions: set([...flags]),
      });
    const access = async (token: string) => {
      const res = await s.call('GET', `/api/app/projects/${projectId}/access`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data as { project: string[]; reports: Record<string, string[]> };
    };
    const seen = await access(viewer.token);
    const edits = await access(editor.token);
    const owner = await access(s.ownerKey);
    // Only what they may see is answered for; the owner may do everything to both.
    expect(Object.keys(seen.reports)).toEqual([report]);
    expect(Object.keys(owner.reports)).toEqual(expect.arrayContaining([report, hidden]));
    for (const id of ['app.reports.get', 'app.reports.preview']) expect(seen.reports[report]).toContain(id);
    for (const id of ['v2.reports.update', 'app.reports.delete', 'v2.reports.setPermissions'])
      expect(seen.reports[report]).not.toContain(id);
    expect(edits.reports[report]).toContain('v2.reports.update');
    expect(edits.reports[report]).not.toContain('app.reports.delete');
    expect(owner.reports[report]).toEqual(expect.arrayContaining(['v2.reports.update', 'app.reports.delete']));
    // Creating in the project needs the project's create flag, which neither holds.
    expect(seen.project).not.toContain('v2.reports.create');
    expect(owner.project).toContain('v2.reports.create');
    // The answer agrees with the calls: refused for the viewer (in words), done for the editor.
    const rename = (token: string) =>
      s.call('PUT', `/api/v2/reports/${report}`, { token, body: { name: uniq('Renamed'), isIteration: false } });
    const refused = await rename(viewer.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('Your member permissions do not let you change this report');
    expect((await rename(editor.token)).status).toBe(200);
    const noRole = await signedInUserWith(s, { viewProject: true }, 'access-no-role');
    const roleRefused = await s.call('POST', '/api/v2/tasks', {
      token: noRole.token,
      body: { name: uniq('Task'), projectID: projectId },
    });
    expect(roleRefused.status).toBe(403);
    expect(roleRefused.body.error).toBe('Your roles do not let you create tasks');
    await s.ok('PUT', `/api/v2/projects/${projectId}/permissions-mode`, undefined, { value: 'false' });
  });
});

describe(covers('the members of an object saved as one', 'app.reports.savePermissions'), () => {
  const members = async (report: string) =>
    (
      (await s.ok('GET', `/api/app/reports/${report}/permissions`)) as {
        memberId: string;
        permissions: Record<string, boolean>;
      }[]
    )
      .map(
        (m) =>
          `${m.memberId}: ${Object.keys(m.permissions)
            .filter((f) => m.permissions[f])
            .sort()
            .join(' ')}`,
      )
      .sort();

  it('writes exactly the members listed with their sets; a refused member writes nothing, named by place', async () => {
    const { PERMISSION_FLAGS } = await import('../../engine/model/members.entity.js');
    FLAGS = [...PERMISSION_FLAGS];
    const viewer = await signedInUserWith(s, ROLE, 'save-viewer');
    const editor = await signedInUserWith(s, ROLE, 'save-editor');
    const report = await make('report');
    await s.ok('PUT', `/api/app/reports/${report}/permissions`, {
      members: [
        { id: viewer.userId, type: 'user', permissions: set(['viewReport']) },
        { id: editor.userId, type: 'user', permissions: set(['viewReport', 'editReport']) },
      ],
    });
    expect(await members(report)).toEqual(
      [`${viewer.userId}: viewReport`, `${editor.userId}: editReport viewReport`].sort(),
    );
    // The viewer left out goes; the editor's set is replaced.
    await s.ok('PUT', `/api/app/reports/${report}/permissions`, {
      members: [{ id: editor.userId, type: 'user', permissions: set(['viewReport', 'runReport']) }],
    });
    expect(await members(report)).toEqual([`${editor.userId}: runReport viewReport`]);

    const before = await members(report);
    const unknown = await s.call('PUT', `/api/app/reports/${report}/permissions`, {
      body: {
        members: [
          { id: viewer.userId, type: 'user', permissions: set(['viewReport']) },
          { id: '00000000-0000-4000-8000-000000000321', type: 'group', permissions: set(['viewReport']) },
        ],
      },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errorDetails?.map((d) => d.field)).toContain('body.members.1.id');
    expect(await members(report)).toEqual(before);
  });

  it('refuses a member granting what they do not hold, and writes nothing', async () => {
    FLAGS = [...(await import('../../engine/model/members.entity.js')).PERMISSION_FLAGS];
    await s.ok('PUT', `/api/v2/projects/${projectId}/permissions-mode`, undefined, { value: 'true' });
    try {
      const keeper = await signedInUserWith(s, { ...ROLE, viewReport: true, editReport: true }, 'save-keeper');
      const other = await signedInUserWith(s, ROLE, 'save-other');
      const report = await make('report');
      await s.ok('PUT', `/api/v2/projects/${projectId}/permissions`, {
        members: [{ id: keeper.userId, type: 'user' }],
        permissions: set(['viewProject']),
      });
      await s.ok('PUT', `/api/v2/reports/${report}/permissions`, {
        members: [{ id: keeper.userId, type: 'user' }],
        permissions: set(['viewReport', 'setPermissionsReport']),
      });
      const before = await members(report);
      const r = await s.call('PUT', `/api/app/reports/${report}/permissions`, {
        token: keeper.token,
        body: {
          members: [
            { id: keeper.userId, type: 'user', permissions: set(['viewReport', 'setPermissionsReport']) },
            { id: other.userId, type: 'user', permissions: set(['viewReport', 'deleteReport']) },
          ],
        },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(403);
      expect(await members(report)).toEqual(before);
    } finally {
      await s.ok('PUT', `/api/v2/projects/${projectId}/permissions-mode`, undefined, { value: 'false' });
    }
  });
});

describe(
  covers('connections are the project’s own setting', 'app.connections.create', 'app.connections.delete'),
  () => {
    it('in permissions mode a member who may view the project cannot add or remove its connections; the owner can', async () => {
      FLAGS = [...(await import('../../engine/model/members.entity.js')).PERMISSION_FLAGS];
      await s.ok('PUT', `/api/v2/projects/${projectId}/permissions-mode`, undefined, { value: 'true' });
      try {
        const member = await signedInUserWith(s, ROLE, 'conn-member');
        await s.ok('PUT', `/api/v2/projects/${projectId}/permissions`, {
          members: [{ id: member.userId, type: 'user' }],
          permissions: set(['viewProject', 'createReport']),
        });
        const [app] = await s.ok('GET', '/api/v1/analytics-apps', undefined, { get_all: true });
        const body = { projectId, name: uniq('Second connection'), analyticsAppId: app.id };
        const before = (await s.ok('GET', '/api/v1/connections', undefined, { projectId })).length;
        const refused = await s.call('POST', '/api/app/connections', { token: member.token, body });
        expect(refused.status).toBe(403);
        expect((await s.ok('GET', '/api/v1/connections', undefined, { projectId })).length).toBe(before);
        const made = await s.ok('POST', '/api/app/connections', body);
        const removal = await s.call('DELETE', `/api/app/connections/${made.id}`, { token: member.token });
        expect(removal.status).toBe(403);
        await s.ok('DELETE', `/api/app/connections/${made.id}`);
        expect((await s.ok('GET', '/api/v1/connections', undefined, { projectId })).length).toBe(before);
      } finally {
        await s.ok('PUT', `/api/v2/projects/${projectId}/permissions-mode`, undefined, { value: 'false' });
      }
    });
  },
);
