// Organizations are boundaries: a user of one organization neither sees nor changes what belongs to
// another (projects and their reports, groups, users, resources, analytics apps, the organization
// itself), by id or in a list; a user of both sees both; tenant administrators see all.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { startTestServer, signedInUserWith, defaults, DEFAULT_THEME, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';
import { ROLE_PERMISSIONS } from '../../engine/core/permissions.js';

let s: TestServer;
let home: string;
let away: { org: string; project: string; report: string; group: string; user: string; resource: string; app: string };
let homeProject: string;
let local: { token: string; userId: string };

// Every role permission: what stops them is the boundary, not a missing right.
const EVERYTHING = Object.fromEntries(ROLE_PERMISSIONS.map((p) => [p, true]));
const uniq = (p: string) => `${p} ${randomBytes(3).toString('hex')}`;

beforeAll(async () => {
  s = await startTestServer();
  home = (await defaults(s)).orgId;
  const org = (await s.ok('POST', '/api/v1/organizations', { displayName: uniq('Elsewhere'), themeId: DEFAULT_THEME }))
    .id as string;
  const project = (await s.ok('POST', '/api/app/projects', { name: uniq('Their project'), organizationId: org }))
    .id as string;
  homeProject = (await s.ok('POST', '/api/app/projects', { name: uniq('Our project'), organizationId: home }))
    .id as string;
  const report = (
    await s.ok('POST', '/api/v2/reports', { name: uniq('Their report'), projectID: project, type: 'Html' })
  ).id as string;
  const group = (await s.ok('POST', '/api/v1/groups', { name: uniq('Their group'), organizationId: org })).id as string;
  const user = (
    await s.ok('POST', '/api/v1/users', {
      firstName: 'Otto',
      lastName: 'Other',
      email: `otto-${randomBytes(3).toString('hex')}@example.com`,
      isActive: true,
      organizations: [{ id: org }],
    })
  ).id as string;
  const resource = (
    await s.ok('POST', '/api/v1/resources', {
      name: uniq('Their link'),
      type: 'link',
      organizationId: org,
      url: 'https://example.com/theirs',
    })
  ).id as string;
  const app = (
    await s.ok('POST', '/api/v1/analytics-apps', {
      appId: `their-${randomBytes(3).toString('hex')}`,
      name: uniq('Their app'),
      folderId: '00000000-0000-0000-0000-000000000000',
      folderPath: '/',
      allowAnalyticsSenseApp: false,
      allowMashup: false,
      defaultOpen: 'Main',
      organizationId: org,
    })
  ).id as string;
  away = { org, project, report, group, user, resource, app };
  local = await signedInUserWith(s, { ...EVERYTHING }, 'local');
});
afterAll(() => s.stop());

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);
const list = async (path: string, token: string | undefined) => {
  const r = await s.call('GET', path, { token, query: { get_all: true } });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return ids(r.body.data);
};

describe(
  covers(
    'organizations as boundaries',
    'v1.projects.list',
    'v1.organizations.list',
    'v1.groups.list',
    'v1.users.list',
    'v1.resources.list',
    'v1.analyticsApps.list',
    'app.projects.get',
    'app.reports.get',
    'v1.groups.update',
    'v1.users.update',
    'v1.resources.update',
    'v1.analyticsApps.update',
    'v1.organizations.update',
    'v1.groups.delete',
  ),
  () => {
    it("keeps another organization's objects out of every list", async () => {
      const t = local.token;
      expect(await list('/api/v1/projects', t)).toContain(homeProject);
      expect(await list('/api/v1/projects', t)).not.toContain(away.project);
      expect(await list('/api/v1/organizations', t)).toEqual([home]);
      const groups = await s.call('GET', '/api/v1/groups', { token: t, query: { get_all: true } });
      expect(ids(groups.body.data)).not.toContain(away.group);
      // "All users" belongs to no organization: everyone shares it.
      expect(groups.body.data.map((g: { name: string }) => g.name)).toContain('All users');
      expect(await list('/api/v1/users', t)).not.toContain(away.user);
      expect(await list('/api/v1/users', t)).toContain(local.userId);
      expect(await list('/api/v1/resources', t)).not.toContain(away.resource);
      expect(await list('/api/v1/analytics-apps', t)).not.toContain(away.app);
      expect(await list('/api/v1/reports', t)).not.toContain(away.report);
    });

    it("answers 404 for another organization's ids, and changes nothing", async () => {
      const t = local.token;
      const status = async (method: string, path: string, body?: unknown) =>
        (await s.call(method, path, { token: t, body })).status;
      expect(await status('GET', `/api/app/projects/${away.project}`)).toBe(404);
      expect(await status('GET', `/api/v1/reports/${away.report}`)).toBe(404);
      expect(
        await status('PUT', `/api/v1/groups/${away.group}`, {
          name: 'Taken over',
          organizationId: home,
          isActive: true,
        }),
      ).toBe(404);
      expect(
        await status('PUT', `/api/v1/users/${away.user}`, {
          firstName: 'Taken',
          lastName: 'Over',
          isActive: false,
          organizations: [{ id: home }],
        }),
      ).toBe(404);
      expect(
        await status('PUT', `/api/v1/resources/${away.resource}`, {
          name: 'Taken over',
          type: 'link',
          organizationId: home,
          url: 'https://example.com/x',
        }),
      ).toBe(404);
      expect(
        await status('PUT', `/api/v1/organizations/${away.org}`, { displayName: 'Taken over', themeId: DEFAULT_THEME }),
      ).toBe(404);
      expect(await status('DELETE', '/api/v1/groups', [away.group])).toBe(404);
      // Nor can anything be put into their organization.
      expect(await status('POST', '/api/app/projects', { name: uniq('Planted'), organizationId: away.org })).toBe(404);
      expect(
        await status('POST', '/api/v1/users', {
          firstName: 'Planted',
          lastName: 'User',
          email: null,
          isActive: true,
          organizations: [{ id: away.org }],
        }),
      ).toBe(404);
      expect(
        await status('PUT', `/api/v2/users/${local.userId}`, { type: 'organizations', value: [home, away.org] }),
      ).toBe(404);
      // And nothing of theirs was touched.
      const theirs = await s.ok('GET', '/api/v1/groups', undefined, { get_all: true });
      expect(theirs.find((g: { id: string }) => g.id === away.group).name).toMatch(/^Their group/);
      expect(
        (await s.ok('GET', '/api/v1/users', undefined, { get_all: true })).find(
          (u: { id: string }) => u.id === away.user,
        ).isActive,
      ).toBe(true);
    });

    it('shows both organizations to a member of both, and everything to a tenant administrator', async () => {
      const both = await signedInUserWith(s, { ...EVERYTHING }, 'both');
      await s.ok('PUT', `/api/v2/users/${both.userId}`, { type: 'organizations', value: [home, away.org] });
      // The change reaches the next request: organizations are read per request, not per sign-in.
      expect(await list('/api/v1/projects', both.token)).toEqual(expect.arrayContaining([homeProject, away.project]));
      expect((await s.call('GET', `/api/v1/reports/${away.report}`, { token: both.token })).status).toBe(200);
      expect(await list('/api/v1/groups', both.token)).toContain(away.group);
      // The owner is in the default organization only, and sees every organization's objects.
      expect(await list('/api/v1/organizations', undefined)).toEqual(expect.arrayContaining([home, away.org]));
      expect(await list('/api/v1/users', undefined)).toContain(away.user);
    });
  },
);
