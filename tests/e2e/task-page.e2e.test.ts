/// <reference lib="dom" />
// The distribution screens as a designer uses them at 1024 × 700: the task page is one draft (undo,
// the leave guard, "Run now" asks to save, and the mail then says what was typed), its items are
// edited in place by keyboard alone with a duplicate refused, a condition's rules open and change by
// keyboard, and a failure toast does not outlive its screen.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { covers } from '../support/covers.js';
import { waitForRequest } from '../support/requests.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';
import { startFakeDropbox, type FakeDropbox } from '../support/fake-dropbox.js';
import {
  accessibilityProblems,
  alertDialog,
  dialog,
  nav,
  NARROW,
  noConsoleErrorsSince,
  openApp,
  shot,
  signIn,
  toast,
  type E2E,
  dialogReady,
} from './harness.js';

let e: E2E;
let smtp: TestSmtp;
let dbx: FakeDropbox;
let taskId = '';
let conditionId = '';
const OWNER = { firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com', password: 'olga-password-1' };
const page = () => e.page;
const panel = (title: string) =>
  page()
    .locator('.panel')
    .filter({ has: page().getByRole('heading', { name: title, exact: true }) });
const unsaved = () => page().locator('.badge.unsaved');

/** What has the keyboard focus, named as a person hears it: its aria-label, its label, or its text. */
const focusedName = (p: Page) =>
  p.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return '';
    const by = el.getAttribute('aria-labelledby');
    const labelled = by
      ? by
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' ')
      : '';
    const own = (el as HTMLInputElement).labels?.[0]?.textContent ?? '';
    return (el.getAttribute('aria-label') || labelled || own || el.textContent || '').replace(/\s*\*$/, '').trim();
  });

/** Presses Tab until the focus is on the named control (it must be reachable that way), at most `max` times. */
async function tabTo(p: Page, name: string, max = 120) {
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await p.keyboard.press('Tab');
    const now = await focusedName(p);
    if (now === name) return;
    seen.push(now);
  }
  throw new Error(`Tab never reached “${name}”; it went through: ${seen.slice(-20).join(' | ')}`);
}

/** A new task of the demo's report as HTML, nobody to mail, run behind the screen's back to its end. */
async function runHtmlTask(name: string) {
  const [report] = await e.s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
  const task = await e.s.ok('POST', '/api/v2/tasks', { name, projectID: report.projectId });
  await e.s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
    reportID: report.id,
    format: 'Html',
    emailEmbedment: false,
    emailAttachment: true,
  });
  await waitForRequest(e.s, (await e.s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
}

beforeAll(async () => {
  smtp = await startSmtp();
  dbx = await startFakeDropbox();
  e = await openApp(OWNER, NARROW, {
    demo: true,
    cloudEndpoints: { dropboxWeb: dbx.base, dropboxApi: dbx.base, dropboxContent: dbx.base },
  });
  await signIn(e, OWNER);
  const [{ id: olga }] = await e.s.engine.services.db.query("SELECT id FROM users WHERE email = 'olga@example.com'");
  await e.s.ok('POST', '/api/v1/mail-servers', {
    name: 'Loopback',
    fromName: 'Reports',
    fromAddress: 'reports@example.com',
    hostName: '127.0.0.1',
    smtpPort: smtp.port,
    ssl: false,
  });
  const [report] = await e.s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
  const appId = (await e.s.ok('GET', '/api/v1/analytics-apps', undefined, { get_all: true }))[0].id;
  conditionId = (await e.s.ok('POST', '/api/v2/conditions', { name: 'Sold something', projectID: report.projectId }))
    .id;
  await e.s.ok('PUT', `/api/v2/conditions/${conditionId}/rules`, {
    name: 'Any sales',
    analyticsAppID: appId,
    values: [{ type: 'Variable', variable: 'vTotalSales', operator: '>', comparisonValue: '0' }],
  });
  taskId = (await e.s.ok('POST', '/api/v2/tasks', { name: 'Weekly review', projectID: report.projectId })).id;
  await e.s.ok('PUT', `/api/v2/tasks/${taskId}/reports`, {
    reportID: report.id,
    format: 'Html',
    emailEmbedment: false,
    emailAttachment: true,
    conditions: [{ id: conditionId }],
  });
  await e.s.ok('PUT', `/api/v2/tasks/${taskId}/recipients`, [{ id: olga, type: 'user' }]);
  await e.s.ok('PUT', `/api/v2/tasks/${taskId}/email`, {
    from: 'reports@example.com',
    subject: 'Old subject',
    isActive: true,
  });
  await e.s.ok('POST', `/api/v1/tasks/${taskId}/triggers/schedules`, {
    name: 'Monday mornings',
    frequency: 'Weekly',
    weeklyDays: 'Monday',
    atHour: 7,
    atMinut: 0,
    timeZone: 'Europe/Paris',
    startDate: new Date().toISOString(),
  });
}, 120_000);
afterEach(() => noConsoleErrorsSince(e));
afterAll(async () => {
  await e?.close();
  await smtp?.close();
  await dbx?.close();
});

describe(
  covers(
    'distribution screens in Chromium at 1024 × 700',
    'app.tasks.get',
    'app.tasks.whole',
    'v1.tasks.update',
    'v2.tasks.updateEmail',
    'v2.tasks.upsertReport',
    'v1.taskSchedules.update',
    'v1.conditionRules.update',
    'v2.requests.run',
  ),
  () => {
    it('keeps the task as one draft: undo and redo, the leave guard, and "Run now" saves first so the mail says what was typed', async () => {
      await page().goto(`${e.s.url}/#/tasks/${taskId}`);
      const subject = panel('E-mail').getByRole('textbox', { name: 'Subject' });
      await expect.poll(() => subject.inputValue()).toBe('Old subject');
      await subject.fill('This week in sales');
      await unsaved().waitFor();
      await page().keyboard.press('Control+z');
      await expect.poll(() => subject.inputValue()).toBe('Old subject');
      await expect.poll(() => unsaved().count()).toBe(0);
      await page().keyboard.press('Control+Shift+z');
      await expect.poll(() => subject.inputValue()).toBe('This week in sales');

      // Leaving asks; keeping on editing keeps the draft.
      await nav(page(), 'Conditions').click();
      await alertDialog(page()).getByRole('button', { name: 'Keep editing' }).click();
      expect(await subject.inputValue()).toBe('This week in sales');

      await page().getByRole('button', { name: 'Run now' }).click();
      const question = alertDialog(page());
      expect(await question.textContent()).toContain('A run uses the saved task');
      await question.getByRole('button', { name: 'Save and run' }).click();
      await page().getByRole('heading', { name: 'Monitoring', level: 1 }).waitFor();
      await expect
        .poll(() => smtp.received.map((m) => m.parsed.subject), { timeout: 60_000 })
        .toContain('This week in sales');
      expect(smtp.received.map((m) => m.parsed.subject)).not.toContain('Old subject');
      const [{ email }] = await e.s.engine.services.db.query('SELECT email FROM tasks WHERE id = ?', [taskId]);
      expect(JSON.parse(email).subject).toBe('This week in sales');
    });

    it('saves and leaves in one answer when leaving with unsaved changes', async () => {
      await page().goto(`${e.s.url}/#/tasks/${taskId}`);
      const description = panel('Settings').getByRole('textbox', { name: 'Description' });
      await description.fill('Saved on the way out');
      await unsaved().waitFor();
      await nav(page(), 'Conditions').click();
      await alertDialog(page()).getByRole('button', { name: 'Save and leave' }).click();
      await page().getByRole('heading', { name: 'Conditions', level: 1 }).waitFor();
      expect((await e.s.ok('GET', `/api/v1/tasks/${taskId}`)).description).toBe('Saved on the way out');
    });

    it('edits a report and a schedule in place by keyboard alone, refuses the same report twice, and undoes a removal', async () => {
      await page().goto(`${e.s.url}/#/tasks/${taskId}`);
      await page().getByRole('heading', { name: 'Weekly review', level: 1 }).waitFor();
      const reports = panel('Reports');
      await reports.locator('.cards li').first().waitFor();

      await tabTo(page(), 'Edit “Regional sales review” as Html');
      await page().keyboard.press('Enter');
      await dialogReady(page());
      // The dialog opens on its first field, ready for the keyboard.
      await expect.poll(() => focusedName(page())).toBe('Report');
      await tabTo(page(), 'Format');
      await page().keyboard.type('Pdf');
      await tabTo(page(), 'Apply');
      await page().keyboard.press('Enter');
      await expect.poll(() => dialog(page()).count()).toBe(0);
      await expect.poll(() => reports.locator('.cards li').first().locator('.badge').first().textContent()).toBe('Pdf');

      await tabTo(page(), 'Add report');
      await page().keyboard.press('Enter');
      await dialogReady(page());
      await page().keyboard.type('Regional sales');
      // The formats offered are the chosen report's own, as the engine lists them: none it would refuse.
      const [regional] = await e.s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
      await expect
        .poll(() => dialog(page()).getByLabel('Format').locator('option').allTextContents())
        .toEqual(expect.arrayContaining(regional.outputFormats));
      expect(
        (await dialog(page()).getByLabel('Format').locator('option').allTextContents()).filter(
          (o) => o && !o.startsWith('Choose'),
        ),
      ).toEqual(regional.outputFormats);
      await tabTo(page(), 'Format');
      await page().keyboard.type('Pdf');
      await tabTo(page(), 'Add report');
      await page().keyboard.press('Enter');
      await expect
        .poll(() => dialog(page()).locator('.field-error').first().textContent())
        .toContain('is already in the task as Pdf');
      expect(await accessibilityProblems(page())).toEqual([]);
      await shot(page(), 'task-report-duplicate-refused');
      await page().keyboard.press('Escape');
      await expect.poll(() => dialog(page()).count()).toBe(0);
      expect(await reports.locator('.cards li').count()).toBe(1);

      await tabTo(page(), 'Edit trigger Monday mornings');
      await page().keyboard.press('Enter');
      await dialogReady(page());
      await expect.poll(() => focusedName(page())).toBe('Frequency');
      await tabTo(page(), 'Name');
      await page().keyboard.press('Control+a');
      await page().keyboard.type('Monday, early');
      await page().keyboard.press('Enter');
      await expect
        .poll(() => panel('When it runs').locator('.cards li strong').first().textContent())
        .toBe('Monday, early');
      // Changed and not saved: the engine already says what it will do.
      await expect
        .poll(() => panel('When it runs').locator('.cards li').first().textContent())
        .toContain('Every Monday at 07:00 (Europe/Paris) (not saved yet).');

      await tabTo(page(), 'Remove “Regional sales review” as Pdf');
      await page().keyboard.press('Enter');
      await expect.poll(() => reports.locator('.cards li').first().textContent()).toContain('No reports yet');
      await page().keyboard.press('Control+z');
      await expect.poll(() => reports.locator('.cards li').first().textContent()).toContain('Regional sales review');

      await tabTo(page(), 'Save');
      await page().keyboard.press('Enter');
      await toast(page(), 'success', 'Saved the task.').first().waitFor();
      await expect.poll(() => unsaved().count()).toBe(0);
      const stored = await e.s.ok('GET', `/api/v1/tasks/${taskId}/reports`);
      expect(stored.map((r: { format: string }) => r.format)).toEqual(['Pdf']);
      const triggers = await e.s.ok('GET', `/api/v1/tasks/${taskId}/triggers`);
      expect(triggers.map((t: { name: string }) => t.name)).toEqual(['Monday, early']);
      // The schedule is the same schedule, changed: still weekly in Paris, with its sentence back after Save.
      await expect
        .poll(() => panel('When it runs').locator('.cards li').first().textContent())
        .toContain('Every Monday at 07:00 (Europe/Paris)');
      await shot(page(), 'task-page-narrow', true);
    });

    it('opens a condition and edits its rule by keyboard; Escape leaves a rule as it was', async () => {
      await nav(page(), 'Conditions').click();
      await page().getByRole('heading', { name: 'Conditions', level: 1 }).waitFor();
      await page().getByRole('button', { name: 'Sold something', exact: true }).waitFor();
      await tabTo(page(), 'Sold something');
      await page().keyboard.press('Enter');
      const editor = page().locator('.detail .panel');
      await editor.getByText('vTotalSales > 0').waitFor();
      await tabTo(page(), 'Edit rule Any sales');
      await page().keyboard.press('Enter');
      await dialogReady(page());
      await tabTo(page(), 'Value to compare with');
      await page().keyboard.press('Control+a');
      await page().keyboard.type('5');
      await page().keyboard.press('Enter');
      await expect.poll(() => editor.locator('.rule-values li').first().textContent()).toContain('vTotalSales > 5');

      await tabTo(page(), 'Edit rule Any sales');
      await page().keyboard.press('Enter');
      await dialogReady(page());
      await page().keyboard.type(' changed');
      await page().keyboard.press('Escape');
      await expect.poll(() => dialog(page()).count()).toBe(0);
      expect(await editor.locator('.cards li strong').first().textContent()).toBe('Any sales');
      const rules = await e.s.ok('GET', `/api/v1/conditions/${conditionId}/rules`);
      expect(rules[0].conditionRuleValues[0].comparisonValue).toBe('5');
      expect(await accessibilityProblems(page())).toEqual([]);
      await shot(page(), 'condition-rule-keyboard');
    });

    it('skips the menu with the first Tab: the next stop is on the screen', async () => {
      await page().goto(`${e.s.url}/#/conditions`);
      await page().reload();
      await page().getByRole('heading', { name: 'Conditions', level: 1 }).waitFor();
      await page().keyboard.press('Tab');
      expect(await focusedName(page())).toBe('Skip to the screen');
      await page().keyboard.press('Enter');
      await page().keyboard.press('Tab');
      expect(await page().evaluate(() => !!document.activeElement?.closest('main'))).toBe(true);
      expect(page().url()).toContain('#/conditions');
    });

    it('narrows the runs by status, task and date, and plots them by duration or files', async () => {
      await nav(page(), 'Monitoring').click();
      const runs = panel('Runs');
      const bar = page().getByRole('group', { name: 'Show runs' });
      await expect
        .poll(() => runs.locator('tbody tr').first().textContent(), { timeout: 60_000 })
        .toContain('Weekly review');
      const [{ status }] = await e.s.engine.services.db.query(
        'SELECT status FROM requests WHERE taskId = ? ORDER BY createdDate DESC LIMIT 1',
        [taskId],
      );
      await bar.getByLabel('Status').selectOption(status === 'failed' ? 'completed' : 'failed');
      await expect.poll(() => runs.locator('tbody tr').first().textContent()).toContain('Nothing matches');
      await bar.getByLabel('Status').selectOption(status);
      await bar.getByLabel('Task').selectOption({ label: 'Weekly review' });
      await expect.poll(() => runs.locator('tbody tr').first().textContent()).toContain('Weekly review');
      // The outbox follows the filter: the task's mail.
      const outbox = panel('Outbox');
      await expect.poll(() => outbox.locator('tbody tr').first().textContent()).toContain('This week in sales');
      const tomorrow = new Date(Date.now() + 86400_000).toISOString().slice(0, 10);
      await bar.getByLabel('From').fill(tomorrow);
      await expect.poll(() => runs.locator('tbody tr').first().textContent()).toContain('Nothing matches');
      await expect.poll(() => panel('Runs over time').textContent()).toContain('No finished run matches the filter.');
      await expect.poll(() => outbox.locator('tbody tr').first().textContent()).toContain('Nothing matches');
      // The filter is kept in the address: a reload shows the same narrowed runs.
      expect(decodeURIComponent(page().url())).toContain(
        `#/monitoring/status=${status}&taskId=${taskId}&from=${tomorrow}`,
      );
      await page().reload();
      await expect.poll(() => bar.getByLabel('From').inputValue()).toBe(tomorrow);
      // The task picker's options arrive with the task list, after the filter is read back.
      await expect.poll(() => bar.getByLabel('Task').inputValue()).toBe(taskId);
      await expect.poll(() => runs.locator('tbody tr').first().textContent()).toContain('Nothing matches');
      await bar.getByRole('button', { name: 'Clear' }).click();
      expect(page().url()).toMatch(/#\/monitoring$/);
      await expect.poll(() => runs.locator('tbody tr').first().textContent()).toContain('Weekly review');
      const plot = panel('Runs over time');
      await plot.getByRole('radio', { name: 'Files' }).check();
      await expect.poll(() => plot.getByRole('img').getAttribute('aria-label')).toMatch(/^Files of the last \d+ runs/);
      expect(await accessibilityProblems(page())).toEqual([]);
      await shot(page(), 'monitoring-filters-narrow', true);
    });

    it('shows a run that ended before the screen could hear of it, without a Refresh', async () => {
      // The screen reads its lists, then opens the engine's event stream. Held here, the stream
      // starts only after a run has come and gone: the screen must read its lists again then.
      const p = page();
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      await p.route('**/api/app/events', async (route) => {
        await held;
        // A stream the page let go of meanwhile (the reload) is no longer there to continue.
        await route.continue().catch(() => {});
      });
      try {
        await p.goto(`${e.s.url}/#/monitoring`);
        await p.reload();
        const runs = panel('Runs');
        await runs.locator('tbody tr').first().waitFor();
        await runHtmlTask('Heard late');
        expect(await runs.getByRole('row', { name: /Heard late/ }).count()).toBe(0);
        release();
        await expect
          .poll(
            () =>
              runs
                .getByRole('row', { name: /Heard late/ })
                .first()
                .textContent(),
            { timeout: 30_000 },
          )
          .toMatch(/completed|warning/);
      } finally {
        release();
        await p.unroute('**/api/app/events');
      }
    });

    it('opens its event stream again when the server cut it, and reads its lists then', async () => {
      const p = page();
      // Once armed, the page's first streams fail as a server going away would; it opens another by itself.
      let armed = false;
      let asked = 0;
      await p.route('**/api/app/events', async (route) => {
        // Two cut: the second may be another panel's listener opening the stream afresh, so at
        // least one stream comes back only by the page opening it again by itself.
        if (armed && asked++ < 2) await route.abort('connectionreset');
        else await route.continue().catch(() => {});
      });
      try {
        await p.goto(`${e.s.url}/#/monitoring`);
        armed = true;
        await p.reload();
        const runs = panel('Runs');
        await runs.locator('tbody tr').first().waitFor();
        await runHtmlTask('After the cut');
        await expect
          .poll(
            () =>
              runs
                .getByRole('row', { name: /After the cut/ })
                .first()
                .textContent(),
            { timeout: 30_000 },
          )
          .toMatch(/completed|warning/);
        expect(asked).toBe(3);
        // The browser reports the cut stream itself; that report is this test's own doing.
        const cutReported = (m: string) => /ERR_CONNECTION_RESET/.test(m);
        const others = e.consoleErrors.filter((m) => !cutReported(m));
        e.consoleErrors.splice(0, e.consoleErrors.length, ...others);
      } finally {
        await p.unroute('**/api/app/events');
      }
    });

    it('asks a storage service only what its type needs, and refuses a folder that is not there', async () => {
      await nav(page(), 'Storage services').click();
      await page().getByRole('button', { name: 'New storage service' }).click();
      const d = dialog(page());
      await d.getByLabel('Type').selectOption('Folder');
      await d.getByRole('textbox', { name: /^Folder/ }).waitFor();
      expect(await d.getByRole('textbox', { name: 'Host' }).count()).toBe(0);
      await d.getByLabel('Type').selectOption('FTP');
      await d.getByRole('textbox', { name: 'Host' }).waitFor();
      expect(await d.getByRole('textbox', { name: /^Folder/ }).count()).toBe(0);
      expect(await d.getByLabel('Private key').count()).toBe(0);
      await d.getByLabel('Type').selectOption('Folder');
      await d.getByRole('textbox', { name: 'Name', exact: true }).fill('Nowhere');
      await d.getByRole('textbox', { name: /^Folder/ }).fill('/no/such/folder/anywhere');
      await d.getByRole('button', { name: 'Create' }).click();
      await expect
        .poll(() => d.locator('.field-error').first().textContent())
        .toContain('does not exist or is not a folder on this computer');
      expect(await accessibilityProblems(page())).toEqual([]);
      await page().keyboard.press('Escape');
      expect((await e.s.ok('GET', '/api/v1/storage-services')).map((x: { name: string }) => x.name)).not.toContain(
        'Nowhere',
      );
    });

    it('connects a Dropbox account from the storage screen: the app entered in Settings, the provider’s page, back connected', async () => {
      await nav(page(), 'Settings').click();
      await page()
        .getByRole('navigation', { name: 'Settings sections' })
        .getByRole('link', { name: 'Cloud drives' })
        .click();
      const dropboxApp = page().getByRole('region', { name: 'Dropbox' });
      await dropboxApp.getByLabel('App key').fill(dbx.clientId);
      await dropboxApp.getByRole('button', { name: 'Save the Dropbox app' }).click();
      await toast(page(), 'success', /The Dropbox app is saved/)
        .first()
        .waitFor();
      await nav(page(), 'Storage services').click();
      await page().getByRole('button', { name: 'New storage service' }).click();
      const d = dialog(page());
      await d.getByLabel('Type').selectOption('Dropbox');
      await d.getByRole('textbox', { name: 'Name', exact: true }).fill('Team Dropbox');
      expect(await d.getByRole('textbox', { name: 'Host' }).count()).toBe(0);
      await d.getByRole('button', { name: 'Create' }).click();
      const row = page().getByRole('row', { name: /Team Dropbox/ });
      await expect.poll(() => row.textContent()).toContain('Not connected');
      await row.getByRole('button', { name: 'Connect account' }).click();
      // Dropbox's page (the fake consents at once) sends the browser back, connected.
      await toast(page(), 'success', /The account is connected/)
        .first()
        .waitFor();
      expect(page().url()).toMatch(/#\/storage$/);
      await expect.poll(() => row.textContent()).toContain('dara@example.net');
      expect(dbx.requests).toContain('GET /oauth2/authorize');
      await row.getByRole('button', { name: 'Test connection' }).click();
      await toast(page(), 'success', 'Wrote and removed a test file in / (Dropbox of dara@example.net)')
        .first()
        .waitFor();
      expect(await row.getByRole('button', { name: 'Reconnect' }).count()).toBe(1);
      await shot(page(), 'storage-dropbox-connected', true);
    });

    it('keeps the whole menu reachable at 700 px high: the sidebar scrolls to its last item', async () => {
      const last = nav(page(), 'Settings');
      await last.scrollIntoViewIfNeeded();
      const box = await last.boundingBox();
      expect(box && box.y >= 0 && box.y + box.height <= 700).toBe(true);
      await last.click();
      await page().getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    });

    it('lets a failure toast go when the screen changes', async () => {
      await nav(page(), 'Conditions').click();
      const row = page().locator('tbody tr').filter({ hasText: 'Sold something' });
      await row.getByRole('button', { name: 'Delete' }).click();
      await alertDialog(page()).getByRole('button', { name: 'Delete condition' }).click();
      await toast(page(), 'failure', /applied by the task “Weekly review”/).waitFor();
      await nav(page(), 'Tasks').click();
      await expect.poll(() => page().locator('.toast.failure').count()).toBe(0);
    });
  },
);
