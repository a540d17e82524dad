/// <reference lib="dom" />
// A hub user in Chromium: signs in to see only what was published to them, stars a file and finds it
// among the favourites, previews the PDF in the page, and downloads it (the bytes are the file's).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { covers } from '../support/covers.js';
import { waitForRequest } from '../support/requests.js';
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
  type E2E,
} from './harness.js';

let e: E2E;
const OWNER = { firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com', password: 'olga-password-1' };
const READER = { firstName: 'Hugo', lastName: 'Hub', email: 'hugo@example.com', password: 'hugo-password-1' };
const page = () => e.page;
let regions = 0;
let hubTaskId = '';

beforeAll(async () => {
  e = await openApp(OWNER, { width: 1280, height: 860 }, { demo: true });
  const s = e.s;
  const { orgId } = await defaults(s);
  // A recipient gets the role "Hub users": preview, download and subscribe, nothing else.
  const reader = await s.ok('POST', '/api/v1/recipients', {
    firstName: READER.firstName,
    lastName: READER.lastName,
    email: READER.email,
    password: READER.password,
    isActive: true,
    organizations: [{ id: orgId }],
  });
  const [report] = await s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
  const folder = await s.ok('POST', '/api/v1/hub/folders', { name: 'Regional', parentUrl: '/', location: '/Regional' });
  const task = await s.ok('POST', '/api/v2/tasks', { name: 'Regions to the hub', projectID: report.projectId });
  hubTaskId = task.id;
  await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
    reportID: report.id,
    format: 'Pdf',
    emailAttachment: false,
    emailEmbedment: false,
    hub: { folderID: folder.id, hubMaxFileOccurrences: 3 },
  });
  await s.ok('POST', `/api/v1/tasks/${task.id}/recipients`, [
    { id: reader.id, type: 'user', sendEmail: false, seeInHub: true },
  ]);
  // Another task's files the reader is not a recipient of: they must not show.
  const hidden = await s.ok('POST', '/api/v2/tasks', { name: 'Not for Hugo', projectID: report.projectId });
  await s.ok('PUT', `/api/v2/tasks/${hidden.id}/reports`, {
    reportID: report.id,
    format: 'Docx',
    emailAttachment: false,
    emailEmbedment: false,
    hub: { folderID: folder.id, hubMaxFileOccurrences: 3 },
  });
  for (const t of [task.id, hidden.id])
    expect((await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${t}/run`)).id)).status).toBe('completed');
  regions = (await s.ok('GET', '/api/v1/files', undefined, { get_all: true, extension: 'pdf' })).length;
  await signIn(e, READER);
}, 120_000);
afterEach(() => noConsoleErrorsSince(e));
afterAll(async () => {
  await e?.close();
});

describe(
  covers(
    'the hub in Chromium',
    'v1.files.list',
    'v1.files.listFavorites',
    'v1.files.download',
    'v1.subscriptions.create',
    'v1.subscriptions.listOwn',
    'v1.subscriptions.delete',
    'v1.subscriptions.update',
    'v1.files.listOccurrences',
  ),
  () => {
    it('shows a hub user only the files published to them, in the Hub menu alone', async () => {
      await nav(page(), 'Published files').click();
      await page().getByRole('heading', { name: 'Published files', level: 1 }).waitFor();
      const rows = page().locator('.panel tbody tr');
      await expect.poll(() => rows.count()).toBe(regions);
      for (const text of await rows.allTextContents()) expect(text).toContain('PDF');
      // A hub user manages nothing: no task screens, no folder administration.
      expect(await nav(page(), 'Tasks').count()).toBe(0);
      expect(await page().getByRole('heading', { name: 'Folders' }).count()).toBe(0);
      expect(await accessibilityProblems(page())).toEqual([]);
      await shot(page(), 'hub-files', true);
    });

    it('stars a file and finds it among the favourites', async () => {
      const first = page().locator('.panel tbody tr').first();
      const name = (await first.locator('td').nth(1).textContent())!;
      await first.getByRole('button', { name: `Star ${name}` }).click();
      await expect.poll(() => first.getByRole('button', { name: `Unstar ${name}` }).count()).toBe(1);
      await page().getByRole('button', { name: 'Favourites' }).click();
      const favourites = page().locator('.panel tbody tr');
      await expect.poll(() => favourites.first().textContent()).toContain(name);
      expect(await favourites.count()).toBe(1);
      await shot(page(), 'hub-favourites');
    });

    it('previews the PDF in the page and downloads it', async () => {
      const row = page().locator('.panel tbody tr').first();
      const name = (await row.locator('td').nth(1).textContent())!;
      await row.getByRole('button', { name: 'Preview' }).click();
      // pdf.js draws the pages in the page itself: the first is there, with ink on it.
      const firstPage = dialog(page()).getByRole('img', {
        name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, page 1 of \\d+$`),
      });
      await firstPage.waitFor({ timeout: 30_000 });
      const inked = await firstPage.evaluate((el) => {
        const c = el as HTMLCanvasElement;
        const px = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let dark = 0;
        for (let i = 0; i < px.length; i += 4) if (px[i] < 128 && px[i + 3] > 0) dark++;
        return dark;
      });
      expect(inked).toBeGreaterThan(500);
      await shot(page(), 'hub-preview');
      const [download] = await Promise.all([
        page().waitForEvent('download'),
        dialog(page()).getByRole('button', { name: 'Download' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(name);
      const bytes = await readFile((await download.path())!);
      expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
      const file = (await e.s.ok('GET', '/api/v1/files', undefined, { get_all: true, 'name[equals]': name })).find(
        (f: { extension: string }) => f.extension === 'pdf',
      );
      const served = await e.s.file('GET', '/api/v1/files/download', { query: { id: file.id } });
      expect(Buffer.compare(bytes, served.data)).toBe(0);
      await page().keyboard.press('Escape');
      await dialog(page()).waitFor({ state: 'detached' });
      // Viewing counts as recent.
      await page().getByRole('button', { name: 'Recent (7 days)' }).click();
      await expect.poll(() => page().locator('.panel tbody tr').count()).toBe(regions);
    });

    it("subscribes to a file's report weekly, is told what a wrong field needs, and finds it under My subscriptions", async () => {
      await page().getByRole('button', { name: 'All files' }).click();
      await page().locator('.panel tbody tr').first().getByRole('button', { name: 'Subscribe' }).click();
      const d = dialog(page());
      await d.getByRole('heading', { name: 'Subscribe to “Regional sales review”' }).waitFor();
      await d.getByLabel('How often').selectOption('Weekly');
      await d.getByLabel('At hour').fill('31');
      await d.getByRole('button', { name: 'Subscribe' }).click();
      // Two mistakes, both shown beside their fields at once: no days for a weekly one, an hour past 23.
      await expect.poll(() => d.locator('.field.invalid').count()).toBe(2);
      expect(await accessibilityProblems(page())).toEqual([]);
      await shot(page(), 'hub-subscribe-errors');
      // Days are picked, never typed: no "Mondy" to be read as Monday.
      await d.getByRole('checkbox', { name: 'Monday' }).check();
      await d.getByRole('checkbox', { name: 'Thursday' }).check();
      await d.getByLabel('At hour').fill('8');
      await d.getByRole('button', { name: 'Subscribe' }).click();
      await d.waitFor({ state: 'detached' });
      await page().getByRole('button', { name: 'My subscriptions' }).click();
      const row = page().locator('.panel tbody tr').first();
      await expect.poll(() => row.textContent()).toContain('Regional sales review');
      expect(await row.textContent()).toMatch(/Monday.*Thursday/);
      await shot(page(), 'hub-subscriptions');
      // Changed in place: another day, another time zone (a wrong one is named first).
      await row.getByRole('button', { name: 'Edit' }).click();
      await d.getByRole('heading', { name: 'Subscription to “Regional sales review”' }).waitFor();
      await d.getByRole('checkbox', { name: 'Thursday' }).uncheck();
      await d.getByRole('checkbox', { name: 'Friday' }).check();
      await d.getByLabel('Time zone').fill('Europe/Pari');
      await d.getByRole('button', { name: 'Save' }).click();
      await expect.poll(() => d.locator('.field.invalid').textContent()).toContain('must be an IANA time zone');
      await d.getByLabel('Time zone').fill('Europe/Paris');
      await d.getByRole('button', { name: 'Save' }).click();
      await d.waitFor({ state: 'detached' });
      await expect.poll(() => row.textContent()).toMatch(/Monday.*Friday.*Europe\/Paris/);
      expect(await row.textContent()).not.toContain('Thursday');
      const stored = await e.s.engine.services.db.query(
        'SELECT s.type, t.subscriptionId FROM subscriptions s JOIN tasks t ON t.id = s.taskId',
      );
      expect(stored).toHaveLength(1);
      await row.getByRole('button', { name: 'Unsubscribe' }).click();
      await alertDialog(page()).getByRole('button', { name: 'Unsubscribe' }).click();
      await expect
        .poll(() =>
          e.s.engine.services.db.query('SELECT COUNT(*) AS n FROM subscriptions').then((r: { n: number }[]) => r[0].n),
        )
        .toBe(0);
    });

    it('lists a file once and keeps its earlier versions behind "More", each one downloadable', async () => {
      // The task runs again: the same files, a second occurrence of each.
      expect((await waitForRequest(e.s, (await e.s.ok('POST', `/api/v2/requests/${hubTaskId}/run`)).id)).status).toBe(
        'completed',
      );
      await page().getByRole('button', { name: 'All files' }).click();
      const rows = page().locator('.panel tbody tr');
      await expect.poll(() => rows.count()).toBe(regions);
      const first = rows.first();
      const name = (await first.locator('td').nth(1).textContent())!.trim();
      await first.getByRole('button', { name: `More for ${name}` }).click();
      await page().getByRole('menuitem', { name: 'Earlier versions' }).click();
      const d = dialog(page());
      await d.getByRole('heading', { name: `Versions of “${name}”` }).waitFor();
      const versions = d.locator('tbody tr');
      await expect.poll(() => versions.count()).toBe(2);
      expect(await versions.first().textContent()).toContain('(latest)');
      const older = versions.nth(1);
      const [download] = await Promise.all([page().waitForEvent('download'), older.getByRole('button').click()]);
      expect(download.suggestedFilename()).toBe(name);
      const bytes = await readFile((await download.path())!);
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(await accessibilityProblems(page())).toEqual([]);
      await page().keyboard.press('Escape');
    });
  },
);
