/// <reference lib="dom" />
// Member permissions in Chromium: the owner gives a designer the project's view of its reports,
// turns permissions mode on, then takes one report away from her in that report's permissions
// matrix; she signs in and no longer sees it (and the engine answers 404 for it), the others stay.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { covers } from '../support/covers.js';
import { defaults } from '../support/test-server.js';
import {
  accessibilityProblems,
  alertDialog,
  dialog,
  nav,
  noConsoleErrorsSince,
  openApp,
  shot,
  signIn,
  signOut,
  type E2E,
} from './harness.js';

let e: E2E;
const OWNER = { firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com', password: 'olga-password-1' };
const DORA = { firstName: 'Dora', lastName: 'Designer', email: 'dora@example.com', password: 'dora-password-1' };
const page = () => e.page;
let reportNames: string[] = [];
let doraId = '';
let taskId = '';

beforeAll(async () => {
  e = await openApp(OWNER, { width: 1440, height: 900 }, { demo: true });
  const { orgId } = await defaults(e.s);
  const role = await e.s.ok('POST', '/api/v1/roles', {
    name: 'Designers',
    // Her role would let her change and run tasks: her member permissions (a viewer's) are what say no.
    permissions: { viewProject: true, updateProject: true, viewTask: true, editTask: true, runTask: true },
    isActive: true,
    allProjects: true,
  });
  doraId = (
    await e.s.ok('POST', '/api/v1/users', {
      ...DORA,
      isActive: true,
      roles: [{ id: role.id }],
      organizations: [{ id: orgId }],
    })
  ).id;
  const [demo] = await e.s.ok('GET', '/api/v1/reports', undefined, { get_all: true });
  await e.s.ok('POST', '/api/v2/reports', {
    name: 'Sales one-pager',
    projectID: demo.projectId,
    type: 'Html',
    connectionID: demo.connectionId,
  });
  taskId = (await e.s.ok('POST', '/api/v2/tasks', { name: 'Weekly pack', projectID: demo.projectId })).id;
  reportNames = (await e.s.ok('GET', '/api/v1/reports', undefined, { get_all: true })).map(
    (r: { name: string }) => r.name,
  );
  await signIn(e, OWNER);
}, 120_000);
afterEach(() => noConsoleErrorsSince(e));
afterAll(async () => {
  await e?.close();
});

/** What Dora's own session is answered (signed in over HTTP, as the page would be). */
async function asDora() {
  const login = await e.s.call('POST', '/api/app/auth/login', {
    token: null,
    body: { email: DORA.email, password: DORA.password },
  });
  return login.body.data.token as string;
}

describe(
  covers(
    'member permissions in Chromium',
    'v2.projects.updatePermissionsMode',
    'v2.projects.setPermissions',
    'v2.reports.setPermissions',
    'v2.reports.setMemberPermission',
  ),
  () => {
    it('takes one report away from a designer in its permissions matrix; she no longer sees it', async () => {
      expect(reportNames.length).toBeGreaterThan(1);
      const [hidden, ...others] = reportNames;
      await nav(page(), 'Projects').click();
      await page().getByRole('link', { name: 'Sales reporting (demo)' }).click();
      await page().getByRole('heading', { name: 'Sales reporting (demo)', level: 1 }).waitFor();

      // The project's set: Dora views the project and, by fallback, every report in it.
      await page().getByRole('button', { name: 'Project permissions' }).click();
      const d = dialog(page());
      await d.getByLabel('Add member').selectOption({ label: 'Dora Designer' });
      await d.getByRole('button', { name: 'Add' }).click();
      const viewReports = d.getByRole('checkbox', { name: 'View report for Dora Designer' });
      await viewReports.waitFor();
      // Added as a viewer (the preset a new member gets): she views the project and all in it, and edits nothing.
      expect(await d.getByRole('checkbox', { name: 'View project for Dora Designer' }).isChecked()).toBe(true);
      expect(await viewReports.isChecked()).toBe(true);
      expect(await d.getByRole('checkbox', { name: 'Edit report for Dora Designer' }).isChecked()).toBe(false);
      const preset = d.getByRole('combobox', { name: 'Preset for Dora Designer' });
      expect(await preset.inputValue()).toBe('Viewer');
      // As an editor she would edit reports too; one checkbox taken away makes the set her own ("Custom").
      await preset.selectOption('Editor');
      await expect
        .poll(() => d.getByRole('checkbox', { name: 'Edit report for Dora Designer' }).isChecked())
        .toBe(true);
      await d.getByRole('checkbox', { name: 'Edit report for Dora Designer' }).click();
      await expect.poll(() => preset.inputValue()).toBe('');
      expect(await preset.locator('option:checked').textContent()).toBe('Custom');
      await preset.selectOption('Viewer');
      await expect.poll(() => d.getByRole('checkbox', { name: 'Edit task for Dora Designer' }).isChecked()).toBe(false);
      await page().keyboard.press('Escape');
      await d.waitFor({ state: 'detached' });
      await page().getByLabel('Members only (permissions mode)').click();
      await alertDialog(page()).getByRole('button', { name: 'Turn on' }).click();
      await expect.poll(() => page().getByLabel('Members only (permissions mode)').isChecked()).toBe(true);
      const token = await asDora();
      const seen = async () =>
        (await e.s.call('GET', '/api/v1/reports', { token, query: { get_all: true } })).body.data.map(
          (r: { name: string }) => r.name,
        );
      expect((await seen()).sort()).toEqual([...reportNames].sort());

      // The report's own set wins over the project's: added, then its view taken away.
      await page()
        .getByRole('button', { name: `Permissions of ${hidden}` })
        .click();
      await d.getByLabel('Add member').selectOption({ label: 'Dora Designer' });
      await d.getByRole('button', { name: 'Add' }).click();
      const view = d.getByRole('checkbox', { name: 'View for Dora Designer' });
      await view.waitFor();
      expect(await d.getByRole('checkbox', { name: 'Edit for Dora Designer' }).isChecked()).toBe(false);
      await view.click();
      await expect.poll(() => view.isChecked()).toBe(false);
      expect(await accessibilityProblems(page())).toEqual([]);
      await shot(page(), 'report-permissions');
      await page().keyboard.press('Escape');

      await expect.poll(seen).toEqual(expect.not.arrayContaining([hidden]));
      expect((await seen()).sort()).toEqual([...others].sort());
      const id = (await e.s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': hidden }))[0].id;
      expect((await e.s.call('GET', `/api/v1/reports/${id}`, { token })).status).toBe(404);
      const row = (await e.s.ok('GET', `/api/app/reports/${id}/permissions`)).find(
        (m: { memberId: string }) => m.memberId === doraId,
      );
      expect(row.permissions.viewReport).toBe(false);

      // Dora herself, in the page: the project shows the other reports, not that one.
      await signOut(e);
      await signIn(e, DORA);
      await nav(page(), 'Projects').click();
      const answered = page().waitForResponse((r) => r.url().endsWith('/api/app/invoke/app.projects.access'));
      await page().getByRole('link', { name: 'Sales reporting (demo)' }).click();
      await page().getByRole('heading', { name: 'Sales reporting (demo)', level: 1 }).waitFor();
      for (const name of others) await page().getByRole('link', { name, exact: true }).waitFor();
      expect(await page().getByRole('link', { name: hidden, exact: true }).count()).toBe(0);
      // A viewer is offered nothing the server would refuse: what she may do is asked of the engine
      // (app.projects.access), and no rename, delete or permissions show on the reports she sees, no
      // creating a report or a filter, no switch of the project's mode. (The project's permissions
      // stay: a member may share what she holds, and only that.)
      expect((await (await answered).json()).data.project).not.toContain('v2.reports.create');
      await page().getByText('Members only', { exact: true }).waitFor();
      for (const name of others)
        for (const label of [`Rename ${name}`, `Delete ${name}`, `Permissions of ${name}`])
          expect(await page().getByRole('button', { name: label, exact: true }).count(), label).toBe(0);
      for (const label of ['Create report', 'Create filter'])
        expect(await page().getByRole('button', { name: label, exact: true }).count(), label).toBe(0);
      expect(await page().getByLabel('Members only (permissions mode)').count()).toBe(0);
      await shot(page(), 'report-permissions-member-view');
      // A task she may view opens; Save is off and says why; Run now and Permissions are not offered.
      await page().goto(`${e.s.url}/#/tasks/${taskId}`);
      await page().getByRole('heading', { name: 'Weekly pack', level: 1 }).waitFor();
      await page().getByText('Save is off: you may view this task, not change it.').waitFor();
      expect(await page().getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
      for (const label of ['Run now', 'Permissions'])
        expect(await page().getByRole('button', { name: label, exact: true }).count(), label).toBe(0);
      // Nothing in the task is offered to change: every field and Add button is off, and says why.
      const task = page().locator('fieldset.columns');
      expect(await task.locator('input, select, textarea, button').count()).toBeGreaterThan(5);
      expect(await task.locator(':is(input, select, textarea, button):enabled').count()).toBe(0);
      expect(await task.getAttribute('aria-describedby')).toBe('task-view-only');
      // No picker to fill: the recipients are a list, not a form with empty headings.
      expect(await task.getByText('Users and recipients').count()).toBe(0);
      await shot(page(), 'task-view-only');
    });
  },
);
