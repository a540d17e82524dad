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
  providerId = (
    await e.s.ok('POST', '/api/v1/identity-providers', {
      name: 'Acme',
      type: 'SAML',
      entityID: idp.entityId,
      singleSignOnUrl: idp.ssoUrl,
      certificatePublicKey: idp.cert.cert,
      buttonLabel: 'Acme SSO',
    })
  ).id;
  await e.s.ok('PUT', `/api/v1/organizations/${acme}/authentication`, {
    identityProviders: [{ id: providerId, isAactive: true }],
  });
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
