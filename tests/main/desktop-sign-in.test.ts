// The desktop's company sign-in (RFC 8252): the page's button asks main, main listens on a loopback
// port of its own and opens the system browser at the provider (never a web view); the person signs
// in there (Chromium, against oidc-provider), the browser comes back to the loopback address, and
// the window is signed in, its session kept in main. A redirect anywhere but loopback is refused.
// Connecting a cloud drive (Dropbox, against its fake) goes the same way, as the window's user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startDesktop, type Desktop } from '../../main/desktop.js';
import { createFakeElectron } from './fake-electron.js';
import { covers } from '../support/covers.js';
import { DEFAULT_THEME } from '../support/test-server.js';
import { oidcProviderBody, startOidcIdp, type OidcIdp } from '../support/oidc-idp.js';
import { launchChromium } from '../e2e/browser.js';
import { startFakeDropbox, type FakeDropbox } from '../support/fake-dropbox.js';

let desktop: Desktop;
let fake: ReturnType<typeof createFakeElectron>;
let idp: OidcIdp;
let browser: Browser;
let providerId = '';
let dbx: FakeDropbox;

const asOwner = (op: string, input: unknown) => fake.invoke(fake.windows[0], op, input);

beforeAll(async () => {
  idp = await startOidcIdp();
  // The desktop is a native client: any port of 127.0.0.1 (RFC 8252 7.3).
  await idp.register(['http://127.0.0.1/callback'], [], 'native');
  browser = await launchChromium();
  dbx = await startFakeDropbox();
  fake = createFakeElectron();
  desktop = (await startDesktop(fake.electron as never, {
    distDir: '/opt/broadsheet/dist',
    cloudEndpoints: { dropboxWeb: dbx.base, dropboxApi: dbx.base, dropboxContent: dbx.base },
  }))!;
  const win = fake.windows[0];
  expect(
    (
      await fake.invoke(win, 'app.setup.complete', {
        body: { firstName: 'Dee', lastName: 'Desk', email: 'dee@example.com', password: 'dee-password-1' },
      })
    ).status,
  ).toBe(200);
  const ok = async (op: string, input: unknown) => {
    const a = await asOwner(op, input);
    if (a.status !== 200) throw new Error(`${op}: ${JSON.stringify(a.envelope)}`);
    return a.envelope.data;
  };
  await ok('app.auth.login', { body: { email: 'dee@example.com', password: 'dee-password-1' } });
  const acme = (await ok('v1.organizations.create', { body: { displayName: 'Acme', themeId: DEFAULT_THEME } })).id;
  providerId = (await ok('v2.identityProviders.create', { body: await oidcProviderBody(idp) })).id;
  await ok('v2.organizations.updateAuthentication', {
    params: { id: acme },
    body: { qalyptusAuth: true, identityProvider: providerId },
  });
  await ok('v1.users.create', {
    body: {
      firstName: 'Ada',
      lastName: 'Desk',
      email: 'ada@acme.example',
      isActive: true,
      organizations: [{ id: acme }],
    },
  });
  await ok('app.auth.logout', {});
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await desktop?.engine.close().catch(() => undefined);
  fake?.cleanup();
  await idp?.close();
  await dbx?.close();
});

describe(covers("the desktop's company sign-in", 'app.auth.ssoDesktopStart', 'app.auth.ssoDesktopFinish'), () => {
  it('opens the system browser, takes the answer at a loopback port of its own, and signs the window in', async () => {
    // The system browser: Chromium, where the person signs in at the provider.
    const tab = await browser.newPage();
    fake.electron.shell.onOpenExternal = (url) =>
      void (async () => {
        await tab.goto(url);
        await tab.locator('input[name="login"]').fill('ada@acme.example');
        await tab.locator('input[name="password"]').fill('anything');
        await tab.getByRole('button', { name: 'Sign-in' }).click();
        await tab.getByRole('button', { name: 'Continue' }).click();
      })();
    const signedIn = await fake.signInWith(fake.windows[0], providerId);
    expect(signedIn.status, JSON.stringify(signedIn.envelope)).toBe(200);
    // The page never holds the session; main does, and the window's calls are Ada's.
    expect(signedIn.envelope.data.token).toBeUndefined();
    expect((await asOwner('app.auth.me', {})).envelope.data.user.email).toBe('ada@acme.example');
    const opened = new URL(fake.electron.shell.external.at(-1)!);
    expect(opened.origin).toBe(idp.issuer);
    expect(opened.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(opened.searchParams.get('code_challenge_method')).toBe('S256');
    // The browser tab was told to go back to the app.
    await tab.getByText('You can close this tab and go back to Broadsheet.').waitFor();
    await tab.close();
  });

  it('refuses a redirect that is not a loopback address of the desktop, and a page that is not the app', async () => {
    const away = await asOwner('app.auth.ssoDesktopStart', {
      body: { providerId, redirectUri: 'https://evil.example/callback' },
    });
    expect(away.status).toBe(400);
    expect(away.envelope.errorDetails[0].field).toBe('body.redirectUri');
    const handler = fake.handlers.get('desktop:sign-in-with')!;
    const foreign = (await handler(
      { sender: fake.windows[0].webContents, senderFrame: { url: 'https://evil.example/' } },
      providerId,
    )) as { status: number };
    expect(foreign.status).toBe(403);
  });
});

describe(covers("the desktop's cloud drive connection", 'app.storageServices.finishConnect'), () => {
  it('connects Dropbox in the system browser with a loopback redirect, as the signed-in owner', async () => {
    await asOwner('app.auth.logout', {});
    const ok = async (op: string, input: unknown) => {
      const a = await asOwner(op, input);
      if (a.status !== 200) throw new Error(`${op}: ${JSON.stringify(a.envelope)}`);
      return a.envelope.data;
    };
    const svc = await ok('app.storageServices.create', { body: { name: 'Desk Dropbox', type: 'Dropbox' } }).catch(
      async () => undefined,
    );
    // Signed out, the window may not connect anything.
    expect(svc).toBeUndefined();
    await ok('app.auth.login', { body: { email: 'dee@example.com', password: 'dee-password-1' } });
    await ok('app.settings.setCloudApps', { body: { dropbox: { clientId: dbx.clientId } } });
    const { id } = await ok('app.storageServices.create', { body: { name: 'Desk Dropbox', type: 'Dropbox' } });
    // The system browser: the provider consents at once and sends the browser to the loopback address.
    fake.electron.shell.onOpenExternal = (url) =>
      void (async () => {
        const atDropbox = await fetch(url, { redirect: 'manual' });
        const back = await fetch(atDropbox.headers.get('location')!);
        expect(await back.text()).toContain('You can close this tab and go back to Broadsheet.');
      })();
    const connected = await fake.connectDrive(fake.windows[0], id);
    expect(connected.status, JSON.stringify(connected.envelope)).toBe(200);
    expect(connected.envelope.data).toEqual({ id });
    const opened = new URL(fake.electron.shell.external.at(-1)!);
    expect(opened.origin).toBe(dbx.base);
    expect(opened.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const listed = (await ok('v1.storageServices.list', { query: { get_all: true } })) as {
      id: string;
      connected: boolean;
      account: string;
    }[];
    expect(listed.find((x) => x.id === id)).toMatchObject({ connected: true, account: 'dara@example.net' });
    expect((await ok('app.storageServices.test', { params: { id } })).message).toBe(
      'Wrote and removed a test file in / (Dropbox of dara@example.net)',
    );
    expect((await fake.connectDrive(fake.windows[0], 'not-an-id')).status).toBe(400);
  });
});
