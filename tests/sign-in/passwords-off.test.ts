// Where an organization turns password sign-in off (set B `qalyptusAuth: false`), its people's
// passwords are refused with a message pointing to the company sign-in, and the sign-in page goes
// straight to the one provider that applies. The tenant owner keeps a way in (the break-glass rule).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { covers } from '../support/covers.js';
import { DEFAULT_THEME, startTestServer, type TestServer } from '../support/test-server.js';

let s: TestServer;
let acme = '';
const OWNER = { firstName: 'Owen', lastName: 'Owner', email: 'owen@example.com', password: 'owen-password-1' };
const login = (email: string, password: string) =>
  s.call('POST', '/api/app/auth/login', { token: null, body: { email, password } });

beforeAll(async () => {
  s = await startTestServer();
  await s.ok('POST', '/api/app/setup', OWNER);
  acme = (await s.ok('POST', '/api/v1/organizations', { displayName: 'Acme', themeId: DEFAULT_THEME })).id;
  const provider = (
    await s.ok('POST', '/api/v2/identity-providers', {
      name: 'Acme ID',
      type: 'OAuth',
      clientID: 'client',
      clientSecret: 'secret',
      authorizationEndpoint: 'https://id.acme.example/authorize',
      accessTokenEndpoint: 'https://id.acme.example/token',
      userinfoEndpoint: 'https://id.acme.example/userinfo',
    })
  ).id;
  await s.ok('PUT', `/api/v2/organizations/${acme}/authentication`, {
    qalyptusAuth: false,
    identityProvider: provider,
  });
  await s.ok('POST', '/api/v1/users', {
    firstName: 'Pat',
    lastName: 'Acme',
    email: 'pat@acme.example',
    password: 'pat-password-12',
    isActive: true,
    organizations: [{ id: acme }],
  });
});
afterAll(async () => {
  await s.stop();
});

describe(covers('password sign-in turned off by an organization', 'app.auth.login', 'app.auth.providers'), () => {
  it("refuses its people's passwords, pointing to the company sign-in; a wrong password says no more than before", async () => {
    const refused = await login('pat@acme.example', 'pat-password-12');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatch(/signs in with its company account.*button on the sign-in page/);
    expect((await login('pat@acme.example', 'wrong-password-1')).status).toBe(401);
    const choices = await s.ok('GET', '/api/app/auth/providers');
    expect(choices.providers).toEqual([expect.objectContaining({ label: 'Sign in with Acme ID', passwordsOff: true })]);
    expect(choices.goStraightTo).toBe(choices.providers[0].id);
  });

  it('lets the tenant owner in with a password whatever the organizations say', async () => {
    const owner = (await s.ok('GET', '/api/v1/users', undefined, { get_all: true })).find(
      (u: { email: string }) => u.email === OWNER.email,
    );
    await s.ok('PUT', `/api/v1/users/${owner.id}`, { ...owner, organizations: [{ id: acme }] });
    expect((await login(OWNER.email, OWNER.password)).status).toBe(200);
  });
});
