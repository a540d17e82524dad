// "Fill from issuer" (issue 55): the endpoints of an OpenID provider read from its own discovery
// document, at the issuer the administrator typed, against panva's oidc-provider on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { DEFAULT_THEME, startTestServer, type TestServer } from '../support/test-server.js';
import { oidcProviderBody, startOidcIdp, type OidcIdp } from '../support/oidc-idp.js';
import { covers } from '../support/covers.js';

let s: TestServer;
let idp: OidcIdp;
let impostor: Server;
let impostorUrl = '';

beforeAll(async () => {
  [s, idp] = await Promise.all([startTestServer(), startOidcIdp()]);
  // A document that names another issuer than the address it was read from.
  impostor = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        issuer: 'https://login.example.com',
        authorization_endpoint: 'https://login.example.com/a',
        token_endpoint: 'https://login.example.com/t',
      }),
    ),
  );
  await new Promise<void>((r) => impostor.listen(0, '127.0.0.1', r));
  impostorUrl = `http://127.0.0.1:${(impostor.address() as { port: number }).port}`;
});
afterAll(async () => {
  await s.stop();
  await idp.close();
  await new Promise((r) => impostor.close(r));
});

describe(covers('fill an OpenID provider from its issuer', 'app.identityProviders.discover'), () => {
  it("answers the issuer's endpoints as its discovery document names them", async () => {
    const doc = await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json();
    const found = await s.ok('POST', '/api/app/identity-providers/discover', { issuer: idp.issuer });
    expect(found).toEqual({
      issuer: idp.issuer,
      authorizationEndpoint: doc.authorization_endpoint,
      accessTokenEndpoint: doc.token_endpoint,
      userinfoEndpoint: doc.userinfo_endpoint,
      logoutEndpoint: doc.end_session_endpoint,
    });
  });

  it('refuses a document naming another issuer, a plain-http remote issuer and a metadata address, naming the field', async () => {
    for (const [issuer, why] of [
      [impostorUrl, /names another issuer/],
      ['http://login.example.com', /must be an https:\/\/ address/],
      ['https://169.254.169.254', /link-local or cloud metadata address/],
    ] as const) {
      const r = await s.call('POST', '/api/app/identity-providers/discover', { body: { issuer } });
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.errorDetails?.[0]).toMatchObject({ field: 'body.issuer', message: expect.stringMatching(why) });
    }
  });
});

describe(covers('the scopes an OpenID provider is asked for', 'v2.identityProviders.create'), () => {
  const scopeOfStart = async (body: Record<string, unknown>) => {
    const provider = await s.ok('POST', '/api/v2/identity-providers', body);
    const org = await s.ok('POST', '/api/v1/organizations', {
      displayName: `Org ${provider.id.slice(0, 6)}`,
      themeId: DEFAULT_THEME,
    });
    await s.ok('PUT', `/api/v2/organizations/${org.id}/authentication`, {
      qalyptusAuth: true,
      identityProvider: provider.id,
    });
    const start = await fetch(`${s.url}/api/app/sso/${provider.id}/start`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    return new URL(start.headers.get('location')!).searchParams.get('scope');
  };

  it('asks for openid even without an issuer, so a standard provider answers userinfo; or what the provider says', async () => {
    const { issuer: _none, ...withoutIssuer } = await oidcProviderBody(idp, { name: 'No issuer' });
    expect(await scopeOfStart(withoutIssuer)).toBe('openid email profile');
    expect(await scopeOfStart({ ...withoutIssuer, name: 'Own scopes', scopes: 'openid email groups' })).toBe(
      'openid email groups',
    );
  });
});
