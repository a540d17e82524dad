/// <reference lib="dom" />
// An administrator at the served UI: dialogs that hold focus and keep what was typed, failures told
// as failures in words, enumerations offered as choices, the server's validation shown beside each
// field at once, deletes asked in the app, and a layout whose menu stays while content scrolls.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { covers } from '../support/covers.js';
import {
  alertDialog,
  dialog,
  nav,
  NARROW,
  noConsoleErrorsSince,
  openApp,
  shot,
  signIn,
  toast,
  WIDE,
  type E2E,
} from './harness.js';

let e: E2E;
const OWNER = { firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com', password: 'olga-password-1' };
const page = () => e.page;
const exactLabel = (label: string) => new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}( \\*)?$`);
/** The error shown under the field labelled `label` in the open dialog. */
const fieldError = (label: string) =>
  dialog(page())
    .locator('.field.invalid')
    .filter({ has: page().locator('label', { hasText: exactLabel(label) }) })
    .locator('.field-error');
/** Where keyboard focus is: inside the open dialog or not. */
const focusInDialog = () => page().evaluate(() => !!document.activeElement?.closest('[role=dialog]'));

beforeAll(async () => {
  e = await openApp(OWNER);
  const orgId = (await e.s.ok('GET', '/api/v1/organizations', undefined, { get_all: true }))[0].id;
  for (const [first, last] of [
    ['Maria', 'Rossi'],
    ['Tom', 'Berg'],
    ['Ana', 'Silva'],
  ])
    await e.s.ok('POST', '/api/v1/users', {
      firstName: first,
      lastName: last,
      email: `${first.toLowerCase()}@example.com`,
      isActive: true,
      organizations: [{ id: orgId }],
    });
});
afterEach(() => noConsoleErrorsSince(e));
afterAll(async () => {
  await e?.close();
});

describe(
  covers(
    'administration in Chromium',
    'v1.groups.list',
    'v1.groups.create',
    'v1.groups.delete',
    'v1.users.create',
    'v2.users.delete',
    'v1.apiKeys.create',
    'v1.roles.update',
    'v1.userDirectories.create',
    'v1.identityProviders.create',
  ),
  () => {
    it('signs in, and says a wrong password is wrong', async () => {
      await page().goto(e.s.url + '/');
      await page().getByLabel('E-mail').fill(OWNER.email);
      await page().getByLabel('Password').fill('wrong-password');
      await page().getByRole('button', { name: 'Sign in' }).click();
      await expect.poll(() => page().getByRole('alert').textContent()).toMatch(/incorrect/);
      await signIn(e, OWNER);
      expect(await page().getByRole('navigation').textContent()).toContain('Olga Owner');
    });

    it('groups the menu by work, and keeps it in place while the content scrolls', async () => {
      const areas = await page().getByRole('navigation', { name: 'Main' }).getByRole('heading').allTextContents();
      expect(areas).toEqual(['Reports', 'Distribution', 'Hub', 'Administration']);
      await nav(page(), 'Roles').click();
      await page().getByRole('heading', { name: 'Permissions by role' }).waitFor();
      const before = await nav(page(), 'Projects').boundingBox();
      await page()
        .locator('main.content')
        .evaluate((m) => m.scrollBy(0, 2000));
      expect(
        await page()
          .locator('main.content')
          .evaluate((m) => m.scrollTop),
      ).toBeGreaterThan(0);
      expect(await nav(page(), 'Projects').boundingBox()).toEqual(before);
      expect(await page().evaluate(() => document.scrollingElement!.scrollTop)).toBe(0);
    });

    it('keeps focus inside a dialog, keeps input on a backdrop click, closes on Escape and on Cancel', async () => {
      await nav(page(), 'Groups').click();
      await page().getByRole('button', { name: 'New group' }).click();
      const name = dialog(page()).getByRole('textbox', { name: 'Name', exact: true });
      await name.fill('Draft group');
      for (let i = 0; i < 15; i++) {
        await page().keyboard.press('Tab');
        expect(await focusInDialog()).toBe(true);
      }
      await page().mouse.click(5, 5);
      expect(await name.inputValue()).toBe('Draft group');
      // A backdrop click keeps focus in the dialog (restored a moment later on a busy machine): waited for, then Escape.
      await expect.poll(focusInDialog).toBe(true);
      await page().keyboard.press('Escape');
      await dialog(page()).waitFor({ state: 'detached' });
      // Focus goes back to what opened the dialog once it has gone (a moment later on a busy machine).
      await expect.poll(() => page().evaluate(() => document.activeElement?.textContent)).toBe('New group');
      await page().getByRole('button', { name: 'New group' }).click();
      await dialog(page()).getByRole('button', { name: 'Cancel' }).click();
      await dialog(page()).waitFor({ state: 'detached' });
    });

    it('shows every error of a submit at once beside its field, in words, with focus on the first', async () => {
      await page().getByRole('button', { name: 'New group' }).click();
      await dialog(page()).getByRole('textbox', { name: 'Name', exact: true }).fill('   ');
      await dialog(page()).getByRole('button', { name: 'Create' }).click();
      await expect.poll(() => fieldError('Name').textContent()).toBe('must not be empty');
      const nameId = await dialog(page()).getByRole('textbox', { name: 'Name', exact: true }).getAttribute('id');
      await expect
        .poll(() => page().evaluate(() => (document.activeElement as HTMLInputElement | null)?.id))
        .toBe(nameId);
      await dialog(page()).getByRole('textbox', { name: 'Name', exact: true }).fill('Regional managers');
      await dialog(page()).getByLabel('Organization').selectOption({ label: 'Default' });
      await dialog(page()).getByRole('button', { name: 'Create' }).click();
      await page()
        .getByRole('row', { name: /Regional managers/ })
        .waitFor();
      // The new group opens at once where its members are added.
      await page().getByRole('region', { name: 'Regional managers' }).getByLabel('Add user').waitFor();
      // A second group of the same name (in other letters' case) is refused on its name.
      await page().getByRole('button', { name: 'New group' }).click();
      await dialog(page()).getByRole('textbox', { name: 'Name', exact: true }).fill('regional MANAGERS');
      await dialog(page()).getByLabel('Organization').selectOption({ label: 'Default' });
      await dialog(page()).getByRole('button', { name: 'Create' }).click();
      await expect.poll(() => fieldError('Name').textContent()).toMatch(/already/);
      await dialog(page()).getByRole('button', { name: 'Cancel' }).click();
    });

    it('adds a user to a group and tells it in a toast', async () => {
      await page()
        .getByRole('row', { name: /Regional managers/ })
        .click();
      await page().getByLabel('Add user').selectOption({ label: 'Maria Rossi <maria@example.com>' });
      await page().getByRole('button', { name: 'Add to group' }).click();
      await toast(page(), 'success', 'Maria Rossi <maria@example.com> added to Regional managers.').waitFor();
      const groups = await e.s.ok('GET', '/api/v1/groups', undefined, { 'name[equals]': 'Regional managers' });
      expect(
        (await e.s.ok('GET', `/api/v1/groups/${groups[0].id}/users`)).map((m: { email: string }) => m.email),
      ).toEqual(['maria@example.com']);
    });

    it('tells a refused delete as a failure, in red, and asks in the app before deleting', async () => {
      const builtIn = page()
        .getByRole('row', { name: /Everyone|Administrators|All users/ })
        .first();
      await builtIn.getByRole('button', { name: 'Delete' }).click();
      const ask = alertDialog(page());
      expect(await ask.textContent()).toMatch(/will be deleted/);
      await ask.getByRole('button', { name: /^Delete/ }).click();
      const failure = toast(page(), 'failure');
      await failure.waitFor();
      expect(await failure.textContent()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-|body\./);
      expect(await toast(page(), 'success', /Deleted/).count()).toBe(0);
      await failure.getByRole('button', { name: 'Dismiss' }).click();
    });

    it('asks a user directory only what its kind needs: a server for LDAP, an app registration for Azure AD', async () => {
      await nav(page(), 'User directories').click();
      await page().getByRole('button', { name: 'New user directory' }).click();
      const d = dialog(page());
      await d.getByLabel('Type').selectOption('LDAP');
      await d.getByRole('textbox', { name: 'Host' }).waitFor();
      expect(await d.getByLabel('Azure tenant id').count()).toBe(0);
      await d.getByLabel('Type').selectOption('AzureAD');
      await d.getByLabel('Azure tenant id').waitFor();
      expect(await d.getByRole('textbox', { name: 'Host' }).count()).toBe(0);
      // The schedule's fields only when it synchronizes on one.
      await d.getByLabel('Synchronization').selectOption('Manual');
      expect(await d.getByRole('combobox', { name: 'Time zone' }).count()).toBe(0);
      await d.getByLabel('Synchronization').selectOption('Daily');
      await d.getByRole('combobox', { name: 'Time zone' }).waitFor();
      // The time of day is picked as a time, as a task's hours are, not typed as HH:mm.
      expect(await d.getByLabel('At', { exact: true }).getAttribute('type')).toBe('time');
      await d.getByRole('button', { name: 'Cancel' }).click();
    });

    it("starts a new user in the one organization there is, and keeps a long form's buttons in view at 1024 × 700", async () => {
      await page().setViewportSize(NARROW);
      await nav(page(), 'Users').click();
      await page().getByRole('button', { name: 'New user' }).click();
      await dialog(page()).getByRole('textbox', { name: 'First name' }).fill('Nadia');
      await dialog(page()).getByRole('textbox', { name: 'Last name' }).fill('Novak');
      await dialog(page()).getByRole('textbox', { name: 'E-mail' }).fill('nadia@example.com');
      // A new person has no current password to keep: the hint says what an empty one means here.
      const hint = await dialog(page())
        .locator('.field', { has: page().getByLabel('Password') })
        .textContent();
      expect(hint).not.toContain('keep the current one');
      expect(hint).toContain('signs in another way');
      const create = dialog(page()).getByRole('button', { name: 'Create' });
      const box = await create.boundingBox();
      expect(box!.y + box!.height).toBeLessThanOrEqual(NARROW.height);
      // The one organization there is starts ticked: required, and nothing to choose.
      await expect
        .poll(() => dialog(page()).getByRole('group', { name: 'Organizations' }).getByLabel('Default').isChecked())
        .toBe(true);
      await create.click();
      await dialog(page()).waitFor({ state: 'detached' });
      await page()
        .getByRole('row', { name: /Nadia Novak/ })
        .waitFor();
    });

    it('fits tables at 1024 px with their actions in view, and deletes a user after asking', async () => {
      const row = page().getByRole('row', { name: /Nadia Novak/ });
      const del = row.getByRole('button', { name: 'Delete' });
      const box = await del.boundingBox();
      expect(box!.x + box!.width).toBeLessThanOrEqual(NARROW.width);
      expect(await page().evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(NARROW.width);
      await shot(page(), 'users-1024');
      await del.click();
      expect(await alertDialog(page()).textContent()).toMatch(/Nadia Novak/);
      await alertDialog(page())
        .getByRole('button', { name: /^Delete/ })
        .click();
      await row.waitFor({ state: 'detached' });
      await toast(page(), 'success', /Nadia Novak/).waitFor();
      expect((await e.s.ok('GET', '/api/v1/users', undefined, { 'email[equals]': 'nadia@example.com' })).length).toBe(
        0,
      );
      await page().setViewportSize(WIDE);
    });

    it('shows "Loading…" while a list loads, never "Page 0 of 0"', async () => {
      // The list's answer is held until the test has looked at the page while it loads.
      let release = () => {};
      const held = new Promise<void>((ok) => (release = ok));
      await page().route('**/api/app/invoke/v1.groups.list', async (r) => {
        await held;
        await r.continue();
      });
      await nav(page(), 'Groups').click();
      await page().getByRole('status').filter({ hasText: 'Loading…' }).waitFor();
      expect(
        await page()
          .getByText(/Page 0 of 0/)
          .count(),
      ).toBe(0);
      release();
      await page()
        .getByRole('row', { name: /Regional managers/ })
        .waitFor();
      await page().unroute('**/api/app/invoke/v1.groups.list');
    });

    it('offers directory and identity provider types as choices, and refuses a sign-on address that is not one', async () => {
      await nav(page(), 'User directories').click();
      await page().getByRole('button', { name: 'New user directory' }).click();
      await expect
        .poll(() => dialog(page()).getByRole('combobox', { name: /^Type/ }).locator('option').allTextContents())
        .toEqual(expect.arrayContaining(['LDAP', 'Active Directory']));
      expect(
        await dialog(page())
          .getByLabel('Synchronization')
          .evaluate((el) => el.tagName),
      ).toBe('SELECT');
      await dialog(page()).getByLabel('Port').fill('70000');
      await dialog(page()).getByRole('button', { name: 'Create' }).click();
      await expect
        .poll(() => dialog(page()).locator('.field.invalid .field-error').allTextContents())
        .toContain('must be 65535 or less');
      expect(await dialog(page()).textContent()).not.toMatch(/Too big|expected number/);
      await page().keyboard.press('Escape');
      await dialog(page()).waitFor({ state: 'detached' });
      await nav(page(), 'Identity providers').click();
      await page().getByRole('button', { name: 'New SAML or JWT provider' }).click();
      await expect
        .poll(() => dialog(page()).getByRole('combobox', { name: /^Type/ }).locator('option').allTextContents())
        .toEqual(expect.arrayContaining(['SAML', 'JWT']));
      await dialog(page()).getByRole('textbox', { name: 'Name', exact: true }).fill('Corporate SSO');
      await dialog(page()).getByRole('combobox', { name: /^Type/ }).selectOption('SAML');
      await dialog(page()).getByRole('textbox', { name: 'Single sign-on URL' }).fill('not a url');
      await dialog(page()).getByRole('button', { name: 'Create' }).click();
      await expect.poll(() => fieldError('Single sign-on URL').textContent()).toMatch(/web address/);
      // A JWT provider is asked only what it checks tokens with: no sign-in or sign-out address, no button.
      await dialog(page()).getByRole('combobox', { name: /^Type/ }).selectOption('JWT');
      await dialog(page())
        .getByRole('textbox', { name: /^Audience \(JWT\)/ })
        .waitFor();
      for (const name of ['Single sign-on URL', 'Single logout URL', 'Sign-in button label'])
        expect(await dialog(page()).getByRole('textbox', { name }).count()).toBe(0);
      expect(await dialog(page()).getByRole('textbox', { name: 'Entity ID' }).count()).toBe(1);
      // The field in error held the focus and has left the form: the focus is back inside the dialog, so Escape still closes it.
      expect(await page().evaluate(() => !!document.activeElement?.closest('[role="dialog"]'))).toBe(true);
      await page().keyboard.press('Escape');
      await dialog(page()).waitFor({ state: 'detached' });
    });

    it('shows a new API key once, in a dialog no stray click or Escape can close', async () => {
      await nav(page(), 'API keys').click();
      await page().getByRole('button', { name: 'New API key' }).click();
      await dialog(page()).getByRole('textbox', { name: 'Name', exact: true }).fill('Reporting robot');
      await dialog(page()).getByRole('button', { name: 'Create' }).click();
      const key = await page().getByTestId('new-api-key').textContent();
      expect(key).toMatch(/^bsk_/);
      await page().mouse.click(5, 5);
      await page().keyboard.press('Escape');
      expect(await page().getByTestId('new-api-key').textContent()).toBe(key);
      await shot(page(), 'api-key-once');
      await page().getByRole('button', { name: 'I have saved the key' }).click();
      await dialog(page()).waitFor({ state: 'detached' });
      expect(await page().locator('table').textContent()).not.toContain(key!);
      expect((await e.s.call('GET', '/api/app/auth/me', { token: key })).status).toBe(200);
    });

    it('edits role permissions in the role × permission matrix', async () => {
      await nav(page(), 'Roles').click();
      const box = page().getByLabel('Hub users: View group');
      await box.waitFor();
      expect(await box.isChecked()).toBe(false);
      const granted = () =>
        page()
          .getByRole('row', { name: /^Hub users/ })
          .first()
          .locator('td')
          .nth(3)
          .textContent();
      const before = Number(await granted());
      await box.check();
      // The list above counts it at once, without a reload.
      await expect.poll(async () => Number(await granted())).toBe(before + 1);
      await expect
        .poll(
          async () =>
            (await e.s.ok('GET', '/api/v1/roles', undefined, { 'name[equals]': 'Hub users' }))[0].permissions.viewGroup,
        )
        .toBe(true);
    });
  },
);

describe(covers('first run in Chromium', 'app.setup.complete'), () => {
  let fresh: E2E;
  beforeAll(async () => {
    fresh = await openApp(null);
  });
  afterEach(() => noConsoleErrorsSince(fresh));
  afterAll(async () => {
    await fresh?.close();
  });

  it('tells every problem of the form in one round, a wrong owner key among them', async () => {
    const p = fresh.page;
    await p.goto(fresh.s.url + '/');
    await p.getByRole('button', { name: 'Finish setup' }).waitFor();
    await p.getByLabel('Owner key').fill('not-the-key');
    await p.getByLabel('E-mail').fill('not an address');
    await p.getByLabel('Password').fill('short');
    await p.getByRole('button', { name: 'Finish setup' }).click();
    const errors = p.locator('.field.invalid .field-error');
    await expect.poll(() => errors.count()).toBeGreaterThanOrEqual(4);
    const text = (await errors.allTextContents()).join(' | ');
    expect(text).toMatch(/is not the owner key of this installation/);
    expect(text).toMatch(/8 characters/);
    expect(text).toMatch(/e-mail address/);
    await shot(p, 'first-run-errors');
    await p.getByLabel('Owner key').fill(fresh.s.ownerKey);
    await p.getByLabel('First name').fill('Olga');
    await p.getByLabel('Last name').fill('Owner');
    await p.getByLabel('E-mail').fill('olga@example.com');
    await p.getByLabel('Password').fill('olga-password-1');
    await p.getByRole('button', { name: 'Finish setup' }).click();
    await p.getByRole('navigation', { name: 'Main' }).waitFor();
  });
});
