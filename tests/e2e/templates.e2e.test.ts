/// <reference lib="dom" />
// A designer brings their own Word file: a mistake in it is reported at its paragraph and nothing is
// saved; the corrected file makes a template report whose tags are checked, previewed with one
// region's figures, run by a task, and the delivered file opened and read.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { covers } from '../support/covers.js';
import { wordTemplate } from '../support/office-templates.js';
import { ooxmlText, zipEntries } from '../support/read-back.js';
import {
  accessibilityProblems,
  nav,
  newTaskWithReport,
  noConsoleErrorsSince,
  openApp,
  shot,
  signIn,
  toast,
  WIDE,
  type E2E,
} from './harness.js';

let e: E2E;
const OWNER = { firstName: 'Wanda', lastName: 'Word', email: 'wanda@example.com', password: 'wanda-password-1' };
const page = () => e.page;
const panel = (title: string) =>
  page()
    .locator('.panel')
    .filter({ has: page().getByRole('heading', { name: title, exact: true }) });
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

beforeAll(async () => {
  e = await openApp(OWNER, WIDE, { demo: true });
  await signIn(e, OWNER);
}, 120_000);
afterEach(() => noConsoleErrorsSince(e));
afterAll(async () => {
  await e?.close();
});

describe(
  covers(
    'template reports in Chromium',
    'app.reports.createFromTemplate',
    'app.reports.uploadTemplate',
    'app.reports.templateItems',
    'app.reports.preview',
    'v2.requests.run',
    'app.onDemand.result',
  ),
  () => {
    it('reports a wrong tag at its paragraph, then creates the report from the corrected file', async () => {
      await nav(page(), 'Projects').click();
      await page().getByRole('link', { name: 'Sales reporting (demo)' }).click();
      const form = page().getByRole('group', { name: 'Or build it in Office' });
      await form.getByLabel('Report name').fill('Word review');
      await form
        .getByLabel('Template file')
        .setInputFiles({ name: 'Review.docx', mimeType: DOCX, buffer: await wordTemplate(['Margin: {{vMargin}}']) });
      await form.getByRole('button', { name: 'Create from file' }).click();
      const problems = form.getByRole('alert');
      await expect
        .poll(() => problems.textContent())
        .toMatch(/document, paragraph \d+\s*\{\{vMargin\}\} names no variable of the app/);
      expect(await e.s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Word review' })).toEqual([]);
      await form
        .getByLabel('Template file')
        .setInputFiles({ name: 'Review.docx', mimeType: DOCX, buffer: await wordTemplate(['Margin: {{vMarginPct}}']) });
      await form.getByRole('button', { name: 'Create from file' }).click();
      await toast(page(), 'success', /Created “Word review”: \d+ tags checked\./).waitFor();
      await page()
        .getByRole('heading', { name: /Word review/, level: 1 })
        .waitFor();
      await panel('Template file').getByText('Review.docx').waitFor();
    });

    it("checks a new version's tags, offers the palette, and previews one region's file", async () => {
      const file = panel('Template file');
      await file
        .getByLabel('Upload a new version')
        .setInputFiles({ name: 'Review v2.docx', mimeType: DOCX, buffer: await wordTemplate(['Orders: {{vOrders}}']) });
      await toast(page(), 'success', /Version 2 saved: \d+ tags checked\./).waitFor();
      const checked = file.locator('.checked-tags');
      await expect.poll(() => checked.textContent()).toMatch(/\{\{vOrders\}\}\s*document, paragraph \d+/);
      const palette = panel('Tags to paste');
      await palette.getByRole('searchbox', { name: 'Find a tag' }).fill('top customers');
      await palette.getByRole('button', { name: 'Copy {{column:Top customers:Sales}}' }).waitFor();
      // Iterate over regions in the data panel, save, and preview EMEA.
      await page().getByRole('checkbox', { name: 'One file per value of' }).check();
      await page().getByLabel('Iteration field').selectOption({ label: 'Region' });
      await page().getByRole('button', { name: 'Save' }).click();
      await toast(page(), 'success', 'Saved.').waitFor();
      const preview = page().getByRole('document', { name: 'Report preview' });
      await page().getByLabel('Previewing').selectOption('EMEA');
      await expect
        .poll(() => preview.evaluate((el) => el.shadowRoot?.textContent ?? ''), { timeout: 30_000 })
        .toMatch(/Sales review: [\d,.]+.*Region EMEA sold/s);
      expect(await preview.evaluate((el) => el.shadowRoot?.textContent ?? '')).not.toMatch(/Region APAC sold/);
      expect(await accessibilityProblems(page())).toEqual([]);
      await shot(page(), 'template-designer', true);
    });

    it('runs the report in a task and opens the delivered Word file', async () => {
      await newTaskWithReport(page(), {
        name: 'Regional Word pack',
        project: 'Sales reporting (demo)',
        report: 'Word review (Docx, Pdf)',
        format: 'Docx',
      });
      await page().getByRole('button', { name: 'Run now' }).click();
      await page().getByRole('heading', { name: 'Monitoring', level: 1 }).waitFor();
      const row = panel('Runs').locator('tbody tr').filter({ hasText: 'Regional Word pack' }).first();
      // Its e-mail is on from the start, and it has no recipients yet: the run says so, and its files are made.
      await expect.poll(() => row.textContent(), { timeout: 90_000 }).toContain('warning');
      expect(await row.textContent()).toContain('nobody to mail');
      const [download] = await Promise.all([
        page().waitForEvent('download'),
        row.getByRole('button', { name: 'Download' }).click(),
      ]);
      const files = await zipEntries(await readFile((await download.path())!));
      expect([...files.keys()].sort()).toEqual([
        'Word review - APAC.docx',
        'Word review - Americas.docx',
        'Word review - EMEA.docx',
      ]);
      const text = await ooxmlText(files.get('Word review - EMEA.docx')!, /^word\/document\.xml$/);
      expect(text).toMatch(/Sales review: [\d,.]+/);
      expect(text).toMatch(/Region EMEA sold/);
      expect(text).not.toContain('{{');
    });
  },
);
