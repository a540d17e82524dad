// A person at the served UI: signs in, creates a group, adds a user to it, sees the field errors the
// engine names, and keeps a screenshot of the groups screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { ARTIFACTS, RENDERER_DIR, launchChromium } from './browser.js';
import { covers } from '../support/covers.js';

let s: TestServer;
let browser: Browser;
let page: Page;
const OWNER = { firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com', password: 'olga-password-1' };

beforeAll(async () => {
  s = await startTestServer({ rendererDir: RENDERER_DIR });
  await s.ok('POST', '/api/app/setup', OWNER);
  const { orgId } = { orgId: (await s.ok('GET', '/api/v1/organizations', undefined, { get_all: true }))[0].id };
  await s.ok('POST', '/api/v1/users', { firstName: 'Maria', lastName: 'Rossi', email: 'maria@example.com', isActive: true, organizations: [{ id: orgId }] });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
  page.on('pageerror', (e) => console.error('page error:', e.message));
});
const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });
const dialog = () => page.getByRole('dialog');

afterAll(async () => {
  await browser?.close();
  await s?.stop();
});

describe(covers('administration in Chromium', 'v1.groups.list', 'v1.groups.listMembers', 'app.auth.me', 'v1.roles.list'), () => {
  it('signs in', async () => {
    await page.goto(s.url + '/');
    await page.getByLabel('E-mail').fill(OWNER.email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/incorrect/);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.getByRole('navigation').textContent()).toContain('Olga Owner');
  });

  it('shows the engine\'s field error beside the field', async () => {
    await nav('Groups').click();
    await page.getByRole('button', { name: 'New group' }).click();
    await dialog().getByRole('textbox', { name: 'Name', exact: true }).fill('   ');
    await dialog().getByRole('button', { name: 'Create' }).click();
    await expect.poll(() => page.locator('.field.invalid .field-error').textContent()).toBe('must not be empty');
  });

  it('creates a group and adds a user to it', async () => {
    await dialog().getByRole('textbox', { name: 'Name', exact: true }).fill('Regional managers');
    await dialog().getByLabel('Description').fill('Receive the monthly regional pack');
    await dialog().getByLabel('Organization').selectOption({ label: 'Default' });
    await dialog().getByRole('button', { name: 'Create' }).click();
    const row = page.getByRole('row', { name: /Regional managers/ });
    await row.waitFor();
    await row.click();
    await page.getByLabel('Add user').selectOption({ label: 'Maria Rossi <maria@example.com>' });
    await page.getByRole('button', { name: 'Add to group' }).click();
    await page.locator('.panel').getByRole('cell', { name: 'Maria Rossi' }).waitFor();
    await expect.poll(async () => (await row.locator('td').nth(2).textContent())?.trim()).toBe('1');
    const groups = await s.ok('GET', '/api/v1/groups', undefined, { 'name[equals]': 'Regional managers' });
    const members = await s.ok('GET', `/api/v1/groups/${groups[0].id}/users`);
    expect(members.map((m: { email: string }) => m.email)).toEqual(['maria@example.com']);
    await page.screenshot({ path: join(ARTIFACTS, 'groups-screen.png'), fullPage: true });
  });

  it('shows a new API key once, with a copy button', async () => {
    await nav('API keys').click();
    await page.getByRole('button', { name: 'New API key' }).click();
    await dialog().getByRole('textbox', { name: 'Name', exact: true }).fill('Reporting robot');
    await dialog().getByRole('button', { name: 'Create' }).click();
    const key = await page.getByTestId('new-api-key').textContent();
    expect(key).toMatch(/^bsk_/);
    await page.getByRole('button', { name: 'Copy to clipboard' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'api-key-once.png') });
    await page.getByRole('button', { name: 'Done' }).click();
    expect(await page.locator('table').textContent()).not.toContain(key!);
    expect((await s.call('GET', '/api/app/auth/me', { token: key })).status).toBe(200);
  });

  it('edits role permissions in the role × permission matrix', async () => {
    await nav('Roles').click();
    const box = page.getByLabel('Hub users: View group');
    await box.waitFor();
    expect(await box.isChecked()).toBe(false);
    await box.check();
    await expect.poll(async () => {
      const roles = await s.ok('GET', '/api/v1/roles', undefined, { 'name[equals]': 'Hub users' });
      return roles[0].permissions.viewGroup;
    }).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'roles-matrix.png'), fullPage: true });
  });
});
