/// <reference lib="dom" />
// People joining and leaving, in Chromium: the owner synchronizes a directory (slapd on loopback)
// with "Sync now" and reads its log; invites a colleague by mail (a real SMTP server receives it),
// who opens the link, chooses a password and signs in; and transfers what a leaving designer owns
// before deleting her.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { covers } from '../support/covers.js';
import { defaults } from '../support/test-server.js';
import { startSmtp, type TestSmtp } from '../support/smtp.js';
import { startSlapd, ADMIN_DN, ADMIN_PASSWORD, BASE_DN, type TestSlapd } from '../support/slapd.js';
import { until } from '../support/until.js';
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
  toast,
  type E2E,
} from './harness.js';

let e: E2E;
let smtp: TestSmtp;
let ldap: TestSlapd;
let orgId = '';
const OWNER = { firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com', password: 'olga-password-1' };
const LEA = { firstName: 'Lea', lastName: 'Leaving', email: 'lea@example.com', password: 'lea-password-1' };
const page = () => e.page;

beforeAll(async () => {
  const people = Array.from({ length: 30 }, (_, i) => ({
    uid: `p${i + 1}`,
    givenName: `Person${i + 1}`,
    sn: 'Staff',
    mail: `p${i + 1}@corp.example.com`,
  }));
  ldap = await startSlapd(people, [
    { cn: 'finance', members: people.slice(0, 10).map((p) => p.uid) },
    { cn: 'sales', members: people.slice(10, 30).map((p) => p.uid) },
  ]);
  smtp = await startSmtp();
  e = await openApp(OWNER);
  orgId = (await defaults(e.s)).orgId;
  await e.s.ok('POST', '/api/v1/mail-servers', {
    name: 'Loopback',
    fromName: 'Broadsheet',
    fromAddress: 'reports@example.com',
    hostName: '127.0.0.1',
    smtpPort: smtp.port,
    ssl: false,
  });
  await e.s.ok('POST', '/api/v1/user-directories', {
    type: 'LDAP',
    name: 'Corporate LDAP',
    hostName: '127.0.0.1',
    port: ldap.port,
    userName: ADMIN_DN,
    password: ADMIN_PASSWORD,
    userDirectoryName: BASE_DN,
    sendNotification: false,
    synchronization: 'Daily',
    frequencyTime: '02:00',
    timeZone: 'UTC',
    organizationId: orgId,
  });
  await signIn(e, OWNER);
}, 120_000);
afterEach(() => noConsoleErrorsSince(e));
afterAll(async () => {
  await e?.close();
  await smtp?.close();
  await ldap?.close();
});

describe(
  covers(
    'directories, invitations and transfers in Chromium',
    'app.userDirectories.sync',
    'app.userDirectories.syncs',
    'v2.users.invite',
    'app.invitations.accept',
    'v2.users.transfer',
    'v2.users.delete',
  ),
  () => {
    it('synchronizes a directory with "Sync now" and shows the run and its log', async () => {
      await nav(page(), 'User directories').click();
      await page()
        .getByRole('row', { name: /Corporate LDAP/ })
        .click();
      await page().getByRole('heading', { name: 'Synchronization of Corporate LDAP' }).waitFor();
      await page().getByText('Never synchronized').first().waitFor();
      await page().getByRole('button', { name: 'Sync now' }).click();
      await toast(
        page(),
        'success',
        /Corporate LDAP synchronized: 30 created, 0 updated, 0 deactivated, 2 groups/,
      ).waitFor();
      const runs = page().getByRole('table', { name: 'Recent synchronizations' });
      await runs.getByRole('row', { name: /Asked for.*Completed/ }).waitFor();
      expect(await page().getByLabel('Synchronization log').textContent()).toMatch(/Read 30 people and 2 groups/);
      // The schedule says when it runs next: daily at 02:00 UTC.
      expect(await page().locator('dl.facts').textContent()).not.toContain('Only when asked');
      expect(await accessibilityProblems(page())).toEqual([]);
      await shot(page(), 'directory-sync');
      // The people are users now, in their groups.
      const users = await e.s.ok('GET', '/api/v1/users', undefined, { get_all: true });
      expect(users.filter((u: { email: string }) => u.email?.endsWith('@corp.example.com'))).toHaveLength(30);
    });

    it('invites a colleague by mail, who chooses a password from the link and signs in', async () => {
      await nav(page(), 'Users').click();
      await page().getByRole('button', { name: 'Invite people' }).click();
      const d = dialog(page());
      await d.getByLabel('E-mail addresses').fill('nina.new@example.com\nnot an address');
      await d.getByLabel('Organization').selectOption({ label: 'Default' });
      await d.getByLabel('Role').selectOption({ label: 'Hub users' });
      await d.getByRole('button', { name: 'Send invitations' }).click();
      // The bad line is named by what was typed, beside the field.
      await d.getByText('“not an address” must be an e-mail address').waitFor();
      await d.getByLabel('E-mail addresses').fill('nina.new@example.com, olga@example.com');
      await d.getByRole('button', { name: 'Send invitations' }).click();
      await d.getByText('Invited 1 person; each receives a mail with a link to choose a password.').waitFor();
      await d.getByText('olga@example.com — already a user').waitFor();
      expect(await accessibilityProblems(page())).toEqual([]);
      await shot(page(), 'invite-people');
      await d.getByRole('button', { name: 'Done' }).click();

      const mail = (
        await until(
          () => smtp.received.filter((m) => m.envelopeTo.includes('nina.new@example.com')),
          (x) => x.length === 1,
        )
      )[0];
      expect(mail.parsed.subject).toBe('Olga Owner invites you to Broadsheet');
      const link = /(http:\/\/\S+\/#\/invitation\/[A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '')![1];
      await signOut(e);
      await page().goto(link);
      await page()
        .getByText('You were invited as nina.new@example.com. Tell us your name and choose your password.')
        .waitFor();
      await page().getByLabel('First name').fill('Nina');
      await page().getByLabel('Last name').fill('Newcomer');
      await page().getByLabel('Password').fill('nina-password-1');
      await page().getByRole('button', { name: 'Set password' }).click();
      await page().getByText('Your password is set. Sign in with nina.new@example.com.').waitFor();
      await shot(page(), 'invitation-accepted');
      const [nina] = await e.s.engine.services.db.query(
        "SELECT firstName, lastName FROM users WHERE email = 'nina.new@example.com'",
      );
      expect(nina).toEqual({ firstName: 'Nina', lastName: 'Newcomer' });
      // The link worked once: opened again, it says so and offers no form.
      await page().goto(e.s.url + '/');
      await page().goto(link);
      await page()
        .getByRole('alert')
        .filter({ hasText: 'This invitation link was used already or has expired' })
        .waitFor();
      expect(await page().getByLabel('Password').count()).toBe(0);
      await page().getByRole('button', { name: 'Go to sign-in' }).click();
      await signIn(e, { ...LEA, email: 'nina.new@example.com', password: 'nina-password-1' });
      // Her own account page: her name, and her password changed by herself (she reads the hub, no settings).
      await page().getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Nina Newcomer' }).click();
      await page().getByRole('heading', { name: 'Your account', level: 1 }).waitFor();
      await page().getByLabel('Current password').fill('nina-password-1');
      await page().getByLabel('New password').fill('nina-password-2');
      await page().getByRole('button', { name: 'Change password' }).click();
      await toast(page(), 'success', /Password changed/).waitFor();
      expect(await accessibilityProblems(page())).toEqual([]);
      await signOut(e);
      await signIn(e, { ...LEA, email: 'nina.new@example.com', password: 'nina-password-2' });
      await signOut(e);
      await signIn(e, OWNER);
    });

    it('transfers what a leaving designer owns to another user, then deletes her', async () => {
      const role = await e.s.ok('POST', '/api/v1/roles', {
        name: 'Designers',
        permissions: { viewProject: true, updateProject: true },
        isActive: true,
        allProjects: true,
      });
      const lea = await e.s.ok('POST', '/api/v1/users', {
        ...LEA,
        isActive: true,
        roles: [{ id: role.id }],
        organizations: [{ id: orgId }],
      });
      const login = await e.s.call('POST', '/api/app/auth/login', {
        token: null,
        body: { email: LEA.email, password: LEA.password },
      });
      const project = (
        await e.s.call('POST', '/api/app/projects', {
          token: login.body.data.token,
          body: { name: "Lea's quarterly pack", organizationId: orgId },
        })
      ).body.data;
      const owner = (await e.s.ok('GET', '/api/app/auth/me')).user.id as string;

      await nav(page(), 'Users').click();
      const row = page().getByRole('row', { name: /Lea Leaving/ });
      await row.getByRole('button', { name: 'Transfer…' }).click();
      const d = dialog(page());
      await d.getByLabel('To').selectOption({ label: 'Olga Owner <olga@example.com>' });
      await d.getByRole('button', { name: 'Transfer' }).click();
      await toast(page(), 'success', /Moved 1 item and \d+ rights? to Olga Owner/).waitFor();
      await shot(page(), 'transfer-then-delete');
      await alertDialog(page()).getByRole('button', { name: 'Delete user' }).click();
      await toast(page(), 'success', 'Deleted Lea Leaving.').waitFor();
      await expect
        .poll(async () =>
          (await e.s.ok('GET', '/api/v1/users', undefined, { get_all: true })).some(
            (u: { id: string }) => u.id === lea.id,
          ),
        )
        .toBe(false);
      expect(
        (await e.s.engine.services.db.query('SELECT createdBy FROM projects WHERE id = ?', [project.id]))[0].createdBy,
      ).toBe(owner);
    });
  },
);
