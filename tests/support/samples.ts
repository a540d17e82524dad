import type { TestServer } from './test-server.js';
import { defaults, DEFAULT_THEME } from './test-server.js';

let n = 0;
const uniq = (p: string) => `${p} ${++n}-${Math.random().toString(36).slice(2, 7)}`;
export const ROOT_FOLDER = '00000000-0000-0000-0000-000000000000';
const future = () => new Date(Date.now() + 30 * 86400_000).toISOString();

export interface Fixtures {
  orgId: string;
  adminRoleId: string;
  hubRoleId: string;
  allUsersGroupId: string;
  ownerId: string;
  make: {
    org(): Promise<string>;
    group(): Promise<string>;
    user(): Promise<string>;
    recipient(): Promise<string>;
    role(): Promise<string>;
    apiKey(): Promise<string>;
    samlProvider(): Promise<string>;
    trustedOrigin(): Promise<string>;
    resource(): Promise<string>;
    userDirectory(): Promise<string>;
    /** An analytics app record with a small imported table (Region, Product, Units, Price). */
    app(): Promise<string>;
    project(): Promise<string>;
    /** A project connected to an app: ids of both and of the connection. */
    connected(): Promise<{ projectId: string; appId: string; connectionId: string }>;
    filter(): Promise<string>;
    report(): Promise<string>;
  };
}

export async function fixtures(s: TestServer): Promise<Fixtures> {
  const d = await defaults(s);
  const id = async (method: string, path: string, body: unknown) => (await s.ok(method, path, body)).id as string;
  // One shared app and connected project serve the samples that only need something to exist.
  let sharedApp: Promise<string> | null = null;
  let sharedConnection: Promise<{ projectId: string; appId: string; connectionId: string }> | null = null;
  const fixturesApp = () =>
    (sharedApp ??= (async () => {
      const appId = `shared-${Math.random().toString(36).slice(2, 9)}`;
      const app = await id('POST', '/api/v1/analytics-apps', {
        appId,
        name: uniq('Shared app'),
        folderId: ROOT_FOLDER,
        folderPath: '/',
        allowAnalyticsSenseApp: false,
        allowMashup: false,
        defaultOpen: 'Main',
      });
      await s.ok('POST', `/api/app/analytics/${app}/import`, {
        fileName: 'data.csv',
        content: 'Region,Product,Units,Price\nNorth,Widget,3,9.5\nSouth,Gadget,1,120\n',
      });
      return app;
    })());
  const connected = () =>
    (sharedConnection ??= (async () => {
      const projectId = await id('POST', '/api/app/projects', { name: uniq('Shared project') });
      const appId = await fixturesApp();
      const connectionId = await id('POST', '/api/app/connections', { projectId, name: 'Data', analyticsAppId: appId });
      return { projectId, appId, connectionId };
    })());
  return {
    ...d,
    make: {
      org: () => id('POST', '/api/v1/organizations', { displayName: uniq('Org'), themeId: DEFAULT_THEME }),
      group: () => id('POST', '/api/v1/groups', { name: uniq('Group'), organizationId: d.orgId }),
      user: () =>
        id('POST', '/api/v1/users', {
          firstName: 'Ada',
          lastName: uniq('User'),
          email: `${uniq('u').replace(/\W/g, '')}@example.com`,
          isActive: true,
          organizations: [{ id: d.orgId }],
        }),
      recipient: () =>
        id('POST', '/api/v1/recipients', {
          firstName: 'Rita',
          lastName: uniq('Recipient'),
          email: `${uniq('r').replace(/\W/g, '')}@example.com`,
          isActive: true,
          organizations: [{ id: d.orgId }],
        }),
      role: () => id('POST', '/api/v1/roles', { name: uniq('Role'), isActive: true, permissions: { viewUser: true } }),
      apiKey: () => id('POST', '/api/v1/api-keys', { name: uniq('Key'), expiryDate: future() }),
      samlProvider: () => id('POST', '/api/v1/identity-providers', { name: uniq('IdP'), type: 'SAML' }),
      trustedOrigin: () =>
        id('POST', '/api/v1/trusted-origins', {
          name: uniq('Origin'),
          address: `https://${uniq('o').replace(/\W/g, '')}.example.com`,
        }),
      resource: () =>
        id('POST', '/api/v1/resources', {
          name: uniq('Res'),
          type: 'link',
          organizationId: d.orgId,
          url: 'https://example.com/help',
        }),
      userDirectory: () =>
        id('POST', '/api/v1/user-directories', {
          type: 'LDAP',
          name: uniq('Dir'),
          sendNotification: false,
          synchronization: 'Manual',
          organizationId: d.orgId,
        }),
      app: async () => {
        const appId = `app-${++n}-${Math.random().toString(36).slice(2, 7)}`;
        const app = await id('POST', '/api/v1/analytics-apps', {
          appId,
          name: uniq('App'),
          folderId: ROOT_FOLDER,
          folderPath: '/',
          allowAnalyticsSenseApp: false,
          allowMashup: false,
          defaultOpen: 'Main',
        });
        await s.ok('POST', `/api/app/analytics/${app}/import`, {
          fileName: 'data.csv',
          content: 'Region,Product,Units,Price\nNorth,Widget,3,9.5\nSouth,Gadget,1,120\n',
        });
        return app;
      },
      project: () => id('POST', '/api/app/projects', { name: uniq('Project') }),
      connected: async () => {
        const [projectId, appId] = [
          await id('POST', '/api/app/projects', { name: uniq('Project') }),
          await fixturesApp(),
        ];
        const connectionId = await id('POST', '/api/app/connections', {
          projectId,
          name: 'Data',
          analyticsAppId: appId,
        });
        return { projectId, appId, connectionId };
      },
      filter: async () =>
        id('POST', '/api/v2/filters', { name: uniq('Filter'), projectID: (await connected()).projectId }),
      report: async () =>
        id('POST', '/api/v2/reports', { name: uniq('Report'), projectID: (await connected()).projectId, type: 'Html' }),
    },
  };
}

export interface Sample {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
}

/** A valid call of every operation of issue 2; creates what the call needs first. */
export const SAMPLES: Record<string, (f: Fixtures) => Promise<Sample>> = {
  'v1.apiKeys.create': async () => ({ body: { name: uniq('Key'), description: 'ci', expiryDate: future() } }),
  'v1.apiKeys.listOwn': async () => ({}),
  'v1.apiKeys.update': async (f) => ({
    params: { id: await f.make.apiKey() },
    body: { name: uniq('Renamed'), description: null },
  }),
  'v1.apiKeys.delete': async (f) => ({ body: [await f.make.apiKey()] }),
  'v1.apiKeys.listAll': async () => ({}),
  'v2.apiKeys.create': async (f) => ({ body: { name: uniq('Key'), expiryDate: future(), organizationID: f.orgId } }),
  'v2.apiKeys.update': async (f) => ({ params: { id: await f.make.apiKey() }, body: { name: uniq('Renamed') } }),
  'v1.groups.create': async (f) => ({
    body: { name: uniq('Group'), description: 'd', organizationId: f.orgId, isActive: true },
  }),
  'v1.groups.list': async () => ({}),
  'v1.groups.delete': async (f) => ({ body: [await f.make.group()] }),
  'v1.groups.update': async (f) => ({
    params: { id: await f.make.group() },
    body: { name: uniq('Renamed'), organizationId: f.orgId },
  }),
  'v1.groups.listMembers': async (f) => ({ params: { id: f.allUsersGroupId } }),
  'v1.groups.addUsers': async (f) => ({ params: { id: await f.make.group() }, body: [await f.make.user()] }),
  'v1.groups.removeUsers': async (f) => ({ params: { id: await f.make.group() }, body: [await f.make.user()] }),
  'v2.groups.create': async (f) => ({ body: { name: uniq('Group'), organizationID: f.orgId } }),
  'v2.groups.update': async (f) => ({
    params: { id: await f.make.group() },
    body: { name: uniq('Renamed'), description: 'x' },
  }),
  'v2.groups.setMembers': async (f) => ({ params: { id: await f.make.group() }, body: [await f.make.user()] }),
  'v1.identityProviders.list': async () => ({}),
  'v1.identityProviders.delete': async (f) => ({ body: [await f.make.samlProvider()] }),
  'v1.identityProviders.create': async () => ({
    body: {
      name: uniq('IdP'),
      type: 'SAML',
      entityID: 'urn:x',
      singleSignOnUrl: 'https://idp.example.com/sso',
      signAuthnRequest: true,
    },
  }),
  'v1.identityProviders.update': async (f) => ({
    params: { id: await f.make.samlProvider() },
    body: { name: uniq('IdP'), type: 'JWT' },
  }),
  'v2.identityProviders.create': async () => ({
    body: {
      name: uniq('OAuth'),
      type: 'OAuth',
      clientID: 'cid',
      clientSecret: 's3cret-value',
      authorizationEndpoint: 'https://a',
      accessTokenEndpoint: 'https://t',
      userinfoEndpoint: 'https://u',
    },
  }),
  'v2.identityProviders.update': async (f) => ({
    params: { id: await f.make.samlProvider() },
    body: {
      name: uniq('OAuth'),
      clientID: 'cid',
      authorizationEndpoint: 'https://a',
      accessTokenEndpoint: 'https://t',
      userinfoEndpoint: 'https://u',
    },
  }),
  'v1.organizations.create': async () => ({
    body: { displayName: uniq('Org'), themeId: DEFAULT_THEME, name: 'n', description: 'd' },
  }),
  'v1.organizations.list': async () => ({}),
  'v1.organizations.update': async (f) => ({
    params: { id: await f.make.org() },
    body: { displayName: uniq('Org'), themeId: DEFAULT_THEME },
  }),
  'v1.organizations.listMembers': async (f) => ({ params: { id: f.orgId } }),
  'v1.organizations.listResources': async (f) => ({ params: { id: f.orgId } }),
  'v1.organizations.updateAuthentication': async (f) => ({
    params: { id: await f.make.org() },
    body: { allowNtlm: true, allowJwt: false, identityProviders: [{ id: await f.make.samlProvider() }] },
  }),
  'v1.organizations.delete': async (f) => ({ body: [await f.make.org()] }),
  'v2.organizations.create': async () => ({ body: { displayName: uniq('Org'), themeID: DEFAULT_THEME } }),
  'v2.organizations.update': async (f) => ({
    params: { id: await f.make.org() },
    body: { displayName: uniq('Org'), themeID: DEFAULT_THEME },
  }),
  'v2.organizations.updateAuthentication': async (f) => ({
    params: { id: await f.make.org() },
    body: { qalyptusAuth: true, identityProvider: null },
  }),
  'v1.resources.list': async () => ({}),
  'v1.resources.create': async (f) => ({
    body: { name: uniq('Res'), type: 'link', organizationId: f.orgId, url: 'https://example.com/a' },
  }),
  'v1.resources.listOwn': async () => ({}),
  'v1.resources.delete': async (f) => ({ body: [await f.make.resource()] }),
  'v1.resources.update': async (f) => ({
    params: { id: await f.make.resource() },
    body: { name: uniq('Res'), type: 'doc', organizationId: f.orgId, url: 'https://example.com/b' },
  }),
  'v1.roles.list': async () => ({}),
  'v1.roles.create': async () => ({
    body: { name: uniq('Role'), isActive: true, allProjects: false, projects: [], permissions: { viewGroup: true } },
  }),
  'v1.roles.listSimple': async () => ({}),
  'v1.roles.update': async (f) => ({
    params: { id: await f.make.role() },
    body: { name: uniq('Role'), isActive: false, permissions: { viewUser: true, editUser: true } },
  }),
  'v1.settings.updateAuthenticationMethods': async () => ({ body: { jwtAuth: true, ntlmAuth: false } }),
  'v1.trustedOrigins.list': async () => ({}),
  'v1.trustedOrigins.delete': async (f) => ({ body: [await f.make.trustedOrigin()] }),
  'v1.trustedOrigins.create': async () => ({ body: { name: uniq('Origin'), address: 'https://portal.example.com' } }),
  'v1.trustedOrigins.update': async (f) => ({
    params: { id: await f.make.trustedOrigin() },
    body: { name: uniq('Origin'), address: 'https://other.example.com:8443' },
  }),
  'v1.users.create': async (f) => ({
    body: {
      firstName: 'Grace',
      lastName: uniq('Hopper'),
      email: null,
      isActive: true,
      organizations: [{ id: f.orgId }],
      roles: [{ id: f.hubRoleId }],
    },
  }),
  'v1.users.list': async () => ({}),
  'v1.recipients.create': async (f) => ({
    body: { firstName: 'Rex', lastName: uniq('Recipient'), isActive: true, organizations: [{ id: f.orgId }] },
  }),
  'v1.users.update': async (f) => ({
    params: { id: await f.make.user() },
    body: { firstName: 'Ada', lastName: uniq('Lovelace'), isActive: true, organizations: [{ id: f.orgId }] },
  }),
  'v1.recipients.update': async (f) => ({
    params: { id: await f.make.recipient() },
    body: { firstName: 'Rex', lastName: uniq('R'), isActive: false, organizations: [{ id: f.orgId }] },
  }),
  'v1.recipients.convertToUser': async (f) => ({
    params: { id: await f.make.recipient() },
    body: { roles: [{ id: f.adminRoleId }], isActive: true, language: 'en' },
  }),
  'v1.userDirectories.list': async () => ({}),
  'v1.userDirectories.create': async (f) => ({
    body: {
      type: 'LDAP',
      name: uniq('Dir'),
      hostName: 'ldap.local',
      port: 389,
      password: 'dir-secret',
      sendNotification: true,
      synchronization: 'Daily',
      organizationId: f.orgId,
    },
  }),
  'v1.userDirectories.delete': async (f) => ({ body: [await f.make.userDirectory()] }),
  'v1.userDirectories.update': async (f) => ({
    params: { id: await f.make.userDirectory() },
    body: {
      type: 'AzureAD',
      name: uniq('Dir'),
      sendNotification: false,
      synchronization: 'Manual',
      organizationId: f.orgId,
    },
  }),
  'v2.users.delete': async (f) => ({ params: { id: await f.make.user() } }),
};

/** The operations issue 2 asks for. */
export const ISSUE2_OPS = Object.keys(SAMPLES);

const appBody = (appId: string) => ({
  appId,
  name: uniq('App'),
  folderId: ROOT_FOLDER,
  folderPath: '/',
  allowAnalyticsSenseApp: false,
  allowMashup: false,
  defaultOpen: 'Main',
});
const fieldId = async (s: TestServer, app: string) =>
  (await s.ok('GET', `/api/app/analytics/${app}`)).fields[0].id as string;

/** The interface operations issue 3 asks for, sampled the same way. */
export function issue3Samples(server: () => TestServer): Record<string, (f: Fixtures) => Promise<Sample>> {
  const s = { ok: (...args: Parameters<TestServer['ok']>) => server().ok(...args) } as TestServer;
  return {
    'v1.analyticsApps.create': async () => ({ body: appBody(`new-${++n}-${Math.random().toString(36).slice(2, 6)}`) }),
    'v1.analyticsApps.list': async () => ({}),
    'v1.analyticsApps.update': async (f) => {
      const app = await f.make.app();
      const rec = (await s.ok('GET', '/api/v1/analytics-apps', undefined, { get_all: true })).find(
        (a: { id: string }) => a.id === app,
      );
      return { params: { id: app }, body: { ...appBody(rec.appId), name: uniq('Renamed') } };
    },
    'v1.analyticsApps.listByFolder': async () => ({ query: { ofRoot: 'true' } }),
    'v1.analyticsApps.updateSynchronization': async (f) => ({
      params: { id: await f.make.app() },
      body: { analyticsSenseServer: 'https://sense.local', defaultFolderId: null },
    }),
    'v1.organizations.listAnalyticsApps': async (f) => ({ params: { id: f.orgId } }),
    'v1.organizations.linkAnalyticsApps': async (f) => ({ params: { id: f.orgId }, body: [await f.make.app()] }),
    'v1.organizations.unlinkAnalyticsApps': async (f) => ({ params: { id: f.orgId }, body: [await f.make.app()] }),
    'v1.organizations.listProjects': async (f) => ({ params: { id: f.orgId } }),
    'v1.projects.list': async () => ({}),
    'v1.projects.delete': async (f) => {
      const id = await f.make.project();
      return { body: [{ id, name: (await s.ok('GET', `/api/app/projects/${id}`)).name }] };
    },
    'v2.projects.update': async (f) => ({
      params: { id: await f.make.project() },
      body: { name: uniq('Project'), description: 'd' },
    }),
    'v2.filters.create': async (f) => ({
      body: { name: uniq('Filter'), projectID: (await f.make.connected()).projectId },
    }),
    'v2.filters.duplicate': async (f) => ({
      params: { id: await f.make.filter() },
      body: { projectID: (await f.make.connected()).projectId, organizationID: f.orgId },
    }),
    'v2.filters.update': async (f) => ({
      params: { id: await f.make.filter() },
      body: { name: uniq('Filter'), projectID: (await f.make.connected()).projectId },
    }),
    'v2.filters.updateVariableValues': async (f) => {
      const { appId } = await f.make.connected();
      const v = await s.ok('POST', `/api/app/analytics/${appId}/variables`, {
        name: `v${++n}x`,
        definition: 'Sum(Units)',
      });
      return {
        params: { id: await f.make.filter() },
        body: { analyticsVariableID: v.id, variableValue: 'Sum(Price)' },
      };
    },
    'v2.filters.updateBookmarkValues': async (f) => {
      const { appId } = await f.make.connected();
      const b = await s.ok('POST', `/api/app/analytics/${appId}/bookmarks`, {
        name: uniq('Bookmark'),
        selections: { Region: ['North'] },
      });
      return { params: { id: await f.make.filter() }, body: { analyticsBookmarkID: b.id } };
    },
    'v2.filters.updateFieldValues': async (f) => ({
      params: { id: await f.make.filter() },
      body: { analyticsFieldID: await fieldId(s, (await f.make.connected()).appId), filterItemFieldValues: ['North'] },
    }),
    'v2.filters.deleteValues': async (f) => ({ params: { id: await f.make.filter() }, body: [] }),
    'v2.filters.reorderValues': async (f) => {
      const filter = await f.make.filter();
      const withValue = await s.ok('PUT', `/api/v2/filters/${filter}/fields`, {
        analyticsFieldID: await fieldId(s, (await f.make.connected()).appId),
        filterItemFieldValues: ['South'],
      });
      return { params: { id: filter }, body: { id: withValue.values[0].id, direction: 'Down' } };
    },
    'v1.reports.listOwn': async () => ({}),
    'v2.reports.create': async (f) => ({
      body: { name: uniq('Report'), projectID: (await f.make.connected()).projectId, type: 'Excel' },
    }),
    'v2.reports.duplicate': async (f) => ({
      params: { id: await f.make.report() },
      body: { projectID: (await f.make.connected()).projectId, organizationID: f.orgId },
    }),
    'v2.reports.update': async (f) => ({
      params: { id: await f.make.report() },
      body: {
        name: uniq('Report'),
        isIteration: true,
        iterationFields: [{ fieldID: await fieldId(s, (await f.make.connected()).appId), order: 0 }],
        dynamicNameSeparator: '_',
      },
    }),
    'v2.reports.generate': async (f) => ({
      params: { id: await f.make.report() },
      query: { outputFormat: 'Html' },
      body: { selections: [{ fieldName: 'Region', values: ['North'] }] },
    }),
  };
}
