import type { TestServer } from './test-server.js';
import { defaults, DEFAULT_THEME } from './test-server.js';

let n = 0;
const uniq = (p: string) => `${p} ${++n}-${Math.random().toString(36).slice(2, 7)}`;
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
  };
}

export async function fixtures(s: TestServer): Promise<Fixtures> {
  const d = await defaults(s);
  const id = async (method: string, path: string, body: unknown) => (await s.ok(method, path, body)).id as string;
  return {
    ...d,
    make: {
      org: () => id('POST', '/api/v1/organizations', { displayName: uniq('Org'), themeId: DEFAULT_THEME }),
      group: () => id('POST', '/api/v1/groups', { name: uniq('Group'), organizationId: d.orgId }),
      user: () => id('POST', '/api/v1/users', { firstName: 'Ada', lastName: uniq('User'), email: `${uniq('u').replace(/\W/g, '')}@example.com`, isActive: true, organizations: [{ id: d.orgId }] }),
      recipient: () => id('POST', '/api/v1/recipients', { firstName: 'Rita', lastName: uniq('Recipient'), email: `${uniq('r').replace(/\W/g, '')}@example.com`, isActive: true, organizations: [{ id: d.orgId }] }),
      role: () => id('POST', '/api/v1/roles', { name: uniq('Role'), isActive: true, permissions: { viewUser: true } }),
      apiKey: () => id('POST', '/api/v1/api-keys', { name: uniq('Key'), expiryDate: future() }),
      samlProvider: () => id('POST', '/api/v1/identity-providers', { name: uniq('IdP'), type: 'SAML' }),
      trustedOrigin: () => id('POST', '/api/v1/trusted-origins', { name: uniq('Origin'), address: `https://${uniq('o').replace(/\W/g, '')}.example.com` }),
      resource: () => id('POST', '/api/v1/resources', { name: uniq('Res'), type: 'link', organizationId: d.orgId, url: 'https://example.com/help' }),
      userDirectory: () => id('POST', '/api/v1/user-directories', { type: 'LDAP', name: uniq('Dir'), sendNotification: false, synchronization: 'Manual', organizationId: d.orgId }),
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
  'v1.apiKeys.update': async (f) => ({ params: { id: await f.make.apiKey() }, body: { name: uniq('Renamed'), description: null } }),
  'v1.apiKeys.delete': async (f) => ({ body: [await f.make.apiKey()] }),
  'v1.apiKeys.listAll': async () => ({}),
  'v2.apiKeys.create': async (f) => ({ body: { name: uniq('Key'), expiryDate: future(), organizationID: f.orgId } }),
  'v2.apiKeys.update': async (f) => ({ params: { id: await f.make.apiKey() }, body: { name: uniq('Renamed') } }),
  'v1.groups.create': async (f) => ({ body: { name: uniq('Group'), description: 'd', organizationId: f.orgId, isActive: true } }),
  'v1.groups.list': async () => ({}),
  'v1.groups.delete': async (f) => ({ body: [await f.make.group()] }),
  'v1.groups.update': async (f) => ({ params: { id: await f.make.group() }, body: { name: uniq('Renamed'), organizationId: f.orgId } }),
  'v1.groups.listMembers': async (f) => ({ params: { id: f.allUsersGroupId } }),
  'v1.groups.addUsers': async (f) => ({ params: { id: await f.make.group() }, body: [await f.make.user()] }),
  'v1.groups.removeUsers': async (f) => ({ params: { id: await f.make.group() }, body: [await f.make.user()] }),
  'v2.groups.create': async (f) => ({ body: { name: uniq('Group'), organizationID: f.orgId } }),
  'v2.groups.update': async (f) => ({ params: { id: await f.make.group() }, body: { name: uniq('Renamed'), description: 'x' } }),
  'v2.groups.setMembers': async (f) => ({ params: { id: await f.make.group() }, body: [await f.make.user()] }),
  'v1.identityProviders.list': async () => ({}),
  'v1.identityProviders.delete': async (f) => ({ body: [await f.make.samlProvider()] }),
  'v1.identityProviders.create': async () => ({ body: { name: uniq('IdP'), type: 'SAML', entityID: 'urn:x', singleSignOnUrl: 'https://idp.example.com/sso', signAuthnRequest: true } }),
  'v1.identityProviders.update': async (f) => ({ params: { id: await f.make.samlProvider() }, body: { name: uniq('IdP'), type: 'JWT' } }),
  'v2.identityProviders.create': async () => ({
    body: { name: uniq('OAuth'), type: 'OAuth', clientID: 'cid', clientSecret: 's3cret-value', authorizationEndpoint: 'https://a', accessTokenEndpoint: 'https://t', userinfoEndpoint: 'https://u' },
  }),
  'v2.identityProviders.update': async (f) => ({
    params: { id: await f.make.samlProvider() },
    body: { name: uniq('OAuth'), clientID: 'cid', authorizationEndpoint: 'https://a', accessTokenEndpoint: 'https://t', userinfoEndpoint: 'https://u' },
  }),
  'v1.organizations.create': async () => ({ body: { displayName: uniq('Org'), themeId: DEFAULT_THEME, name: 'n', description: 'd' } }),
  'v1.organizations.list': async () => ({}),
  'v1.organizations.update': async (f) => ({ params: { id: await f.make.org() }, body: { displayName: uniq('Org'), themeId: DEFAULT_THEME } }),
  'v1.organizations.listMembers': async (f) => ({ params: { id: f.orgId } }),
  'v1.organizations.listResources': async (f) => ({ params: { id: f.orgId } }),
  'v1.organizations.updateAuthentication': async (f) => ({ params: { id: await f.make.org() }, body: { allowNtlm: true, allowJwt: false, identityProviders: [{ id: await f.make.samlProvider() }] } }),
  'v1.organizations.delete': async (f) => ({ body: [await f.make.org()] }),
  'v2.organizations.create': async () => ({ body: { displayName: uniq('Org'), themeID: DEFAULT_THEME } }),
  'v2.organizations.update': async (f) => ({ params: { id: await f.make.org() }, body: { displayName: uniq('Org'), themeID: DEFAULT_THEME } }),
  'v2.organizations.updateAuthentication': async (f) => ({ params: { id: await f.make.org() }, body: { qalyptusAuth: true, identityProvider: null } }),
  'v1.resources.list': async () => ({}),
  'v1.resources.create': async (f) => ({ body: { name: uniq('Res'), type: 'link', organizationId: f.orgId, url: 'https://example.com/a' } }),
  'v1.resources.listOwn': async () => ({}),
  'v1.resources.delete': async (f) => ({ body: [await f.make.resource()] }),
  'v1.resources.update': async (f) => ({ params: { id: await f.make.resource() }, body: { name: uniq('Res'), type: 'doc', organizationId: f.orgId, url: 'https://example.com/b' } }),
  'v1.roles.list': async () => ({}),
  'v1.roles.create': async () => ({ body: { name: uniq('Role'), isActive: true, allProjects: false, projects: [], permissions: { viewGroup: true } } }),
  'v1.roles.listSimple': async () => ({}),
  'v1.roles.update': async (f) => ({ params: { id: await f.make.role() }, body: { name: uniq('Role'), isActive: false, permissions: { viewUser: true, editUser: true } } }),
  'v1.settings.updateAuthenticationMethods': async () => ({ body: { jwtAuth: true, ntlmAuth: false } }),
  'v1.trustedOrigins.list': async () => ({}),
  'v1.trustedOrigins.delete': async (f) => ({ body: [await f.make.trustedOrigin()] }),
  'v1.trustedOrigins.create': async () => ({ body: { name: uniq('Origin'), address: 'https://portal.example.com' } }),
  'v1.trustedOrigins.update': async (f) => ({ params: { id: await f.make.trustedOrigin() }, body: { name: uniq('Origin'), address: 'https://other.example.com:8443' } }),
  'v1.users.create': async (f) => ({ body: { firstName: 'Grace', lastName: uniq('Hopper'), email: null, isActive: true, organizations: [{ id: f.orgId }], roles: [{ id: f.hubRoleId }] } }),
  'v1.users.list': async () => ({}),
  'v1.recipients.create': async (f) => ({ body: { firstName: 'Rex', lastName: uniq('Recipient'), isActive: true, organizations: [{ id: f.orgId }] } }),
  'v1.users.update': async (f) => ({ params: { id: await f.make.user() }, body: { firstName: 'Ada', lastName: uniq('Lovelace'), isActive: true, organizations: [{ id: f.orgId }] } }),
  'v1.recipients.update': async (f) => ({ params: { id: await f.make.recipient() }, body: { firstName: 'Rex', lastName: uniq('R'), isActive: false, organizations: [{ id: f.orgId }] } }),
  'v1.recipients.convertToUser': async (f) => ({ params: { id: await f.make.recipient() }, body: { roles: [{ id: f.adminRoleId }], isActive: true, language: 'en' } }),
  'v1.userDirectories.list': async () => ({}),
  'v1.userDirectories.create': async (f) => ({ body: { type: 'LDAP', name: uniq('Dir'), hostName: 'ldap.local', port: 389, password: 'dir-secret', sendNotification: true, synchronization: 'Daily', organizationId: f.orgId } }),
  'v1.userDirectories.delete': async (f) => ({ body: [await f.make.userDirectory()] }),
  'v1.userDirectories.update': async (f) => ({ params: { id: await f.make.userDirectory() }, body: { type: 'AzureAD', name: uniq('Dir'), sendNotification: false, synchronization: 'Manual', organizationId: f.orgId } }),
};

/** The operations issue 2 asks for. */
export const ISSUE2_OPS = Object.keys(SAMPLES);
