/// <reference lib="dom" />
// Company sign-in with OpenID Connect, in Chromium, against panva's oidc-provider on loopback: a
// person clicks the organization's button, signs in at the provider and lands signed in, on the
// screen they were going to. Refused: an identity nobody has here, a user of another organization,
// a forged or replayed `state`, a disabled provider; a `returnTo` to another host lands here.
import { IdentityProvider } from '../../engine/model/identity-providers.entity.js';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { covers } from '../support/covers.js';
import { DEFAULT_THEME } from '../support/test-server.js';
import { oidcProviderBody, startOidcIdp, type OidcIdp } from '../support/oidc-idp.js';
import { accessibilityProblems, dialog, nav, noConsoleErrorsSince, openApp, shot, type E2E } from './harness.js';

let e: E2E;
let idp: OidcIdp;
let providerId = '';
let acme = '';
const logged: { msg: string; fields?: Record<string, unknown> }[] = [];
const OWNER = { firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com', password: 'olga-password-1' };
const page = () => e.page;

/** Signs in at the provider's own login page (its development form takes any login and password). */
async function atProvider(login: string) {
  await page().locator('input[name="login"]').waitFor();
  await page().locator('input[name="login"]').fill(login);
  await page().locator('input[name="password"]').fill('anything');
  await page().getByRole('button', { name: 'Sign-in' }).click();
  // The provider asks once to share the e-mail with Broadsheet.
  const consent = page().getByRole('button', { name: 'Continue' });
  await consent.waitFor({ timeout: 5_000 }).then(
    () => consent.click(),
    () => undefined,
  );
}

const problem = () => page().getByRole('alert');

/** Signs out of Broadsheet and, on the provider's logout page, of the provider; lands on the sign-in page. */
async function signOutThere() {
  await page().getByRole('button', { name: 'Sign out' }).click();
  await page().getByRole('button', { name: 'Yes, sign me out' }).click();
  await page().getByRole('button', { name: 'Sign in' }).waitFor();
}

beforeAll(async () => {
  idp = await startOidcIdp();
  e = await openApp(OWNER, undefined);
  // What the engine logs: refusals are written with their reason, never with a token.
  const log = e.s.engine.services.log;
  for (const level of ['info', 'warn', 'error'] as const) {
    const original = log[level].bind(log);
    log[level] = (msg, fields) => {
      logged.push({ msg, fields });
      original(msg, fields);
    };
  }
  acme = (await e.s.ok('POST', '/api/v1/organizations', { displayName: 'Acme', themeId: DEFAULT_THEME })).id;
  const other = (await e.s.ok('POST', '/api/v1/organizations', { displayName: 'Other', themeId: DEFAULT_THEME })).id;
  providerId = (
    await e.s.ok(
      'POST',
      '/api/v2/identity-providers',
      await oidcProviderBody(idp, { postLogoutRedirectUrl: `${e.s.url}/` }),
    )
  ).id;
  await idp.register([`${e.s.url}/api/app/sso/${providerId}/callback`], [`${e.s.url}/`]);
  await e.s.ok('PUT', `/api/v2/organizations/${acme}/authentication`, {
    qalyptusAuth: true,
    identityProvider: providerId,
  });
  const person = (email: string, firstName: string, org: string) =>
    e.s.ok('POST', '/api/v1/users', {
      firstName,
      lastName: 'Example',
      email,
      isActive: true,
      organizations: [{ id: org }],
    });
  await person('alice@acme.example', 'Alice', acme);
  await person('bob@other.example', 'Bob', other);
}, 120_000);
beforeEach(async () => {
  // Each test signs in at the provider afresh (its session lives in its cookies; Broadsheet sets none).
  await e.context.clearCookies();
});
afterEach(() => {
  // The provider's development login page asks for a web font it cannot reach here: its page, not ours.
  e.consoleErrors.splice(
    0,
    e.consoleErrors.length,
    ...e.consoleErrors.filter((m) => !m.includes('fonts.googleapis.com')),
  );
  noConsoleErrorsSince(e);
});
afterAll(async () => {
  await e?.close();
  await idp?.close();
});

describe(covers('company sign-in with OpenID Connect', 'app.auth.providers', 'app.auth.ssoFinish'), () => {
  it('a person clicks the button, signs in at the provider and lands signed in', async () => {
    await page().goto(`${e.s.url}/`);
    const button = page().getByRole('link', { name: 'Sign in with Acme ID' });
    await button.waitFor();
    expect(await accessibilityProblems(page())).toEqual([]);
    await shot(page(), 'sso-sign-in-buttons');
    await button.click();
    await atProvider('alice@acme.example');
    await page().getByRole('navigation', { name: 'Main' }).waitFor();
    await page().getByRole('button', { name: 'Alice Example' }).waitFor();
    // The one-time code left the address; the page holds a session of its own.
    expect(new URL(page().url()).hash).not.toContain('finish');
    const token = await page().evaluate(() => sessionStorage.getItem('broadsheet.session'));
    expect(token).toMatch(/^bss_/);
    const me = await e.s.call('GET', '/api/app/auth/me', { token });
    expect(me.body.data.user.email).toBe('alice@acme.example');
    expect(idp.errors).toEqual([]);
    // Nothing logged carries a token or a code.
    expect(JSON.stringify(logged)).not.toMatch(/bss_|eyJ[A-Za-z0-9_-]{10,}\./);
    // Signing out ends the provider's session too: its logout page, then back to the sign-in page.
    await page().getByRole('button', { name: 'Sign out' }).click();
    await page().getByRole('button', { name: 'Yes, sign me out' }).click();
    await page().getByRole('link', { name: 'Sign in with Acme ID' }).waitFor();
    expect(new URL(page().url()).origin).toBe(e.s.url);
    expect(await e.s.call('GET', '/api/app/auth/me', { token })).toMatchObject({ status: 401 });
  });

  it('an e-mail the provider has not verified signs nobody in (issue 55)', async () => {
    await page().goto(`${e.s.url}/`);
    await page().getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await atProvider('unverified-alice@acme.example');
    await problem().waitFor();
    expect(await page().evaluate(() => sessionStorage.getItem('broadsheet.session'))).toBeNull();
    expect(logged.some((l) => l.msg === 'Company sign-in refused' && l.fields?.reason === 'unverified')).toBe(true);
    // A refusal counts against this address (the sign-in throttle): the next test starts afresh.
    e.s.engine.services.signInThrottle.succeed(`sso:${providerId}`, '127.0.0.1');
  });

  it('an ID token signed by a key the issuer does not publish signs nobody in (issue 55)', async () => {
    // A provider changed is configured afresh, its keys read anew: before the bend and after it.
    const touch = () =>
      e.s.engine.services.db.getRepository(IdentityProvider).update(providerId, { modifiedDate: new Date() });
    await idp.foreignKeys(true);
    await touch();
    try {
      await page().goto(`${e.s.url}/`);
      await page().getByRole('link', { name: 'Sign in with Acme ID' }).click();
      await atProvider('alice@acme.example');
      await problem().waitFor();
      expect(await page().evaluate(() => sessionStorage.getItem('broadsheet.session'))).toBeNull();
      expect(logged.some((l) => l.msg === 'Company sign-in refused' && l.fields?.reason === 'token')).toBe(true);
      e.s.engine.services.signInThrottle.succeed(`sso:${providerId}`, '127.0.0.1');
    } finally {
      await idp.foreignKeys(false);
      await touch();
    }
  });

  it('an identity nobody has here sees a page saying so, and nobody is created', async () => {
    const users = (await e.s.ok('GET', '/api/v1/users', undefined, { get_all: true })).length;
    await page().goto(`${e.s.url}/`);
    await page().getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await atProvider('mallory@acme.example');
    await problem()
      .getByText(/not a Broadsheet user here/)
      .waitFor();
    expect((await e.s.ok('GET', '/api/v1/users', undefined, { get_all: true })).length).toBe(users);
    expect(logged.some((l) => l.msg === 'Company sign-in refused' && l.fields?.reason === 'nobody')).toBe(true);
  });

  it("a user of another organization never enters through this one's provider", async () => {
    await page().goto(`${e.s.url}/`);
    await page().getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await atProvider('bob@other.example');
    await problem()
      .getByText(/not a Broadsheet user here/)
      .waitFor();
    expect(await page().evaluate(() => sessionStorage.getItem('broadsheet.session'))).toBeNull();
  });

  it('with provisioning on, a person nobody has becomes a Hub user of the organization and lands signed in', async () => {
    const { type: _type, clientSecret: _secret, ...body } = await oidcProviderBody(idp, { provision: true });
    await e.s.ok('PUT', `/api/v2/identity-providers/${providerId}`, body);
    await page().goto(`${e.s.url}/`);
    await page().getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await atProvider('newcomer@acme.example');
    await page().getByRole('navigation', { name: 'Main' }).waitFor();
    const made = (await e.s.ok('GET', '/api/v1/users', undefined, { get_all: true })).find(
      (u: { email: string }) => u.email === 'newcomer@acme.example',
    );
    expect(made.organizations.map((o: { id: string }) => o.id)).toEqual([acme]);
    expect(made.roles.map((r: { name: string }) => r.name)).toEqual(['Hub users']);
    // An address another organization's user holds is never taken over.
    await signOutThere();
    await page().getByRole('link', { name: 'Sign in with Acme ID' }).click();
    await atProvider('bob@other.example');
    await problem()
      .getByText(/not a Broadsheet user here/)
      .waitFor();
    await e.s.ok('PUT', `/api/v2/identity-providers/${providerId}`, { ...body, provision: false });
  });

  it('a returnTo to another host lands on this server', async () => {
    await page().goto(
      `${e.s.url}/api/app/sso/${providerId}/start?returnTo=${encodeURIComponent('https://evil.example/x')}`,
    );
    await atProvider('alice@acme.example');
    await page().getByRole('navigation', { name: 'Main' }).waitFor();
    expect(new URL(page().url()).origin).toBe(e.s.url);
    await signOutThere();
  });

  it('a forged state, a replayed answer and a used hand-off are refused', async () => {
    const forged = await fetch(`${e.s.url}/api/app/sso/${providerId}/callback?code=x&state=forged`, {
      redirect: 'manual',
    });
    expect(forged.status).toBe(302);
    expect(forged.headers.get('location')).toBe(`${e.s.url}/#/sign-in/problem/state`);
    // A real answer, taken by hand: used once it works; the same answer again is refused.
    const start = await fetch(`${e.s.url}/api/app/sso/${providerId}/start`, { redirect: 'manual' });
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.origin).toBe(idp.issuer);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('nonce')).toBeTruthy();
    await page().goto(authorize.toString());
    let callback = '';
    page().on('request', (r) => {
      if (r.url().includes('/callback?')) callback = r.url();
    });
    await atProvider('alice@acme.example');
    await page().getByRole('navigation', { name: 'Main' }).waitFor();
    expect(callback).toContain('state=');
    const replay = await fetch(callback, { redirect: 'manual' });
    expect(replay.headers.get('location')).toBe(`${e.s.url}/#/sign-in/problem/state`);
    const finish = await e.s.call('POST', '/api/app/auth/sso/finish', { body: { code: 'not-a-code' }, token: null });
    expect(finish.status).toBe(401);
    await signOutThere();
  });

  it('a disabled provider signs nobody in, and its button goes', async () => {
    await e.s.ok('PUT', `/api/v2/identity-providers/${providerId}`, {
      name: 'Acme ID',
      clientID: idp.clientId,
      authorizationEndpoint: `${idp.issuer}/auth`,
      accessTokenEndpoint: `${idp.issuer}/token`,
      userinfoEndpoint: `${idp.issuer}/me`,
      isActive: false,
    });
    const start = await fetch(`${e.s.url}/api/app/sso/${providerId}/start`, { redirect: 'manual' });
    expect(start.headers.get('location')).toBe(`${e.s.url}/#/sign-in/problem/disabled`);
    expect((await e.s.ok('GET', '/api/app/auth/providers')).providers).toEqual([]);
    await page().goto(`${e.s.url}/#/sign-in/problem/disabled`);
    await page().reload();
    await problem()
      .getByText(/That sign-in is turned off/)
      .waitFor();
    expect(await page().getByRole('link', { name: 'Sign in with Acme ID' }).count()).toBe(0);
  });

  it('an administrator edits the OpenID provider on its screen, with its own fields, keeping its secret', async () => {
    await page().goto(`${e.s.url}/`);
    await page().getByLabel('E-mail').fill(OWNER.email);
    await page().getByLabel('Password').fill(OWNER.password);
    await page().getByRole('button', { name: 'Sign in' }).click();
    await nav(page(), 'Identity providers').click();
    const row = page().getByRole('row', { name: /Acme ID/ });
    await row.getByRole('button', { name: 'Edit' }).click();
    const form = dialog(page());
    expect(await form.getByLabel('Client ID').inputValue()).toBe(idp.clientId);
    expect(await form.getByLabel('Issuer').inputValue()).toBe(idp.issuer);
    await form.getByLabel('Description').fill('The company directory');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    const saved = (await e.s.ok('GET', '/api/v1/identity-providers', undefined, { get_all: true })).find(
      (p: { id: string }) => p.id === providerId,
    );
    expect(saved).toMatchObject({
      description: 'The company directory',
      hasClientSecret: true,
      type: 'OpenID Connect',
    });
    // The screen offers both shapes of provider.
    await page().getByRole('button', { name: 'New OpenID provider' }).waitFor();
    await page().getByRole('button', { name: 'New SAML or JWT provider' }).waitFor();
    // Issue 55: a new provider's endpoints are filled from its issuer's discovery document.
    await page().getByRole('button', { name: 'New OpenID provider' }).click();
    const creating = page().getByRole('dialog');
    await creating.getByLabel('Issuer').fill(idp.issuer);
    await creating.getByRole('button', { name: 'Fill from issuer' }).click();
    const doc = await (await fetch(`${idp.issuer}/.well-known/openid-configuration`)).json();
    await expect
      .poll(() => creating.getByLabel('Authorization endpoint').inputValue())
      .toBe(doc.authorization_endpoint);
    expect(await creating.getByLabel('Token endpoint').inputValue()).toBe(doc.token_endpoint);
    expect(await creating.getByLabel('Userinfo endpoint').inputValue()).toBe(doc.userinfo_endpoint);
    await shot(page(), 'sso-oidc-fill-from-issuer');
    await creating.getByRole('button', { name: 'Cancel' }).click();
  });
});
