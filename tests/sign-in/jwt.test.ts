// Sign-in with a JWT: a call with `Authorization: Bearer <JWT>` signed with the key of a JWT
// provider's certificate acts as the user of its `email` claim, where the system and the user's
// organization allow JWT and the organization has the provider. Refused with 401: a forged token
// (another key), an expired one, one without `exp`, a wrong issuer, another audience or none, one
// that lives longer than a day, HS256 made with the certificate
// as its secret, a disabled provider, an inactive user, a user of an organization without JWT.
// The same token also becomes a browser session (for embedding).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { SignJWT, importPKCS8 } from 'jose';
import { covers } from '../support/covers.js';
import { DEFAULT_THEME, startTestServer, type TestServer } from '../support/test-server.js';
import { testCertificate } from '../support/test-certificate.js';

let s: TestServer;
let providerId = '';
const issuerCert = testCertificate('jwt-issuer');
const otherCert = testCertificate('someone-else');
const ISSUER = 'https://portal.acme.example';
const refusals: Record<string, unknown>[] = [];

const AUDIENCE = 'broadsheet-embed';
const sign = async (
  claims: Record<string, unknown>,
  o: { key?: string; exp?: number | string | null; iss?: string; aud?: string | null } = {},
) => {
  const jwt = new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256' })
    .setIssuedAt()
    .setIssuer(o.iss ?? ISSUER);
  if (o.aud !== null) jwt.setAudience(o.aud ?? AUDIENCE);
  if (o.exp !== null) jwt.setExpirationTime(o.exp ?? '10m');
  return jwt.sign(await importPKCS8(o.key ?? issuerCert.key, 'RS256'));
};
const meWith = (token: string) => s.call('GET', '/api/app/auth/me', { token });

beforeAll(async () => {
  s = await startTestServer({
    logger: {
      info: () => undefined,
      error: () => undefined,
      warn: (msg, fields) => void (msg === 'JWT refused' && refusals.push(fields ?? {})),
    },
  });
  await s.ok('PUT', '/api/v1/settings/authentication-methods', { jwtAuth: true, ntlmAuth: false });
  const acme = (await s.ok('POST', '/api/v1/organizations', { displayName: 'Acme', themeId: DEFAULT_THEME })).id;
  const other = (await s.ok('POST', '/api/v1/organizations', { displayName: 'Other', themeId: DEFAULT_THEME })).id;
  providerId = (
    await s.ok('POST', '/api/v1/identity-providers', {
      name: 'Acme portal',
      type: 'JWT',
      entityID: ISSUER,
      certificatePublicKey: issuerCert.cert,
      audience: AUDIENCE,
    })
  ).id;
  for (const org of [acme, other])
    await s.ok('PUT', `/api/v1/organizations/${org}/authentication`, {
      allowJwt: org === acme,
      identityProviders: [{ id: providerId, isAactive: true }],
    });
  const person = (email: string, org: string, isActive = true) =>
    s.ok('POST', '/api/v1/users', { firstName: 'J', lastName: 'W', email, isActive, organizations: [{ id: org }] });
  await person('ann@acme.example', acme);
  await person('ivy@acme.example', acme, false);
  await person('oz@other.example', other);
});
afterAll(async () => {
  await s.stop();
});

describe(covers('sign-in with a JWT', 'app.auth.jwtSession'), () => {
  it("acts as the user of the token's email claim", async () => {
    const me = await meWith(await sign({ email: 'Ann@acme.example' }));
    expect(me.status).toBe(200);
    expect(me.body.data.user.email).toBe('ann@acme.example');
    expect(me.body.data.via).toBe('jwt');
  });

  it('refuses forged, expired, exp-less, foreign-issuer and HMAC tokens with 401, each logged with its reason', async () => {
    const cases: [string, string][] = [
      ['forged', await sign({ email: 'ann@acme.example' }, { key: otherCert.key })],
      ['expired', await sign({ email: 'ann@acme.example' }, { exp: Math.floor(Date.now() / 1000) - 3600 })],
      ['no exp', await sign({ email: 'ann@acme.example' }, { exp: null })],
      ['wrong issuer', await sign({ email: 'ann@acme.example' }, { iss: 'https://evil.example' })],
      // Issue 55: a token for another application, one naming no audience, one minted to last ten years.
      ['another audience', await sign({ email: 'ann@acme.example' }, { aud: 'someone-elses-app' })],
      ['no audience', await sign({ email: 'ann@acme.example' }, { aud: null })],
      ['ten years', await sign({ email: 'ann@acme.example' }, { exp: '3650d' })],
    ];
    // HS256 with the certificate's text as the secret: the key confusion a verifier must not fall for.
    const head = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
    const body = Buffer.from(
      JSON.stringify({ email: 'ann@acme.example', iss: ISSUER, exp: Math.floor(Date.now() / 1000) + 600 }),
    ).toString('base64url');
    const mac = createHmac('sha256', issuerCert.cert).update(`${head}.${body}`).digest('base64url');
    cases.push(['hmac with the certificate', `${head}.${body}.${mac}`]);
    for (const [what, token] of cases) expect((await meWith(token)).status, what).toBe(401);
    const reasons = refusals.map((r) => String(r.reason));
    expect(reasons).toEqual(
      expect.arrayContaining([
        'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
        'ERR_JWT_EXPIRED',
        'ERR_JWT_CLAIM_VALIDATION_FAILED',
        'algorithm not taken',
        'lives longer than 24 hours',
      ]),
    );
    // No token in what was logged.
    expect(JSON.stringify(refusals)).not.toContain('eyJ');
  });

  it('refuses an inactive user, a user of an organization without JWT, and everyone once JWT is off', async () => {
    expect((await meWith(await sign({ email: 'ivy@acme.example' }))).status).toBe(401);
    expect((await meWith(await sign({ email: 'oz@other.example' }))).status).toBe(401);
    const good = await sign({ email: 'ann@acme.example' });
    await s.ok('PUT', '/api/v1/settings/authentication-methods', { jwtAuth: false, ntlmAuth: false });
    expect((await meWith(good)).status).toBe(401);
    await s.ok('PUT', '/api/v1/settings/authentication-methods', { jwtAuth: true, ntlmAuth: false });
    expect((await meWith(good)).status).toBe(200);
  });

  it('becomes a browser session for an embedding page; a disabled provider signs nobody in', async () => {
    const token = await sign({ email: 'ann@acme.example' });
    const session = await s.call('POST', '/api/app/auth/jwt', { body: { token }, token: null });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    expect(session.body.data.token).toMatch(/^bss_/);
    expect((await meWith(session.body.data.token)).body.data.user.email).toBe('ann@acme.example');
    await s.ok('PUT', `/api/v1/identity-providers/${providerId}`, {
      name: 'Acme portal',
      type: 'JWT',
      entityID: ISSUER,
      certificatePublicKey: issuerCert.cert,
      isActive: false,
    });
    expect((await meWith(token)).status).toBe(401);
    expect((await s.call('POST', '/api/app/auth/jwt', { body: { token }, token: null })).status).toBe(401);
  });
});
