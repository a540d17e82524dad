// Projects, connections and filters around reports: a filter's selections change the figures,
// a project travels in one file, and a user sees only the projects of their roles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, signedInUserWith, DEFAULT_THEME, type TestServer } from '../support/test-server.js';
import { pdfPages } from '../support/read-back.js';
import { covers } from '../support/covers.js';

let s: TestServer;
let appRecord: string;
let meta: any;
let projectId: string;
let connectionId: string;
let reportId: string;

const kpi = async (id: string) => {
  const res = await s.file('POST', `/api/v2/reports/${id}/generate`, { query: { outputFormat: 'Html' }, body: {} });
  return /<div class="v">([^<]+)<\/div>/.exec(res.data.toString())![1];
};
const evaluate = async (expression: string, selections = {}) =>
  (await s.ok('POST', `/api/app/analytics/${appRecord}/evaluate`, { expression, selections })).value as number;
const en = (n: number) => Math.round(n).toLocaleString('en-US');

beforeAll(async () => {
  s = await startTestServer({ demo: true });
  appRecord = (await s.ok('GET', '/api/v1/analytics-apps', undefined, { 'name[equals]': 'Sales demo' }))[0].id;
  meta = await s.ok('GET', `/api/app/analytics/${appRecord}`);
  const project = await s.ok('POST', '/api/app/projects', { name: 'Finance pack', description: 'Monthly' });
  projectId = project.id;
  connectionId = (await s.ok('POST', '/api/app/connections', { projectId, name: 'Sales', analyticsAppId: appRecord }))
    .id;
  reportId = (await s.ok('POST', '/api/v2/reports', { name: 'Sales KPI', projectID: projectId, type: 'Html' })).id;
  await s.ok('PUT', `/api/app/reports/${reportId}/document`, {
    document: { blocks: [{ id: 'k', type: 'kpi', label: 'Sales', expression: 'Sum(Sales)', format: { decimals: 0 } }] },
  });
});
afterAll(() => s.stop());

describe(
  covers(
    'projects and connections',
    'v1.projects.list',
    'app.connections.list',
    'v1.organizations.listProjects',
    'v1.organizations.listAnalyticsApps',
    'v2.projects.update',
    'app.reports.get',
    'app.projects.create',
    'v1.projects.delete',
  ),
  () => {
    it("lists the project with the reference clients' paths and filters", async () => {
      const list = await s.call('GET', '/api/v1/projects', {
        query: { 'name[startswith]': 'finance', sort_by: 'Organization.name' },
      });
      expect(list.body.data.map((p: { name: string }) => p.name)).toEqual(['Finance pack']);
      expect(await s.ok('GET', '/api/v1/connections', undefined, { projectId })).toEqual([
        expect.objectContaining({ id: connectionId, appId: 'sales-demo', appName: 'Sales demo' }),
      ]);
      const orgId = list.body.data[0].organizationId;
      expect(
        (await s.ok('GET', `/api/v1/organizations/${orgId}/projects`, undefined, { get_all: true })).map(
          (p: { name: string }) => p.name,
        ),
      ).toContain('Finance pack');
      expect(
        (await s.ok('GET', `/api/v1/organizations/${orgId}/analytics-apps`)).map((a: { appId: string }) => a.appId),
      ).toEqual(['sales-demo']);
      const renamed = await s.ok('PUT', `/api/v2/projects/${projectId}`, {
        name: 'Finance pack',
        description: 'Monthly, renamed through v2',
      });
      expect(renamed.description).toBe('Monthly, renamed through v2');
      expect((await s.ok('GET', `/api/v1/reports/${reportId}`)).outputFormats).toEqual(['Html', 'Pdf']);
    });

    it('a report created in a project with one connection reads through it', async () => {
      expect(await kpi(reportId)).toBe(en(await evaluate('Sum(Sales)')));
    });

    it('deletes a project only when its name is confirmed', async () => {
      const p = await s.ok('POST', '/api/app/projects', { name: 'Scratch' });
      const wrong = await s.call('DELETE', '/api/v1/projects', { body: [{ id: p.id, name: 'Scrat' }] });
      expect(wrong.status).toBe(400);
      expect(wrong.body.errorDetails![0].field).toBe('body.0.name');
      expect(
        (await s.ok('DELETE', '/api/v1/projects', [{ id: p.id, name: 'Scratch' }], { deleteFiles: true })).deleted,
      ).toBe(1);
    });
  },
);

describe(
  covers(
    'filters',
    'v2.filters.create',
    'v2.filters.updateFieldValues',
    'v2.filters.reorderValues',
    'app.reports.saveDocument',
    'app.filters.listByReport',
    'v2.filters.updateVariableValues',
    'v2.filters.duplicate',
    'app.projects.get',
    'v2.filters.deleteValues',
  ),
  () => {
    it("applies field values, bookmarks and variables in order, and the report's figures follow", async () => {
      const region = meta.fields.find((f: { name: string }) => f.name === 'Region');
      const category = meta.fields.find((f: { name: string }) => f.name === 'Category');
      const filter = await s.ok('POST', '/api/v2/filters', { name: 'EMEA laptops', projectID: projectId });
      await s.ok('PUT', `/api/v2/filters/${filter.id}/fields`, {
        analyticsFieldID: region.id,
        filterItemFieldValues: ['EMEA'],
      });
      const withBoth = await s.ok('PUT', `/api/v2/filters/${filter.id}/fields`, {
        analyticsFieldID: category.id,
        filterItemFieldValues: ['Laptops'],
      });
      expect(withBoth.values.map((v: { targetName: string; order: number }) => `${v.order}:${v.targetName}`)).toEqual([
        '0:Region',
        '1:Category',
      ]);
      const reordered = await s.ok('PUT', `/api/v2/filters/${filter.id}/order`, {
        id: withBoth.values[1].id,
        direction: 'Up',
      });
      expect(reordered.values.map((v: { targetName: string }) => v.targetName)).toEqual(['Category', 'Region']);
      await s.ok('PUT', `/api/app/reports/${reportId}/document`, {
        document: {
          blocks: [{ id: 'k', type: 'kpi', label: 'Sales', expression: 'Sum(Sales)', format: { decimals: 0 } }],
        },
        filterIds: [filter.id],
      });
      expect(await kpi(reportId)).toBe(en(await evaluate('Sum(Sales)', { Region: ['EMEA'], Category: ['Laptops'] })));
      expect((await s.ok('GET', `/api/v1/filters/report/${reportId}`)).map((f: { name: string }) => f.name)).toEqual([
        'EMEA laptops',
      ]);

      // A variable value replaces the variable's definition while the filter applies.
      const vTotal = meta.variables.find((v: { name: string }) => v.name === 'vTotalSales');
      await s.ok('PUT', `/api/v2/filters/${filter.id}/variables`, {
        analyticsVariableID: vTotal.id,
        variableValue: 'Sum(Cost)',
      });
      await s.ok('PUT', `/api/app/reports/${reportId}/document`, {
        document: {
          blocks: [{ id: 'k', type: 'kpi', label: 'x', expression: '$(vTotalSales)', format: { decimals: 0 } }],
        },
      });
      expect(await kpi(reportId)).toBe(en(await evaluate('Sum(Cost)', { Region: ['EMEA'], Category: ['Laptops'] })));

      const dup = await s.ok('POST', `/api/v2/filters/${filter.id}/duplicate`, {
        projectID: projectId,
        organizationID: (await s.ok('GET', `/api/app/projects/${projectId}`)).organizationId,
      });
      expect(dup.values).toHaveLength(3);
      const trimmed = await s.ok('DELETE', `/api/v2/filters/${dup.id}/values`, [dup.values[0].id]);
      expect(trimmed.values.map((v: { order: number }) => v.order)).toEqual([0, 1]);
    });

    it("refuses a value for a field that is not in the project's apps", async () => {
      const f = await s.ok('POST', '/api/v2/filters', { name: 'Broken', projectID: projectId });
      const res = await s.call('PUT', `/api/v2/filters/${f.id}/fields`, {
        body: { analyticsFieldID: '11111111-2222-4333-8444-555555555555', filterItemFieldValues: ['x'] },
      });
      expect(res.status).toBe(400);
      expect(res.body.errorDetails![0].field).toBe('body.analyticsFieldID');
    });
  },
);

describe(covers('project files', 'app.projects.export', 'app.projects.import', 'v1.reports.listOwn'), () => {
  it('exports a project to one file and imports it as a new project that generates the same figures', async () => {
    const file = await s.file('GET', `/api/app/projects/${projectId}/export`);
    expect(file.disposition).toContain('Finance pack.broadsheet.json');
    const content = JSON.parse(file.data.toString());
    expect(content).toMatchObject({ format: 'broadsheet-project', version: 1, connections: [{ appId: 'sales-demo' }] });
    const copy = await s.ok('POST', '/api/app/projects/import', {
      file: { ...content, project: { ...content.project, name: 'Finance pack (imported)' } },
    });
    const [report] = await s.ok('GET', '/api/v1/reports', undefined, { project_id: copy.id });
    expect(report.name).toBe('Sales KPI');
    expect(await kpi(report.id)).toBe(await kpi(reportId));
    const missingApp = await s.call('POST', '/api/app/projects/import', {
      body: { file: { ...content, connections: [{ ref: 'x', name: 'n', appId: 'not-here' }] } },
    });
    expect(missingApp.status).toBe(400);
    expect(missingApp.body.error).toMatch(/not-here/);
  });

  it('needs the importProject permission to import', async () => {
    const { token } = await signedInUserWith(s, { viewProject: true, updateProject: true }, 'designer');
    const content = JSON.parse((await s.file('GET', `/api/app/projects/${projectId}/export`)).data.toString());
    expect((await s.call('POST', '/api/app/projects/import', { token, body: { file: content } })).status).toBe(403);
  });
});

describe(
  covers(
    'who sees what',
    'app.projects.create',
    'v2.reports.create',
    'v1.roles.update',
    'v1.projects.list',
    'v1.reports.listOwn',
    'app.projects.get',
    'v2.reports.generate',
  ),
  () => {
    it('a user whose role covers one project sees only that project and its reports', async () => {
      const other = await s.ok('POST', '/api/app/projects', { name: 'Secret pack' });
      await s.ok('POST', '/api/v2/reports', { name: 'Secret report', projectID: other.id, type: 'Html' });
      const { token, roleId } = await signedInUserWith(s, { viewProject: true }, 'scoped');
      await s.ok('PUT', `/api/v1/roles/${roleId}`, {
        name: 'scoped role',
        isActive: true,
        allProjects: false,
        projects: [{ id: projectId }],
        permissions: { viewProject: true },
      });
      const projects = await s.call('GET', '/api/v1/projects', { token, query: { get_all: true } });
      expect(projects.body.data.map((p: { name: string }) => p.name)).toEqual(['Finance pack']);
      const reports = await s.call('GET', '/api/v1/reports', { token, query: { get_all: true } });
      expect(reports.body.data.map((r: { name: string }) => r.name)).toEqual(['Sales KPI']);
      expect((await s.call('GET', `/api/app/projects/${other.id}`, { token })).status).toBe(404);
      const pdf = await s.file('POST', `/api/v2/reports/${reportId}/generate`, {
        token,
        query: { outputFormat: 'Pdf' },
        body: {},
      });
      expect(pdf.status).toBe(200);
      expect(pdfPages(pdf.data)[0]).toMatch(/\d{1,3}(,\d{3})+/);
    });
  },
);

describe(
  covers(
    'analytics apps',
    'v1.analyticsApps.create',
    'v1.analyticsApps.listByFolder',
    'v2.organizations.create',
    'v1.organizations.linkAnalyticsApps',
    'v1.organizations.listAnalyticsApps',
    'v1.organizations.unlinkAnalyticsApps',
    'v1.analyticsApps.updateSynchronization',
  ),
  () => {
    it('registers an app, lists it by folder and root, links it to an organization once', async () => {
      const FOLDER = '3b9c1f7e-1d2a-4c5b-9e8f-0a1b2c3d4e5f';
      const created = await s.ok('POST', '/api/v1/analytics-apps', {
        appId: 'budget',
        name: 'Budget',
        folderId: FOLDER,
        folderPath: '/Finance',
        stream: 'Finance',
        allowAnalyticsSenseApp: true,
        allowMashup: false,
        defaultOpen: 'Main',
      });
      expect(
        (await s.ok('GET', '/api/v1/analytics-apps/folder', undefined, { folderId: FOLDER })).map(
          (a: { appId: string }) => a.appId,
        ),
      ).toEqual(['budget']);
      expect(
        (await s.ok('GET', '/api/v1/analytics-apps/folder', undefined, { ofRoot: true })).map(
          (a: { appId: string }) => a.appId,
        ),
      ).toEqual(['sales-demo']);
      const org = await s.ok('POST', '/api/v2/organizations', { displayName: 'Finance Org', themeID: DEFAULT_THEME });
      await s.ok('POST', `/api/v1/organizations/${org.id}/analytics-apps`, [created.id, created.id]);
      await s.ok('POST', `/api/v1/organizations/${org.id}/analytics-apps`, [created.id]);
      expect(await s.ok('GET', `/api/v1/organizations/${org.id}/analytics-apps`)).toHaveLength(1);
      await s.ok('DELETE', `/api/v1/organizations/${org.id}/analytics-apps`, [created.id]);
      expect(await s.ok('GET', `/api/v1/organizations/${org.id}/analytics-apps`)).toHaveLength(0);
      const sync = await s.ok('PUT', `/api/v1/analytics-apps/${created.id}/synchronization`, {
        analyticsSenseServer: 'https://sense.local',
        schedule: { frequency: 'Daily' },
      });
      expect(sync.synchronization).toMatchObject({ analyticsSenseServer: 'https://sense.local' });
      expect(
        (
          await s.call('POST', '/api/v1/analytics-apps', {
            body: {
              appId: 'budget',
              name: 'Again',
              folderId: FOLDER,
              folderPath: '/',
              allowAnalyticsSenseApp: false,
              allowMashup: false,
              defaultOpen: 'x',
            },
          })
        ).status,
      ).toBe(409);
      expect(
        (
          await s.call('POST', '/api/v1/analytics-apps', {
            body: {
              appId: '../etc',
              name: 'x',
              folderId: FOLDER,
              folderPath: '/',
              allowAnalyticsSenseApp: false,
              allowMashup: false,
              defaultOpen: 'x',
            },
          })
        ).body.errorDetails![0].field,
      ).toBe('body.appId');
    });
  },
);
