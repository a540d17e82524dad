// "Fill from issuer" (issue 55): the endpoints of an OpenID provider read from its own discovery
// document, at the issuer the administrator typed, against panva's oidc-provider on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { startOidcIdp, type OidcIdp } from '../support/oidc-idp.js';
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
