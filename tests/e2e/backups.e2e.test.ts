/// <reference lib="dom" />
// Backups in Chromium: the owner sets a backup folder and a daily schedule, backs up now, sees the
// backup listed, and restores it after a question; a folder inside the data folder is refused by name.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { covers } from '../support/covers.js';
import {
  accessibilityProblems,
  alertDialog,
  nav,
  noConsoleErrorsSince,
  openApp,
  shot,
  signIn,
  toast,
  type E2E,
} from './harness.js';

let e: E2E;
let folder = '';
const OWNER = { firstName: 'Bea', lastName: 'Backup', email: 'bea@example.com', password: 'bea-password-1' };
const page = () => e.page;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'bs-e2e-backups-'));
  e = await openApp(OWNER);
  await signIn(e, OWNER);
}, 120_000);
afterEach(() => noConsoleErrorsSince(e));
afterAll(async () => {
  await e?.close();
  await rm(folder, { recursive: true, force: true });
});

describe(
  covers(
    'backups on the settings screen',
    'app.backups.overview',
    'app.backups.configure',
    'app.backups.create',
    'app.backups.restore',
  ),
  () => {
    it('sets a folder and schedule, backs up now, lists the backup, and stages a restore after a question', async () => {
      await nav(page(), 'Settings').click();
      await page()
        .getByRole('navigation', { name: 'Settings sections' })
        .getByRole('link', { name: 'Backups' })
        .click();
      const panel = page().locator('.panel', { has: page().getByRole('heading', { name: 'Backups' }) });
      await panel.waitFor();
      // Inside the data folder: refused, naming the field.
      await panel.getByLabel('Backup folder').fill(join(e.s.dataDir, 'files'));
      await panel.getByRole('button', { name: 'Save backup settings' }).click();
      await panel.getByText(/must be outside Broadsheet's data folder/).waitFor();
      await panel.getByLabel('Backup folder').fill(folder);
      // The day is asked only of a weekly schedule.
      await panel.getByLabel('Back up on a schedule').selectOption('Weekly');
      expect(await panel.getByLabel('On', { exact: true }).count()).toBe(1);
      await panel.getByLabel('Back up on a schedule').selectOption('Daily');
      expect(await panel.getByLabel('On', { exact: true }).count()).toBe(0);
      await panel.getByRole('button', { name: 'Save backup settings' }).click();
      await toast(page(), 'success', 'Backup settings saved.').waitFor();
      await panel.getByText(/Next scheduled: (?!—)/).waitFor();
      // Its steps are shown while it runs: watched from the page, as fast as it may be.
      await page().evaluate(() => {
        const seen: string[] = ((window as unknown as { backupSteps: string[] }).backupSteps = []);
        new MutationObserver(() => {
          const step = document.querySelector('.backup-progress [role=status]')?.textContent;
          if (step && !seen.includes(step)) seen.push(step);
        }).observe(document.body, { subtree: true, childList: true, characterData: true });
      });
      await panel.getByRole('button', { name: 'Back up now' }).click();
      await toast(page(), 'success', /Backed up to .*broadsheet-.*\.bsbackup/).waitFor();
      const steps = await page().evaluate(() => (window as unknown as { backupSteps: string[] }).backupSteps);
      expect(steps.length).toBeGreaterThan(0);
      for (const step of steps) expect(step).toMatch(/^Step [1-7] of 7: [a-z ]+…$/);
      const [name] = await readdir(folder);
      expect(name).toMatch(/^broadsheet-\d{4}-\d{2}-\d{2}-\d{6}\.bsbackup$/);
      await panel.getByRole('row', { name: new RegExp(name.replace(/\./g, '\\.')) }).waitFor();
      expect(await accessibilityProblems(page())).toEqual([]);
      await panel.getByRole('heading', { name: 'Schedule and retention' }).scrollIntoViewIfNeeded();
      await shot(page(), 'backups');
      // A typed path is looked at before any question: one that is no backup is said beside it.
      const typed = panel.getByRole('textbox', { name: 'Restore from a backup file' });
      await typed.fill(join(folder, 'not-a-backup.bsbackup'));
      await panel.getByRole('button', { name: 'Check and restore' }).click();
      await panel.getByText('Must be an existing backup file').waitFor();
      expect(await alertDialog(page()).count()).toBe(0);
      // A real one: the question says when it was taken and what it holds.
      await typed.fill(join(folder, name));
      await panel.getByRole('button', { name: 'Check and restore' }).click();
      await alertDialog(page())
        .getByText(
          /The backup was taken .* and holds \d+ users?, \d+ projects?, \d+ reports?, \d+ tasks?\. At the next start it replaces everything Broadsheet holds now: whatever was made or changed since it was taken is lost\./,
        )
        .waitFor();
      await alertDialog(page()).getByRole('button', { name: 'Cancel' }).click();
      expect((await e.s.ok('GET', '/api/app/backups')).restoreStaged).toBeNull();
      // Restore asks first, checks the backup, and says what happens next.
      await panel
        .getByRole('row', { name: new RegExp(name.replace(/\./g, '\\.')) })
        .getByRole('button', { name: 'Restore…' })
        .click();
      await alertDialog(page())
        .getByText(/At the next start it replaces everything Broadsheet holds now/)
        .waitFor();
      await alertDialog(page()).getByRole('button', { name: 'Check and restore' }).click();
      await panel.getByRole('status').filter({ hasText: 'Restart Broadsheet to finish' }).waitFor();
      // A page loaded again still says so, and the restore can be called off there.
      await page().reload();
      const again = page()
        .locator('.panel')
        .filter({ has: page().getByRole('heading', { name: 'Backups' }) });
      await again.getByText(`A restore of ${name} is checked and ready`, { exact: false }).waitFor();
      await again.getByRole('button', { name: 'Call off the restore' }).click();
      await alertDialog(page()).getByRole('button', { name: 'Call off the restore' }).click();
      await toast(page(), 'success', 'The restore is called off: the current data stays.').waitFor();
      await expect.poll(() => again.getByRole('button', { name: 'Call off the restore' }).count()).toBe(0);
      expect((await e.s.ok('GET', '/api/app/backups')).restoreStaged).toBeNull();
    });
  },
);
