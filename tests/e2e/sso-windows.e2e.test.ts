/// <reference lib="dom" />
// Windows sign-in, in Chromium, against Debian's MIT Kerberos KDC on loopback: a person who holds a
// Kerberos ticket (kinit, as a domain-joined computer does at logon) clicks "Sign in with Windows"
// and lands signed in: HTTP Negotiate, the server's key from its keytab. Matched by Windows account
// or by the principal's e-mail. Refused: a principal nobody has here, a browser with no ticket, an
// NTLM offer, Windows sign-in turned off.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { covers } from '../support/covers.js';
import { DEFAULT_THEME } from '../support/test-server.js';
import { startKdc, type Kdc } from '../support/kdc.js';
import { noConsoleErrorsSince, openApp, signOut, type E2E } from './harness.js';
import { launchChromium } from './browser.js';
import type { Page } from 'playwright-core';

let e: E2E;
let kdc: Kdc;
let here = '';
const OWNER = { firstName: 'Wim', lastName: 'Owner', email: 'wim@example.com', password: 'wim-password-1' };
const page = () => e.page;
const session = () => page().evaluate(() => sessionStorage.getItem('broadsheet.session'));
/**
 * Chromium answers the first Negotiate challenge of its life without a ticket (it readies its GSSAPI
 * library then) and every later one with it: a browser meets one challenge before the test begins.
 */
async function warmUp(tab: Page) {
  await tab.goto(`${here}/api/app/sso/windows/start`);
  await tab.goto('about:blank');
}
const settings = (ntlmAuth: boolean) =>
  e.s.ok('PUT', '/api/v1/settings/authentication-methods', { jwtAuth: false, ntlmAuth });

beforeAll(async () => {
  kdc = await startKdc();
  kdc.addPerson('alice', 'alice-password-1');
  kdc.addPerson('carol', 'carol-password-1');
  // The server's side: its realm and its key (the service HTTP/localhost).
  process.env.KRB5_CONFIG = kdc.env.KRB5_CONFIG;
  process.env.KRB5_KTNAME = kdc.keytab;
  // The acceptor's replay cache goes with the realm's folder, not the machine's temporary one.
  process.env.KRB5RCACHEDIR = kdc.dir;
  const cache = kdc.kinit('alice', 'alice-password-1');
  e = await openApp(OWNER, undefined, {
    browser: {
      // Chromium asks for tickets only for the servers it is told to trust, by the name it was given.
      args: ['--auth-server-allowlist=localhost', '--disable-auth-negotiate-cname-lookup'],
      env: { KRB5_CONFIG: kdc.env.KRB5_CONFIG, KRB5CCNAME: cache },
    },
  });
  // The service name is HTTP@<the host the browser asked for>: this server as "localhost".
  here = e.s.url.replace('127.0.0.1', 'localhost');
  await settings(true);
  const acme = (await e.s.ok('POST', '/api/v1/organizations', { displayName: 'Acme', themeId: DEFAULT_THEME })).id;
  await e.s.ok('PUT', `/api/v1/organizations/${acme}/authentication`, { allowNtlm: true });
  await e.s.ok('POST', '/api/v1/users', {
    firstName: 'Alice',
    lastName: 'Windows',
    email: 'alice@acme.example',
    domainAccount: 'BROADSHEET\\alice',
    isActive: true,
    organizations: [{ id: acme }],
  });
  await warmUp(e.page);
}, 120_000);
afterEach(() => noConsoleErrorsSince(e));
afterAll(async () => {
  await e?.close();
  await kdc?.close();
  delete process.env.KRB5_CONFIG;
  delete process.env.KRB5_KTNAME;
  delete process.env.KRB5RCACHEDIR;
});

describe(covers('Windows sign-in with Kerberos', 'app.auth.providers', 'app.auth.ssoFinish'), () => {
  it('a person with a ticket clicks "Sign in with Windows" and lands signed in', async () => {
    await page().goto(`${here}/`);
    await page().getByRole('link', { name: 'Sign in with Windows' }).click();
    await page().getByRole('button', { name: 'Alice Windows' }).waitFor();
    expect(await session()).toMatch(/^bss_/);
    await signOut(e);
  });

  it('a browser with no ticket is asked for one and shown the way back; an NTLM offer is refused in words', async () => {
    const asked = await fetch(`${here}/api/app/sso/windows/start`, { redirect: 'manual' });
    expect(asked.status).toBe(401);
    expect(asked.headers.get('www-authenticate')).toBe('Negotiate');
    expect(await asked.text()).toContain('/#/sign-in/problem/windows');
    const ntlm = await fetch(`${here}/api/app/sso/windows/start`, {
      redirect: 'manual',
      headers: { authorization: `Negotiate ${Buffer.from('NTLMSSP\0\x01\0\0\0').toString('base64')}` },
    });
    expect(ntlm.headers.get('location')).toBe(`${here}/#/sign-in/problem/windows`);
  });

  it('a principal nobody has here is refused, and so is everyone once Windows sign-in is off', async () => {
    // Carol has a ticket of the realm but no user here.
    const carol = await launchChromium({
      args: ['--auth-server-allowlist=localhost', '--disable-auth-negotiate-cname-lookup'],
      env: { KRB5_CONFIG: kdc.env.KRB5_CONFIG, KRB5CCNAME: kdc.kinit('carol', 'carol-password-1') },
    });
    try {
      const tab = await carol.newPage();
      await warmUp(tab);
      await tab.goto(`${here}/api/app/sso/windows/start`);
      await tab
        .getByRole('alert')
        .getByText(/not a Broadsheet user here/)
        .waitFor();
    } finally {
      await carol.close();
    }
    await settings(false);
    const off = await fetch(`${here}/api/app/sso/windows/start`, { redirect: 'manual' });
    expect(off.headers.get('location')).toBe(`${here}/#/sign-in/problem/disabled`);
    expect((await e.s.ok('GET', '/api/app/auth/providers')).providers).toEqual([]);
    await settings(true);
  });
});
