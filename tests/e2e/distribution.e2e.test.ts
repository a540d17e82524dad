/// <reference lib="dom" />
// A report designer in Chromium builds a task in the designer (report, recipient, weekly schedule
// with its next runs), runs it and watches it complete on the monitoring screen, reads its log, and
// writes a condition whose "test now" shows the value each rule read.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { covers } from '../support/covers.js';
import { waitForRequest } from '../support/requests.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';
import {
  accessibilityProblems,
  alertDialog,
  dialog,
  nav,
  newTaskWithReport,
  noConsoleErrorsSince,
  openApp,
  saveTask,
  shot,
  signIn,
  toast,
  WIDE,
  type E2E,
} from './harness.js';

let e: E2E;
let smtp: TestSmtp;
const OWNER = { firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com', password: 'olga-password-1' };
const page = () => e.page;
const panel = (title: string) =>
  page()
    .locator('.panel')
    .filter({ has: page().getByRole('heading', { name: title, exact: true }) });

beforeAll(async () => {
  smtp = await startSmtp();
  // A delivery failing during its run is tried once there, then kept with its next try ten minutes on.
  e = await openApp(OWNER, WIDE, {
    demo: true,
    storageRetry: { tries: 1, baseMs: 10, maxMs: 10 },
    deliveries: { baseDelayMs: 600_000, maxDelayMs: 600_000 },
  });
  await signIn(e, OWNER);
}, 120_000);
afterEach(() => noConsoleErrorsSince(e));
afterAll(async () => {
  await e?.close();
  await smtp?.close();
});

describe(
  covers(
    'distribution in Chromium',
    'v1.tasks.create',
    'v2.tasks.upsertReport',
    'v1.taskRecipients.add',
    'v1.taskSchedules.create',
    'v2.requests.run',
    'app.requests.list',
    'app.outbox.list',
    'app.outbox.cancel',
    'app.outbox.retry',
    'app.deliveries.list',
    'app.deliveries.deliverNow',
    'v1.conditions.create',
    'v1.conditionRules.upsert',
    'app.conditions.test',
  ),
  () => {
    it('builds a task in the designer: a report, a recipient, a weekly schedule with its next five runs', async () => {
      await newTaskWithReport(page(), {
        name: 'Weekly regional pack',
        project: 'Sales reporting (demo)',
        report: 'Regional sales review (Docx, Pdf, Html)',
        format: 'Pdf',
      });

      const recipients = panel('Recipients');
      await recipients.getByRole('checkbox', { name: 'Olga Owner <olga@example.com>' }).check();
      await recipients.getByRole('button', { name: 'Add recipients' }).click();
      await expect.poll(() => recipients.locator('.cards li').first().textContent()).toContain('Olga Owner');
      expect(await recipients.locator('.cards li').first().locator('.badge').first().textContent()).toBe('user');
      // The picker now says she is already a recipient, so nobody adds her twice.
      await recipients.getByRole('checkbox', { name: 'Olga Owner <olga@example.com> (already a recipient)' }).waitFor();

      const when = panel('When it runs');
      await when.getByRole('button', { name: 'Add schedule' }).click();
      await dialog(page()).getByLabel('Frequency').selectOption('Weekly');
      await dialog(page()).getByRole('textbox', { name: 'Name', exact: true }).fill('Monday mornings');
      await dialog(page()).getByRole('checkbox', { name: 'Monday' }).check();
      await dialog(page()).getByRole('combobox', { name: 'Time zone' }).fill('Europe/Paris');
      await dialog(page()).getByRole('button', { name: 'Add schedule' }).click();
      await saveTask(page());
      const card = when.locator('.cards li').first();
      await expect.poll(() => card.textContent()).toContain('Every Monday at 07:00 (Europe/Paris)');
      expect(await card.textContent()).toContain('no end date');
      await card.getByText('Next runs').click();
      expect(await card.locator('.next-runs li').count()).toBe(5);
      // Each next run is said in the schedule's own zone, named, with the reader's own time beside it (the browser runs in UTC).
      for (const text of await card.locator('.next-runs li').allTextContents())
        expect(text).toMatch(/^Monday.* 7:00 AM \(Europe\/Paris\) · [56]:00 AM your time \(UTC\)$/);
      await shot(page(), 'task-designer', true);
    });

    it('says who would get what before anything is sent', async () => {
      const dry = panel('Who gets what');
      await dry.getByRole('button', { name: 'Check before sending' }).click();
      const row = dry.locator('tbody tr').filter({ hasText: 'Olga Owner' });
      await expect.poll(() => row.textContent()).toContain('the task');
      expect(await dry.locator('.status-line').textContent()).toContain(
        'Regional sales review as Pdf (one file per iteration value)',
      );
      // E-mail is on for a task made on the screens, but no mail server is set up yet: the panel says so rather than promising mail.
      expect(await dry.locator('.error-banner').first().textContent()).toContain(
        'No mail server is set up: nobody can be mailed.',
      );
    });

    it('runs the task and watches it complete on the monitoring screen, with its log and a plot of the run', async () => {
      await page().getByRole('button', { name: 'Run now' }).click();
      await page().getByRole('heading', { name: 'Monitoring', level: 1 }).waitFor();
      const runs = panel('Runs');
      const row = runs.locator('tbody tr').filter({ hasText: 'Weekly regional pack' }).first();
      // Its e-mail is on from the start, but no mail server is set up yet: the run says so, and mails nobody.
      await expect.poll(() => row.textContent(), { timeout: 60_000 }).toContain('warning');
      expect(await row.textContent()).toContain('no mail server is set up, so nothing was mailed');
      expect(await row.textContent()).toContain('3');
      await page().locator('.runs-plot circle').first().waitFor();
      // The plot is drawn across its card, not at a fixed width that left a third of it empty.
      const spans = () =>
        page()
          .locator('.runs-plot')
          .evaluate(
            (figure) =>
              figure.querySelector('svg')!.getBoundingClientRect().width / figure.getBoundingClientRect().width,
          );
      await expect.poll(spans).toBeGreaterThan(0.99);
      await shot(page(), 'monitoring', true);
      await row.getByRole('button', { name: 'Log' }).click();
      await expect
        .poll(() => dialog(page()).locator('pre').textContent())
        .toContain('Ended warning: no mail server is set up, so nothing was mailed; 3 files');
      // Times for people, in the reader's zone (said above the log), not raw ISO instants.
      const logText = (await dialog(page()).locator('pre').textContent()) ?? '';
      expect(logText).not.toMatch(/\d{4}-\d\d-\d\dT\d\d:\d\d/);
      expect(logText.split('\n')[0]).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d:\d\d [AP]M /);
      expect(await dialog(page()).textContent()).toContain('Times in your zone (UTC)');
      await page().keyboard.press('Escape');
      const scheduled = panel('Scheduled tasks').locator('tbody tr').filter({ hasText: 'Weekly regional pack' });
      await expect.poll(() => scheduled.textContent()).toContain('Every Monday at 07:00 (Europe/Paris)');
    });

    it('writes a condition and tests it now, showing the value its rule read', async () => {
      await nav(page(), 'Conditions').click();
      await page().getByRole('button', { name: 'New condition' }).click();
      await dialog(page()).getByRole('textbox', { name: 'Name', exact: true }).fill('Sold something');
      await dialog(page()).getByLabel('Project').selectOption({ label: 'Sales reporting (demo)' });
      await dialog(page()).getByRole('button', { name: 'Create' }).click();
      await toast(page(), 'success', 'Created condition.').waitFor();
      await page().getByRole('button', { name: 'Sold something', exact: true }).click();
      const editor = page().locator('.detail .panel');
      await editor.getByRole('button', { name: 'Add rule' }).click();
      const rule = dialog(page());
      await rule.getByRole('textbox', { name: 'Rule name' }).fill('Any sales');
      await rule.getByLabel('Read from').selectOption({ index: 1 });
      // The app's variables are offered to pick from; a chart's fields show only for a chart rule.
      await rule.getByLabel('Variable', { exact: true }).selectOption('vTotalSales');
      expect(await rule.getByLabel('Chart', { exact: true }).count()).toBe(0);
      await rule.getByLabel('Operator').selectOption('>');
      await rule.getByRole('textbox', { name: 'Value to compare with' }).fill('1000');
      await rule.getByRole('button', { name: 'Add rule' }).click();
      await expect.poll(() => editor.locator('.cards li').first().textContent()).toContain('vTotalSales > 1000');
      await editor.getByRole('button', { name: 'Test now' }).click();
      await expect.poll(() => editor.getByRole('status').textContent()).toContain('The condition holds now');
      const whole = (await editor.locator('.verdict').textContent()) ?? '';
      expect(whole).toMatch(/→ [\d,.]+ \(holds\)/);
      // Tested for one value, as a task iterating over regions would: the rule reads that region's figure.
      const testFor = editor.getByRole('group', { name: 'Test for one value' });
      await testFor.getByLabel('Test for').selectOption('Region');
      await expect.poll(() => testFor.getByLabel('Value').locator('option').count()).toBeGreaterThan(2);
      const region = (await testFor.getByLabel('Value').locator('option').nth(1).textContent())!;
      await testFor.getByLabel('Value').selectOption(region);
      await editor.getByRole('button', { name: 'Test now' }).click();
      await expect
        .poll(() => editor.getByRole('status').textContent())
        .toContain(`For Region = ${region}, the condition`);
      const one = (await editor.locator('.verdict').textContent()) ?? '';
      expect(one).toMatch(/→ [\d,.]+ \((holds|fails)\)/);
      expect(one).not.toBe(whole);
      await shot(page(), 'condition-test-now', true);
    });

    it("sets up a mail server in the settings and sends a real test mail, showing the server's reply", async () => {
      await nav(page(), 'Settings').click();
      const mail = panel('Mail server');
      await mail.getByRole('textbox', { name: 'Name', exact: true }).fill('Loopback');
      await mail.getByRole('textbox', { name: 'SMTP host' }).fill('127.0.0.1');
      await mail.getByRole('textbox', { name: 'Port' }).fill(String(smtp.port));
      await mail.getByRole('textbox', { name: 'Sender address' }).fill('reports@example.com');
      await mail.getByRole('button', { name: 'Add mail server' }).click();
      await expect.poll(() => mail.locator('.status-line').textContent()).toContain('Mail goes out through “Loopback”');
      await mail.getByRole('textbox', { name: 'Send a test mail to' }).fill('olga@example.com');
      await mail.getByRole('button', { name: 'Send a test mail' }).click();
      await expect
        .poll(() => mail.getByRole('status').textContent())
        .toMatch(/Test mail accepted for olga@example.com: 250/);
      expect(smtp.received.map((m) => m.envelopeTo[0])).toContain('olga@example.com');
      await shot(page(), 'mail-server-settings', true);
    });

    it("follows a run's mail live on the monitoring screen: a refusal shows in words on the run and the outbox, and is cancelled and sent again", async () => {
      await nav(page(), 'Monitoring').click();
      await page().getByRole('heading', { name: 'Monitoring', level: 1 }).waitFor();
      // Set up and run behind the screen's back: what the screen shows comes from the engine's events alone.
      const [{ id: olga }] = await e.s.engine.services.db.query(
        "SELECT id FROM users WHERE email = 'olga@example.com'",
      );
      const [report] = await e.s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
      const task = await e.s.ok('POST', '/api/v2/tasks', { name: 'Refused at the door', projectID: report.projectId });
      await e.s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
        reportID: report.id,
        format: 'Html',
        emailEmbedment: false,
        emailAttachment: true,
      });
      await e.s.ok('PUT', `/api/v2/tasks/${task.id}/recipients`, [{ id: olga, type: 'user' }]);
      await e.s.ok('PUT', `/api/v2/tasks/${task.id}/email`, {
        from: 'reports@example.com',
        subject: 'Refused at the door',
        isActive: true,
      });
      smtp.refuseNext(1, 550);
      await e.s.ok('POST', `/api/v2/requests/${task.id}/run`);

      const message = panel('Outbox').locator('tbody tr').filter({ hasText: 'Refused at the door' });
      await expect.poll(() => message.textContent(), { timeout: 60_000 }).toContain('failed');
      expect(await message.textContent()).toContain("The recipient's server does not know this address");
      expect(await message.locator('.raw-reply').textContent()).toMatch(/^550/);
      const run = panel('Runs').locator('tbody tr').filter({ hasText: 'Refused at the door' }).first();
      // History reads newest first: the run just made heads the runs, its mail heads the outbox.
      await expect.poll(() => panel('Runs').locator('tbody tr').first().textContent()).toContain('Refused at the door');
      expect(await panel('Outbox').locator('tbody tr').first().textContent()).toContain('Refused at the door');
      await expect
        .poll(() => run.locator('.delivery-problem').textContent())
        .toContain("1 mail failed: The recipient's server does not know this address");
      expect(await accessibilityProblems(page())).toEqual([]);
      await shot(page(), 'monitoring-mail-failed', true);

      await message.getByRole('button', { name: 'Cancel' }).click();
      await alertDialog(page()).getByRole('button', { name: 'Cancel mail' }).click();
      await expect.poll(() => message.textContent()).toContain('cancelled');
      await message.getByRole('button', { name: 'Retry' }).click();
      await expect.poll(() => message.textContent(), { timeout: 30_000 }).toContain('sent');
      await expect.poll(() => run.locator('.delivery-problem').count()).toBe(0);
      expect(smtp.received.filter((m) => m.parsed.subject === 'Refused at the door')).toHaveLength(1);
    });

    it('shows a delivery kept after its run with its cause and next try, and delivers it when asked to try now', async () => {
      await nav(page(), 'Monitoring').click();
      await page().getByRole('heading', { name: 'Monitoring', level: 1 }).waitFor();
      // A share not mounted: the folder's root is not there when the run delivers.
      const base = await mkdtemp(join(tmpdir(), 'bs-e2e-share-'));
      try {
        const root = join(base, 'share');
        await mkdir(root);
        const share = await e.s.ok('POST', '/api/v1/storage-services', {
          name: 'Regional share',
          type: 'Folder',
          rootPath: root,
        });
        // Unmounted after it was set up.
        await rm(root, { recursive: true });
        const [report] = await e.s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
        const task = await e.s.ok('POST', '/api/v2/tasks', {
          name: 'To the regional share',
          projectID: report.projectId,
        });
        await e.s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
          reportID: report.id,
          format: 'Html',
          emailEmbedment: false,
          emailAttachment: false,
          storageServices: [{ fileStorageServiceID: share.id, path: 'weekly', order: 0 }],
        });
        const run = await waitForRequest(e.s, (await e.s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
        // Nothing was put where the share should be: its mount point is not made on the local disk.
        expect(run.status).toBe('warning');
        expect(existsSync(root)).toBe(false);

        const kept = panel('Deliveries tried again').locator('tbody tr').filter({ hasText: 'Regional share' });
        await expect.poll(() => kept.textContent(), { timeout: 60_000 }).toContain('waiting');
        expect(await kept.textContent()).toContain(`the folder ${root} is not there (a disk or share not mounted?)`);
        // Its next try, ten minutes on, in the screen's own words of time.
        expect(await kept.locator('td').nth(5).textContent()).toMatch(/\d/);
        expect(await accessibilityProblems(page())).toEqual([]);
        await shot(page(), 'monitoring-delivery-waiting', true);

        // The share is back: tried now, it arrives.
        await mkdir(root);
        await kept.getByRole('button', { name: 'Try now' }).click();
        await expect.poll(() => kept.textContent(), { timeout: 30_000 }).toContain('delivered');
        expect((await readdir(join(root, 'weekly'))).sort()).toEqual(
          run.files.map((f: { name: string }) => f.name).sort(),
        );
      } finally {
        await rm(base, { recursive: true, force: true });
      }
    });

    it("starts a new task's e-mail from the mail server's sender, not a blank required field", async () => {
      const [report] = await e.s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
      const task = await e.s.ok('POST', '/api/v2/tasks', {
        name: 'Sender from the server',
        projectID: report.projectId,
      });
      await page().goto(`${e.s.url}/#/tasks/${task.id}`);
      const mail = panel('E-mail');
      await expect.poll(() => mail.getByRole('textbox', { name: 'From' }).inputValue()).toBe('reports@example.com');
    });
  },
);
