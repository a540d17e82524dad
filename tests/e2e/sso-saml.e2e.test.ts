/// <reference lib="dom" />
// Company sign-in with SAML 2.0, in Chromium, against samlify as the identity provider: Broadsheet's
// SP metadata is given to the IdP, a person clicks the button, signs in at the IdP and lands signed
// in. Refused, each with the session left empty and the reason logged: a response signed with
// another key, one for another audience, an expired assertion, a replayed response.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { covers } from '../support/covers.js';
import { DEFAULT_THEME } from '../support/test-server.js';
import { startSamlIdp, type SamlIdp } from '../support/saml-idp.js';
import { testCertificate } from '../support/test-certificate.js';
import {
  accessibilityProblems,
  nav,
  noConsoleErrorsSince,
  openApp,
  shot,
  signIn,
  signOut,
  type E2E,
} from './harness.js';

let e: E2E;
let idp: SamlIdp;
let providerId = '';
const refusals: Record<string, unknown>[] = [];
const OWNER = { firstName: 'Sam', lastName: 'Owner', email: 'sam@example.com', password: 'sam-password-1' };
const page = () => e.page;

/** Clicks the button and signs in at the IdP as `email`; the page then posts the answer to Broadsheet. */
async function signInAtIdp(email: string) {
  await page().goto(`${e.s.url}/`);
  await page().getByRole('link', { name: 'Acme SSO' }).click();
  await page().getByLabel('E-mail').fill(email);
  await page().getByRole('button', { name: 'Sign in at the IdP' }).click();
  await page().getByRole('button', { name: 'Continue' }).click();
}
const session = () => page().evaluate(() => sessionStorage.getItem('broadsheet.session'));

/** A SAML provider "<name> SSO" for an IdP, the one an organization signs in with: its id. */
async function samlProviderOf(orgId: string, name: string, at: SamlIdp, extra: Record<string, unknown> = {}) {
  const id = (
    await e.s.ok('POST', '/api/v1/identity-providers', {
      name,
      type: 'SAML',
      entityID: at.entityId,
      singleSignOnUrl: at.ssoUrl,
      certificatePublicKey: at.cert.cert,
      buttonLabel: `${name} SSO`,
      ...extra,
    })
  ).id as string;
  await e.s.ok('PUT', `/api/v1/organizations/${orgId}/authentication`, {
    identityProviders: [{ id, isAactive: true }],
  });
  return id;
}

beforeAll(async () => {
  idp = await startSamlIdp();
  e = await openApp(OWNER);
  const log = e.s.engine.services.log;
  const warn = log.warn.bind(log);
  log.warn = (msg, fields) => {
    if (msg === 'Company sign-in refused') refusals.push(fields ?? {});
    warn(msg, fields);
  };
  const acme = (await e.s.ok('POST', '/api/v1/organizations', { displayName: 'Acme', themeId: DEFAULT_THEME })).id;
  providerId = await samlProviderOf(acme, 'Acme', idp);
  const metadata = await fetch(`${e.s.url}/api/app/sso/${providerId}/metadata`);
  expect(metadata.headers.get('content-type')).toContain('xml');
  const xml = await metadata.text();
  expect(xml).toContain(`${e.s.url}/api/app/sso/${providerId}/acs`);
  await idp.trust(xml);
  await e.s.ok('POST', '/api/v1/users', {
    firstName: 'Ada',
    lastName: 'Acme',
    email: 'ada@acme.example',
    isActive: true,
    organizations: [{ id: acme }],
  });
}, 120_000);
beforeEach(() => void refusals.splice(0));
afterEach(() => noConsoleErrorsSince(e));
afterAll(async () => {
  await e?.close();
  await idp?.close();
});

describe(
  covers('company sign-in with SAML 2.0', 'app.auth.providers', 'app.auth.ssoFinish', 'app.identityProviders.check'),
  () => {
    it('a person clicks the button, signs in at the IdP and lands signed in', async () => {
      await signInAtIdp('ada@acme.example');
      await page().getByRole('button', { name: 'Ada Acme' }).waitFor();
      expect(await session()).toMatch(/^bss_/);
      await signOut(e);
    });

    it('refuses a replayed response: its request was answered already', async () => {
      await signInAtIdp('ada@acme.example');
      await page().getByRole('button', { name: 'Ada Acme' }).waitFor();
      await signOut(e);
      const replay = await fetch(idp.lastResponse!.acs, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ SAMLResponse: idp.lastResponse!.SAMLResponse, RelayState: '#/' }),
      });
      expect(replay.headers.get('location')).toBe(`${e.s.url}/#/sign-in/problem/assertion`);
      expect(String(refusals[0]?.detail)).toMatch(/^replayed or unknown request: .*InResponseTo/);
    });

    const refusedCases: [string, () => void, RegExp][] = [
      ['signed with another key', () => idp.bendNext({ key: testCertificate('forger').key }), /^signature: /],
      ['for another audience', () => idp.bendNext({ audience: 'https://someone-else.example/sp' }), /^audience: /],
      ['expired', () => idp.bendNext({ validForMinutes: -10 }), /^expiry: /],
      // Issue 55: signed by the IdP, but meant for another service's address, or claiming another issuer.
      ['for another recipient', () => idp.bendNext({ recipient: 'https://someone-else.example/acs' }), /^recipient: /],
      [
        'for another destination',
        () => idp.bendNext({ destination: 'https://someone-else.example/acs' }),
        /^recipient: /,
      ],
      ['from another issuer', () => idp.bendNext({ issuer: 'https://impostor.example/idp' }), /^issuer: /],
    ];
    for (const [what, bend, reason] of refusedCases)
      it(`refuses a response ${what}, naming why in the log`, async () => {
        bend();
        await signInAtIdp('ada@acme.example');
        await page()
          .getByRole('alert')
          .getByText(/did not let you in/)
          .waitFor();
        expect(await session()).toBeNull();
        expect(refusals).toHaveLength(1);
        expect(String(refusals[0].detail)).toMatch(reason);
        expect(JSON.stringify(refusals)).not.toContain(idp.lastResponse!.SAMLResponse.slice(0, 40));
        // Refusals in a row slow this address down (the sign-in throttle): each case starts afresh.
        e.s.engine.services.signInThrottle.succeed(`sso:${providerId}`, '127.0.0.1');
      });

    it('shows the administrator the addresses to give the IdP, and checks the provider in words', async () => {
      await signIn(e, OWNER);
      await nav(page(), 'Identity providers').click();
      await page().getByRole('button', { name: 'Acme', exact: true }).click();
      const panel = page().getByRole('region', { name: 'Addresses of Acme' });
      await panel.getByText(`${e.s.url}/api/app/sso/${providerId}/acs`).waitFor();
      await panel.getByRole('button', { name: 'Check the provider' }).click();
      await panel.getByText(/Certificate:.*CN=test-saml-idp/).waitFor();
      await panel.getByText(/Single sign-on URL:.*answers/).waitFor();
      expect(await accessibilityProblems(page())).toEqual([]);
      await shot(page(), 'sso-provider-addresses');
      await signOut(e);
    });
  },
);

describe(covers('SAML with signed requests and encrypted assertions', 'app.auth.ssoFinish'), () => {
  let strict: SamlIdp;
  beforeAll(async () => {
    // An IdP that refuses unsigned requests and encrypts what it sends (what NPrinting cannot take).
    strict = await startSamlIdp({ encryptAssertions: true, wantSignedRequests: true });
    const id = (
      await e.s.ok('POST', '/api/v1/identity-providers', {
        name: 'Contoso',
        type: 'SAML',
        entityID: strict.entityId,
        singleSignOnUrl: strict.ssoUrl,
        certificatePublicKey: strict.cert.cert,
        signAuthnRequest: true,
      })
    ).id;
    const orgs = await e.s.ok('GET', '/api/v1/organizations', undefined, { get_all: true });
    const acme = orgs.find((o: { displayName: string }) => o.displayName === 'Acme').id;
    await e.s.ok('PUT', `/api/v1/organizations/${acme}/authentication`, {
      identityProviders: [
        { id: providerId, isAactive: true },
        { id, isAactive: true },
      ],
    });
    const xml = await (await fetch(`${e.s.url}/api/app/sso/${id}/metadata`)).text();
    // Both certificates are published: one to check signed requests, one to encrypt to.
    expect(xml).toContain('use="signing"');
    expect(xml).toContain('use="encryption"');
    expect(xml).toContain('AuthnRequestsSigned="true"');
    await strict.trust(xml);
  });
  afterAll(async () => {
    await strict?.close();
  });

  it('signs its request, opens the encrypted assertion, and lands the person signed in', async () => {
    await page().goto(`${e.s.url}/`);
    await page().getByRole('link', { name: 'Sign in with Contoso' }).click();
    await page().getByLabel('E-mail').fill('ada@acme.example');
    await page().getByRole('button', { name: 'Sign in at the IdP' }).click();
    await page().getByRole('button', { name: 'Continue' }).click();
    await page().getByRole('button', { name: 'Ada Acme' }).waitFor();
    expect(Buffer.from(strict.lastResponse!.SAMLResponse, 'base64').toString()).toContain('EncryptedAssertion');
    await signOut(e);
  });
});

describe(covers('SAML single logout', 'app.auth.signOut'), () => {
  let slo: SamlIdp;
  let betaProvider = '';
  const BO = 'bo@beta.example';
  /** The session token a call with the browser's session answers with: 200 while it lives, 401 once ended. */
  const meWith = async (token: string | null) =>
    (await fetch(`${e.s.url}/api/app/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status;
  /** Bo signed in at Beta's IdP in the browser: the session token the page holds. */
  async function boSignedIn(): Promise<string> {
    await page().goto(`${e.s.url}/`);
    await page().getByRole('link', { name: 'Beta SSO' }).click();
    await page().getByLabel('E-mail').fill(BO);
    await page().getByRole('button', { name: 'Sign in at the IdP' }).click();
    await page().getByRole('button', { name: 'Continue' }).click();
    await page().getByRole('button', { name: 'Bo Beta' }).waitFor();
    const token = await session();
    expect(token).toMatch(/^bss_/);
    return token!;
  }
  /** Posts a logout message to Broadsheet's single logout address as a browser would; the redirect it answers. */
  const post = async (action: string, form: Record<string, string>) =>
    (
      await fetch(action, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form),
      })
    ).headers.get('location') ?? '';

  beforeAll(async () => {
    slo = await startSamlIdp();
    const beta = (await e.s.ok('POST', '/api/v1/organizations', { displayName: 'Beta', themeId: DEFAULT_THEME })).id;
    betaProvider = await samlProviderOf(beta, 'Beta', slo, { singleLogoutUrl: slo.sloUrl });
    const xml = await (await fetch(`${e.s.url}/api/app/sso/${betaProvider}/metadata`)).text();
    // The logout address is published, with the certificate its signed logout requests are checked with.
    expect(xml).toContain(`Location="${e.s.url}/api/app/sso/${betaProvider}/slo"`);
    expect(xml).toContain('use="signing"');
    await slo.trust(xml);
    await e.s.ok('POST', '/api/v1/users', {
      firstName: 'Bo',
      lastName: 'Beta',
      email: BO,
      isActive: true,
      organizations: [{ id: beta }],
    });
  });
  afterAll(async () => {
    await slo?.close();
  });

  it('signing out here signs the person out at the IdP too, with a signed request naming their sign-in', async () => {
    const token = await boSignedIn();
    await page().getByRole('button', { name: 'Sign out' }).click();
    // At the IdP: it checked the request's signature and whom it names, and answers back.
    await page().getByRole('heading', { name: 'Signed out at the test IdP' }).waitFor();
    expect(slo.logoutsAsked).toEqual([{ nameID: BO, sessionIndex: slo.sessionIndexOf.get(BO) }]);
    expect(await meWith(token)).toBe(401);
    await page().getByRole('button', { name: 'Back to the application' }).click();
    await page().getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await session()).toBeNull();
  });

  it("ends the person's session when the IdP asks, answers it signed, and leaves everyone else signed in", async () => {
    const token = await boSignedIn();
    const owner = (await e.s.ok('POST', '/api/app/auth/login', { email: OWNER.email, password: OWNER.password })).token;
    const { id, action, form } = await slo.logoutRequest(BO);
    const answer = await post(action, form);
    expect(answer.startsWith(`${slo.sloUrl}?SAMLResponse=`)).toBe(true);
    expect(new URL(answer).searchParams.get('Signature')).toBeTruthy();
    expect(await meWith(token)).toBe(401);
    expect(await meWith(owner)).toBe(200);
    // The IdP takes the answer: signed by the key Broadsheet's metadata names, a success.
    expect((await fetch(answer)).status).toBe(200);
    expect(slo.logoutAnswers.at(-1)).toEqual({ ok: true, inResponseTo: id });
    await page().reload();
    await page().getByRole('button', { name: 'Sign in' }).waitFor();
  });

  it('refuses a logout request signed with another key, or not signed at all: nobody is signed out', async () => {
    const token = await boSignedIn();
    const forged = await slo.logoutRequest(BO, { key: testCertificate('forger').key });
    const problem = `${e.s.url}/#/sign-in/problem/signout`;
    expect(await post(forged.action, forged.form)).toBe(problem);
    // The redirect binding without a Signature: node-saml alone would take it.
    const xml = Buffer.from(forged.form.SAMLRequest, 'base64')
      .toString()
      .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '');
    const { deflateRawSync } = await import('node:zlib');
    const unsigned = `${forged.action}?SAMLRequest=${encodeURIComponent(deflateRawSync(xml).toString('base64'))}`;
    expect((await fetch(unsigned, { redirect: 'manual' })).headers.get('location')).toBe(problem);
    expect(await meWith(token)).toBe(200);
    await page().getByRole('button', { name: 'Sign out' }).click();
    await page().getByRole('button', { name: 'Back to the application' }).click();
    await page().getByRole('button', { name: 'Sign in' }).waitFor();
  });
});
