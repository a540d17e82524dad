// The first report, as a new user takes it: from an empty data folder through first run, the
// getting-started checklist, a task made by "Distribute" and kept with its defaults, Run now, the
// mail read back at a real SMTP server and the file in the hub, with no field touched beyond what
// the checklist asks. Then the traps the first-report issue found, each shown put right: a task
// never given e-mail reads as off, "In the hub" only when a report is published there, Monitoring
// says "none" when nothing was mailed, Settings in sections.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { covers } from '../support/covers.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';
import { until } from '../support/until.js';
import { accessibilityProblems, nav, noConsoleErrorsSince, openApp, shot, WIDE, type E2E } from './harness.js';

let e: E2E;
let smtp: TestSmtp;
const page = () => e.page;
const OWNER = { firstName: 'Nina', lastName: 'New', email: 'nina@example.com', password: 'nina-password-1' };
const panel = (title: string) =>
  page()
    .locator('.panel')
    .filter({ has: page().getByRole('heading', { name: title, exact: true }) });
const guide = () => page().getByRole('region', { name: /Getting started|Your first report is out/ });
const step = (title: string) => guide().getByRole('listitem').filter({ hasText: title });

beforeAll(async () => {
  smtp = await startSmtp();
  // No owner: the data folder is empty, and the first screen is first run.
  e = await openApp(null, WIDE, { demo: true });
});
afterEach(() => noConsoleErrorsSince(e));
afterAll(async () => {
  await e?.close();
  await smtp?.close();
});

describe(
  covers(
    'the first report, as a new user',
    'app.setup.complete',
    'v1.tasks.create',
    'v2.requests.run',
    'app.tasks.dryRun',
  ),
  () => {
    it('goes from first run to a mailed report in the hub by the checklist alone', async () => {
      const p = page();
      await p.goto(e.s.url + '/');
      await p.getByLabel('Owner key').fill(e.s.ownerKey);
      await p.getByLabel('First name').fill(OWNER.firstName);
      await p.getByLabel('Last name').fill(OWNER.lastName);
      await p.getByLabel('E-mail').fill(OWNER.email);
      await p.getByLabel('Password').fill(OWNER.password);
      await p.getByRole('button', { name: 'Finish setup' }).click();

      // Projects, with the guide: the demo's report is there, the mail server is next.
      await guide().waitFor();
      await expect.poll(() => guide().textContent()).toContain('1 of 5 done: next, set up the mail server.');
      expect(await step('Make a report').textContent()).toContain('(done)');
      expect(await accessibilityProblems(p)).toEqual([]);
      await shot(p, 'first-report-guide-start', true);

      // The checklist leads to Settings' mail section, and asks only the server's host, port and sender.
      await step('Set up the mail server').getByRole('link').click();
      await expect.poll(() => p.url()).toMatch(/#\/settings\/mail$/);
      const mail = panel('Mail server');
      await mail.getByRole('textbox', { name: 'Name', exact: true }).fill('Office mail');
      await mail.getByRole('textbox', { name: 'SMTP host' }).fill('127.0.0.1');
      await mail.getByRole('textbox', { name: 'Port' }).fill(String(smtp.port));
      await mail.getByRole('textbox', { name: 'Sender address' }).fill('reports@example.com');
      await mail.getByRole('button', { name: 'Add mail server' }).click();
      await expect.poll(() => mail.locator('.status-line').textContent()).toContain('Mail goes out through');
      expect(await accessibilityProblems(p)).toEqual([]);
      await shot(p, 'first-report-settings-mail', true);

      await nav(p, 'Projects').click();
      await expect.poll(() => guide().textContent()).toContain('2 of 5 done: next, make a task that distributes it.');

      // The project lists no task yet and says how to make one: "Distribute" on its report.
      await p.getByRole('link', { name: 'Sales reporting (demo)' }).click();
      await expect.poll(() => panel('Tasks').textContent()).toContain('choose “Distribute” on a report');
      await p.getByRole('button', { name: 'Distribute Regional sales review' }).click();

      // The task page shows what the run will do, and nothing is left unsaved: what is shown is stored.
      await p.getByRole('heading', { name: 'Distribute Regional sales review', level: 1 }).waitFor();
      const email = panel('E-mail');
      expect(await email.getByRole('checkbox', { name: 'Send e-mail' }).isChecked()).toBe(true);
      expect(await email.getByRole('textbox', { name: 'From' }).inputValue()).toBe('reports@example.com');
      expect(await p.locator('.badge.unsaved').count()).toBe(0);
      await expect.poll(() => panel('Recipients').textContent()).toContain('Nina New');
      await expect.poll(() => panel('Reports').textContent()).toContain('hub The hub’s top folder (/)');
      // The dry run reads the same stored task: Nina by e-mail and in the hub, and no warning.
      await p.getByRole('button', { name: 'Check before sending' }).click();
      const row = panel('Who gets what').getByRole('row', { name: /Nina New/ });
      await expect.poll(() => row.textContent()).toMatch(/Yes\s*Yes|YesYes/);
      expect(await panel('Who gets what').locator('.error-banner').count()).toBe(0);
      expect(await accessibilityProblems(p)).toEqual([]);
      await shot(p, 'first-report-task', true);

      await p.getByRole('button', { name: 'Run now' }).click();
      await p.getByRole('heading', { name: 'Monitoring', level: 1 }).waitFor();
      const [received] = await until(
        () => smtp.received.filter((m) => m.envelopeTo.includes('nina@example.com')),
        (x) => x.length >= 1,
        120_000,
      );
      expect(received.parsed.subject).toBe('Distribute Regional sales review');
      expect(received.parsed.text).toMatch(
        /Here are the reports of Distribute Regional sales review, made on \d{4}-\d{2}-\d{2}\./,
      );
      expect(received.parsed.from?.text).toContain('reports@example.com');
      const [attached] = received.parsed.attachments;
      expect(attached.filename).toMatch(/Regional sales review.*\.pdf$/);
      expect(attached.content.subarray(0, 5).toString()).toBe('%PDF-');

      // The hub holds the file for her.
      await nav(p, 'Published files').click();
      await p
        .getByText(/Regional sales review/)
        .first()
        .waitFor();

      // And the guide says the first report is out.
      await nav(p, 'Projects').click();
      await expect.poll(() => guide().textContent()).toContain('5 of 5 done');
      await p.getByRole('heading', { name: 'Your first report is out' }).waitFor();
      await shot(p, 'first-report-guide-done', true);
      await guide().getByRole('button', { name: 'Hide this guide' }).click();
      expect(await guide().count()).toBe(0);
    });

    it('shows a task never given e-mail as off, and the run with recipients says nobody was mailed', async () => {
      const p = page();
      const [{ id: nina }] = await e.s.engine.services.db.query(
        "SELECT id FROM users WHERE email = 'nina@example.com'",
      );
      const projects = await e.s.ok('GET', '/api/v1/projects', undefined, { get_all: true });
      const [report] = await e.s.ok('GET', '/api/v1/reports', undefined, {
        project_id: projects[0].id,
        'name[equals]': 'Regional sales review',
      });
      // Made through the API, as the reference's clients do: no e-mail, no hub.
      const task = await e.s.ok('POST', '/api/v2/tasks', { name: 'Quiet pack', projectID: projects[0].id });
      await e.s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
        reportID: report.id,
        format: 'Html',
        emailEmbedment: false,
        emailAttachment: true,
      });
      await e.s.ok('POST', `/api/v1/tasks/${task.id}/recipients`, [
        { id: nina, type: 'user', sendEmail: true, seeInHub: true },
      ]);
      await p.goto(`${e.s.url}/#/tasks/${task.id}`);
      await p.getByRole('heading', { name: 'Quiet pack', level: 1 }).waitFor();
      expect(await panel('E-mail').getByRole('checkbox', { name: 'Send e-mail' }).isChecked()).toBe(false);
      await p.getByRole('button', { name: 'Check before sending' }).click();
      const who = panel('Who gets what');
      await who.getByText('E-mail is off for this task: nobody is mailed.').waitFor();
      await who
        .getByText('Recipients are set to see the files in the hub, but no report of the task is published to it.')
        .waitFor();
      const row = who.getByRole('row', { name: /Nina New/ });
      expect(await row.textContent()).toContain('no report of the task is published to the hub');

      await p.getByRole('button', { name: 'Run now' }).click();
      await p.getByRole('heading', { name: 'Monitoring', level: 1 }).waitFor();
      const run = p.getByRole('row', { name: /Quiet pack/ }).first();
      await expect.poll(() => run.textContent(), { timeout: 60_000 }).toContain('e-mail is off for this task');
      expect(await run.textContent()).toContain('none');
      await shot(p, 'first-report-quiet-run', true);

      // Ticked on the page, the check reads what the page shows: the change is saved first.
      await p.goto(`${e.s.url}/#/tasks/${task.id}`);
      await p.getByRole('heading', { name: 'Quiet pack', level: 1 }).waitFor();
      await panel('E-mail').getByRole('checkbox', { name: 'Send e-mail' }).check();
      await p.getByRole('button', { name: 'Save and check' }).click();
      await expect.poll(() => p.locator('.badge.unsaved').count()).toBe(0);
      await expect
        .poll(() => who.getByRole('row', { name: /Nina New/ }).textContent())
        .toMatch(/^Nina New.*the taskYes/);
      expect(await who.getByText('E-mail is off for this task: nobody is mailed.').count()).toBe(0);
      expect((await e.s.ok('GET', `/api/v1/tasks/${task.id}`)).email).toMatchObject({ isActive: true });
    });

    it('offers ready-made roles in areas, sign-in settings from the row, kinds with their spaces, and says what an empty backup list needs', async () => {
      const p = page();
      await nav(p, 'Roles').click();
      const matrix = p.locator('table.matrix');
      await matrix.getByRole('columnheader', { name: 'Designer' }).waitFor();
      expect(await matrix.getByRole('columnheader', { name: 'Publisher' }).count()).toBe(1);
      // Read in areas: each area heads its rows.
      for (const area of ['Projects and reports', 'Tasks', 'The hub', 'Users and groups'])
        expect(await matrix.getByRole('columnheader', { name: area }).count()).toBe(1);
      expect(await matrix.getByRole('checkbox', { name: 'Publisher: Run task' }).isChecked()).toBe(true);
      expect(await matrix.getByRole('checkbox', { name: 'Designer: Run task' }).isChecked()).toBe(false);
      await shot(p, 'first-report-roles', true);

      await nav(p, 'Organizations').click();
      await p.getByRole('button', { name: 'Sign-in settings of “Default”' }).click();
      await p.getByRole('heading', { name: 'Sign-in for Default' }).waitFor();
      // Its Edit dialog holds its sign-in too, where people look for it.
      await p.getByRole('button', { name: 'Edit “Default”' }).click();
      const edit = p.getByRole('dialog', { name: 'Edit organization' });
      await edit.getByRole('heading', { name: 'Sign-in for Default' }).waitFor();
      expect(await edit.getByRole('button', { name: 'Save sign-in settings' }).count()).toBe(1);
      await shot(p, 'first-report-organization-edit');
      await edit.getByRole('button', { name: 'Cancel' }).click();

      await nav(p, 'Data connections').click();
      await p.getByRole('button', { name: 'New data connection' }).click();
      const kinds = await p.getByRole('dialog').getByLabel('Kind of database').locator('option').allTextContents();
      expect(kinds).toContain('SQL Server');
      await p.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

      // An identity provider's addresses are reached from its row and copied with a click.
      const provider = await e.s.ok('POST', '/api/v1/identity-providers', {
        name: 'Contoso',
        type: 'SAML',
        entityID: 'https://idp.contoso.example/',
        singleSignOnUrl: 'https://idp.contoso.example/sso',
      });
      await e.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: e.s.url });
      await nav(p, 'Identity providers').click();
      await p.getByRole('button', { name: 'Addresses of “Contoso”' }).click();
      await p.getByRole('button', { name: 'Copy Assertion consumer service (ACS, HTTP-POST)' }).click();
      await expect
        .poll(() => p.evaluate(() => navigator.clipboard.readText()))
        .toBe(`${e.s.url}/api/app/sso/${provider.id}/acs`);

      // A new OpenID provider: the create dialog says where its redirect URI will be, and Create shows it to copy.
      await p.getByRole('button', { name: 'New OpenID provider' }).click();
      const create = p.getByRole('dialog', { name: 'New OpenID provider' });
      await create.getByText('Broadsheet’s redirect URI to register there is shown').waitFor();
      await create.getByLabel('Name').fill('Northwind');
      await create.getByLabel('Client ID').fill('broadsheet');
      await create.getByLabel('Client secret').fill('s3cret-value');
      await create.getByLabel('Authorization endpoint').fill('https://login.northwind.example/authorize');
      await create.getByLabel('Token endpoint').fill('https://login.northwind.example/token');
      await create.getByLabel('Userinfo endpoint').fill('https://login.northwind.example/userinfo');
      await create.getByRole('button', { name: 'Create' }).click();
      await p.getByRole('button', { name: 'Copy Redirect URI to register with the provider' }).click();
      const northwind = (await e.s.ok('GET', '/api/v1/identity-providers?name=Northwind')) as { id: string }[];
      await expect
        .poll(() => p.evaluate(() => navigator.clipboard.readText()))
        .toBe(`${e.s.url}/api/app/sso/${northwind[0].id}/callback`);

      await p.goto(`${e.s.url}/#/settings/backups`);
      await p.getByText('Set a backup folder under Schedule and retention').waitFor();
      expect(await accessibilityProblems(p)).toEqual([]);
    });
  },
);
