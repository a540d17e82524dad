// A designer at the served UI: imports a CSV into a new app, builds a report with a table and a
// chart on it, previews it, downloads the PDF, and keeps screenshots of the designer and preview.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { pdfPages } from '../support/read-back.js';
import { ARTIFACTS, RENDERER_DIR, launchChromium } from './browser.js';

let s: TestServer;
let browser: Browser;
let page: Page;
const OWNER = { firstName: 'Dana', lastName: 'Designer', email: 'dana@example.com', password: 'dana-password-1' };
const CSV = ['Date,Region,Product,Units,Price', '2025-01-03,North,Widget,3,9.5', '2025-01-04,South,Gadget,1,120', '2025-02-01,North,Gadget,2,118.25', '2025-02-11,West,Widget,10,9.25'].join('\n');

const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });
const dialog = () => page.getByRole('dialog');

beforeAll(async () => {
  s = await startTestServer({ rendererDir: RENDERER_DIR });
  await s.ok('POST', '/api/app/setup', OWNER);
  browser = await launchChromium();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true })).newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(s.url + '/');
  await page.getByLabel('E-mail').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
});
afterAll(async () => {
  if (process.env.E2E_DEBUG) await page.screenshot({ path: join(ARTIFACTS, 'debug.png'), fullPage: true });
  await browser?.close();
  await s?.stop();
});

describe('designing a report in Chromium', () => {
  it('imports a CSV into a new analytics app, with progress, and shows its fields and values', async () => {
    await nav('Analytics apps').click();
    await page.getByRole('button', { name: 'New analytics app' }).click();
    await dialog().getByRole('textbox', { name: 'Name', exact: true }).fill('Shop');
    await dialog().getByRole('textbox', { name: 'App id' }).fill('shop');
    await dialog().getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Shop' }).waitFor();
    await page.getByLabel('CSV, XLSX or JSON file').setInputFiles({ name: 'shop.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await expect.poll(() => page.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    await page.getByRole('cell', { name: 'Region' }).click();
    await page.getByRole('option', { name: /North/ }).waitFor();
    expect(await page.getByRole('listbox', { name: 'Values of Region' }).textContent()).toMatch(/North\s*2.*South\s*1.*West\s*1/);
    // A chart defined here draws at once, and follows a selection.
    await page.getByRole('textbox', { name: 'Chart name' }).fill('Units by region');
    await page.getByLabel('Dimension').selectOption('Region');
    await page.getByRole('textbox', { name: 'Measure' }).fill('Sum(Units)');
    await page.getByRole('button', { name: 'Add chart' }).click();
    await page.getByRole('figure', { name: 'Chart' }).locator('svg').waitFor();
    expect(await page.getByRole('table', { name: 'Chart data' }).textContent()).toMatch(/North\s*5.*South\s*1.*West\s*10/);
    await page.getByRole('option', { name: /North/ }).click();
    await expect.poll(() => page.getByRole('table', { name: 'Chart data' }).textContent()).toMatch(/^Region\s*Sum\(Units\)\s*North\s*5$/);
    await page.screenshot({ path: join(ARTIFACTS, 'analytics-app.png'), fullPage: true });
  });

  it('builds a report with a table and a chart, with a live preview', async () => {
    await nav('Projects').click();
    await page.getByRole('button', { name: 'New project' }).click();
    await dialog().getByRole('textbox', { name: 'Name', exact: true }).fill('Shop reports');
    await dialog().getByRole('button', { name: 'Create' }).click();
    await page.getByRole('heading', { name: 'Shop reports' }).waitFor();
    await page.getByRole('textbox', { name: 'Connection name' }).fill('Shop data');
    await page.getByLabel('Analytics app').selectOption({ label: 'Shop' });
    await page.getByRole('button', { name: 'Add connection' }).click();
    await page.getByText('Shop data').waitFor();
    await page.getByRole('textbox', { name: 'New report name' }).fill('Revenue by region');
    await page.getByRole('button', { name: 'Create report' }).click();
    await page.getByRole('heading', { name: /Revenue by region/ }).waitFor();

    for (const kind of ['Table', 'Chart']) {
      await page.getByLabel('Add', { exact: true }).selectOption({ label: kind });
      await page.getByRole('button', { name: 'Add block' }).click();
      const block = page.locator(`.block[data-block-type="${kind.toLowerCase()}"]`);
      await block.getByLabel(kind === 'Table' ? 'Table data' : 'Chart', { exact: true }).selectOption({ label: 'Dimensions and measures…' });
      await block.getByLabel('Dimension', { exact: true }).selectOption('Region');
      await block.getByLabel('Measure label').fill('Revenue');
      await block.getByLabel('Measure expression').fill('Sum(Units * Price)');
    }
    const preview = page.getByRole('document', { name: 'Report preview' });
    await expect.poll(async () => (await preview.innerHTML()).includes('<svg') && (await preview.textContent())?.includes('North')).toBe(true);
    expect(await preview.textContent()).toContain('265');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Saved' }).waitFor();
    await page.screenshot({ path: join(ARTIFACTS, 'report-designer.png'), fullPage: true });
    await preview.screenshot({ path: join(ARTIFACTS, 'report-preview.png') });
  });

  it('downloads the PDF, whose text holds the figures', async () => {
    await page.getByLabel('Output format').selectOption('Pdf');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Generate and download' }).click()]);
    expect(download.suggestedFilename()).toBe('Revenue by region.pdf');
    const file = join(ARTIFACTS, 'revenue-by-region.pdf');
    await download.saveAs(file);
    const text = pdfPages(readFileSync(file)).join('\n');
    expect(text).toContain('Revenue by region');
    expect(text).toMatch(/North\s+265/);
    expect(text).toMatch(/West\s+92\.50/);
  });
});
