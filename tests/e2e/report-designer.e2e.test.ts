// A designer at the served UI: imports a CSV into a new app, builds a report on it, and relies on
// the designer to keep their work: a draft with undo and redo, a question before leaving it, one Save
// for blocks, filters and iteration, a preview that is the output (styles allowed by hash, KPIs in a
// row, one iteration value with a picker), and every destructive action asked in the app first.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import sqlite3 from 'sqlite3';
import { pdfPages } from '../support/read-back.js';
import { covers } from '../support/covers.js';
import { ARTIFACTS } from './browser.js';
import {
  accessibilityProblems,
  alertDialog,
  dialog,
  nav,
  noConsoleErrorsSince,
  openApp,
  shot,
  signIn,
  toast,
  type E2E,
} from './harness.js';

let e: E2E;
const OWNER = { firstName: 'Dana', lastName: 'Designer', email: 'dana@example.com', password: 'dana-password-1' };
const CSV = [
  'Date,Region,Product,Units,Price',
  '2025-01-03,North,Widget,3,9.5',
  '2025-01-04,South,Gadget,1,120',
  '2025-02-01,North,Gadget,2,118.25',
  '2025-02-11,West,Widget,10,9.25',
].join('\n');
const page = () => e.page;
const block = (type: string) => page().locator(`.block[data-block-type="${type}"]`);
const preview = () => page().getByRole('document', { name: 'Report preview' });
let reportId = '';

const savedReport = async () => e.s.ok('GET', `/api/v1/reports/${reportId}`);

beforeAll(async () => {
  e = await openApp(OWNER);
  await signIn(e, OWNER);
});
afterEach(() => noConsoleErrorsSince(e));
afterAll(async () => {
  await e?.close();
});

describe(
  covers(
    'designing a report in Chromium',
    'app.analytics.import',
    'app.reports.saveDocument',
    'app.reports.preview',
    'v2.reports.generate',
  ),
  () => {
    it('imports a CSV into a new analytics app and finds values with a search box', async () => {
      await nav(page(), 'Analytics apps').click();
      await page().getByRole('button', { name: 'New analytics app' }).click();
      await dialog(page()).getByRole('textbox', { name: 'Name', exact: true }).fill('Shop');
      await dialog(page()).getByRole('textbox', { name: 'App id' }).fill('shop');
      await dialog(page()).getByRole('button', { name: 'Create' }).click();
      await page().getByRole('heading', { name: 'Shop' }).waitFor();
      await page()
        .getByLabel('CSV, XLSX or JSON file')
        .setInputFiles({ name: 'shop.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
      await expect.poll(() => page().getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
      await toast(page(), 'success', 'Imported 4 rows').waitFor();
      await page().getByRole('cell', { name: 'Region' }).click();
      await page().getByRole('option', { name: /North/ }).waitFor();
      expect(await page().getByRole('listbox', { name: 'Values of Region' }).textContent()).toMatch(
        /North\s*2.*South\s*1.*West\s*1/,
      );
      await page().getByRole('searchbox', { name: 'Search the values of Region' }).fill('wes');
      await expect
        .poll(() => page().getByRole('listbox', { name: 'Values of Region' }).getByRole('option').allTextContents())
        .toEqual([expect.stringMatching(/^West/)]);
      await page().getByRole('searchbox', { name: 'Search the values of Region' }).fill('');
    });

    it('asks before a re-import replaces the rows, and keeps them on Cancel', async () => {
      await page()
        .getByLabel('CSV, XLSX or JSON file')
        .setInputFiles({ name: 'tiny.csv', mimeType: 'text/csv', buffer: Buffer.from('Region,Units\nEast,1') });
      const ask = alertDialog(page());
      await ask.waitFor();
      expect(await ask.textContent()).toMatch(/The 4 rows of “Shop” will be replaced by the rows of tiny\.csv/);
      await ask.getByRole('button', { name: 'Cancel' }).click();
      await ask.waitFor({ state: 'detached' });
      const apps = await e.s.ok('GET', '/api/v1/analytics-apps', undefined, { get_all: true });
      expect((await e.s.ok('GET', `/api/app/analytics/${apps[0].id}`)).rowCount).toBe(4);
      expect(await page().getByText('4 rows').count()).toBeGreaterThan(0);
      // The refused file is not left named in the picker, nor the last import's bar at 100%.
      expect(await page().getByLabel('CSV, XLSX or JSON file').inputValue()).toBe('');
      expect(await page().getByRole('progressbar', { name: 'Import progress' }).count()).toBe(0);
    });

    it('draws a chart, edits a variable in place, and deletes a variable, a bookmark and a chart after asking', async () => {
      await page().getByRole('textbox', { name: 'Chart name' }).fill('Units by region');
      await page().getByLabel('Dimension').selectOption('Region');
      await page().getByRole('textbox', { name: 'Measure' }).fill('Sum(Units)');
      await page().getByRole('button', { name: 'Add chart' }).click();
      await page().getByRole('figure', { name: 'Chart' }).locator('svg').waitFor();
      expect(await page().getByRole('table', { name: 'Chart data' }).textContent()).toMatch(
        /North\s*5.*South\s*1.*West\s*10/,
      );
      await page().getByRole('textbox', { name: 'Variable name' }).fill('vUnits');
      await page().getByRole('textbox', { name: 'Definition' }).fill('Sum(Units)');
      await page().getByRole('button', { name: 'Add variable' }).click();
      // Changed in place, not removed and added again: the same variable, a new definition and its value with it.
      await page().getByRole('button', { name: 'Edit variable vUnits' }).click();
      await dialog(page()).getByRole('textbox', { name: 'Definition' }).fill('Sum(Units) * 2');
      await dialog(page()).getByRole('button', { name: 'Save variable' }).click();
      const row = page().getByRole('row').filter({ hasText: 'vUnits' });
      await expect.poll(() => row.textContent()).toContain('Sum(Units) * 2');
      await expect.poll(() => row.locator('td.num').textContent()).toBe('32');
      const appNow = (await e.s.ok('GET', '/api/v1/analytics-apps', undefined, { get_all: true }))[0];
      expect(
        (await e.s.ok('GET', `/api/app/analytics/${appNow.id}`)).variables.map((v: { name: string }) => v.name),
      ).toEqual(['vUnits']);
      await page().getByRole('button', { name: 'Delete variable vUnits' }).click();
      await alertDialog(page()).getByRole('button', { name: 'Delete variable' }).click();
      await page().getByRole('button', { name: 'Delete variable vUnits' }).waitFor({ state: 'detached' });
      await toast(page(), 'success', 'Deleted variable “vUnits”').waitFor();
      await page().getByRole('option', { name: /South/ }).click();
      await page().getByRole('textbox', { name: 'Save current selections as' }).fill('South only');
      await page().getByRole('button', { name: 'Save bookmark' }).click();
      await page().getByRole('button', { name: 'Delete bookmark South only' }).click();
      expect(await alertDialog(page()).textContent()).toMatch(/“South only” will be deleted/);
      await alertDialog(page()).getByRole('button', { name: 'Delete bookmark' }).click();
      await page().getByRole('button', { name: 'Delete bookmark South only' }).waitFor({ state: 'detached' });
      await page().getByRole('button', { name: 'Clear selections' }).click();
      await page().getByRole('button', { name: 'Delete chart Units by region' }).click();
      await alertDialog(page()).getByRole('button', { name: 'Delete chart' }).click();
      await page().getByRole('button', { name: 'Delete chart Units by region' }).waitFor({ state: 'detached' });
      const app = (await e.s.ok('GET', '/api/v1/analytics-apps', undefined, { get_all: true }))[0];
      const meta = await e.s.ok('GET', `/api/app/analytics/${app.id}`);
      expect([meta.charts.length, meta.variables.length, meta.bookmarks.length]).toEqual([0, 0, 0]);
      await shot(page(), 'analytics-app', true);
    });

    it('builds a report with KPIs, a table and a chart; the preview lays KPIs in a row as the files do, without a blocked style', async () => {
      await nav(page(), 'Projects').click();
      await page().getByRole('button', { name: 'New project' }).click();
      await dialog(page()).getByRole('textbox', { name: 'Name', exact: true }).fill('Shop reports');
      await dialog(page()).getByRole('button', { name: 'Create' }).click();
      await page().getByRole('heading', { name: 'Shop reports' }).waitFor();
      await page().getByRole('textbox', { name: 'Connection name' }).fill('Shop data');
      // By its role: the "Created analytics app." toast may still be showing, and its name holds the words too.
      await page()
        .getByRole('combobox', { name: /^Analytics app/ })
        .selectOption({ label: 'Shop' });
      await page().getByRole('button', { name: 'Add connection' }).click();
      await page().getByText('Shop data').waitFor();
      await page().getByRole('textbox', { name: 'New filter name' }).fill('North only');
      await page().getByRole('button', { name: 'Create filter' }).click();
      await page().getByRole('heading', { name: 'Filter: North only' }).waitFor();
      await page().getByLabel('Of', { exact: true }).selectOption({ label: 'Region' });
      await page().getByRole('group', { name: 'Values' }).getByLabel('North').check();
      await page().getByRole('button', { name: 'Add step' }).click();
      await page().getByText('= North').waitFor();
      await page().getByRole('button', { name: '← Project' }).click();
      await page().getByRole('textbox', { name: 'New report name' }).fill('Revenue by region');
      await page().getByRole('button', { name: 'Create report' }).click();
      await page()
        .getByRole('heading', { name: /Revenue by region/ })
        .waitFor();
      reportId = decodeURIComponent(new URL(page().url()).hash.split('/').pop()!);

      for (const [label, expression] of [
        ['Units', 'Sum(Units)'],
        ['Revenue', 'Sum(Units * Price)'],
      ]) {
        await page().getByLabel('Add', { exact: true }).selectOption({ label: 'KPI' });
        await page().getByRole('button', { name: 'Add block' }).click();
        await block('kpi').last().getByLabel('Label').fill(label);
        await block('kpi').last().getByLabel('Expression').fill(expression);
      }
      for (const kind of ['Table', 'Chart']) {
        await page().getByLabel('Add', { exact: true }).selectOption({ label: kind });
        await page().getByRole('button', { name: 'Add block' }).click();
        const b = block(kind.toLowerCase());
        await b
          .getByLabel(kind === 'Table' ? 'Table data' : 'Chart', { exact: true })
          .selectOption({ label: 'Dimensions and measures…' });
        await b.getByLabel('Dimension', { exact: true }).selectOption('Region');
        await b.getByLabel('Measure label').fill('Revenue');
        await b.getByLabel('Measure expression').fill('Sum(Units * Price)');
      }
      await preview().locator('svg').waitFor();
      await expect.poll(() => preview().locator('table').textContent()).toMatch(/North\s*265/);
      // The two KPIs sit side by side, as in the PDF and the HTML file.
      const kpis = preview().locator('.kpi');
      await expect.poll(() => kpis.count()).toBe(2);
      const [a, b] = [await kpis.nth(0).boundingBox(), await kpis.nth(1).boundingBox()];
      expect(Math.abs(a!.y - b!.y)).toBeLessThan(2);
      expect(b!.x).toBeGreaterThan(a!.x + a!.width - 1);
      // The chart's labels are styled by presentation attributes, not by a style the CSP refuses.
      expect(await preview().locator('svg [style]').count()).toBe(0);
      await page().getByRole('button', { name: 'Save' }).click();
      await page().getByRole('button', { name: 'Saved' }).waitFor();
      expect((await savedReport()).document.blocks).toHaveLength(5);
      await shot(page(), 'report-designer', true);
      await preview().screenshot({ path: join(ARTIFACTS, 'report-preview.png') });
    });

    it('undoes and redoes block removal and typing with Ctrl+Z and Ctrl+Shift+Z', async () => {
      await page().getByRole('button', { name: 'Remove Chart (block 5)' }).click();
      expect(await block('chart').count()).toBe(0);
      await page().keyboard.press('Control+z');
      await block('chart').waitFor();
      await page().keyboard.press('Control+Shift+z');
      await block('chart').waitFor({ state: 'detached' });
      await page().getByRole('button', { name: 'Undo' }).click();
      await block('chart').waitFor();
      const label = block('kpi').first().getByLabel('Label');
      await label.fill('Units sold');
      await label.press('Control+z');
      await expect.poll(() => label.inputValue()).toBe('Units');
      await page().getByRole('button', { name: 'Saved' }).waitFor();
    });

    it('keeps filters and iteration in the draft until Save, and previews one iteration value with a picker', async () => {
      await page().getByLabel('North only').check();
      await page().getByLabel('One file per value of').check();
      await page().getByLabel('Iteration field').selectOption({ label: 'Region' });
      expect((await savedReport()).filterIds).toEqual([]);
      await page().getByLabel('North only').uncheck();
      const picker = page().getByLabel('Previewing');
      await expect
        .poll(async () => (await picker.locator('option').allTextContents()).join('|'))
        .toBe('North|South|West');
      await expect.poll(() => preview().locator('.kpi').first().textContent()).toMatch(/5/);
      await page().getByRole('searchbox', { name: 'Find a value' }).fill('we');
      await picker.selectOption('West');
      await expect.poll(() => preview().locator('.kpi').first().textContent()).toMatch(/10/);
      expect(await preview().locator('table').textContent()).not.toMatch(/North/);
      expect((await savedReport()).isIteration).toBe(false);
      await page().getByRole('button', { name: 'Save' }).click();
      await page().getByRole('button', { name: 'Saved' }).waitFor();
      const saved = await savedReport();
      expect(saved.isIteration).toBe(true);
      expect(saved.iterationFields).toHaveLength(1);
      await shot(page(), 'report-designer-iteration');
    });

    it('names the block of every problem on Save, in words, and keeps the draft', async () => {
      await block('kpi').first().getByLabel('Expression').fill('Sum(Unitz)');
      await block('kpi').last().getByLabel('Expression').fill('Sum(Pricez)');
      await page().getByRole('button', { name: 'Save' }).click();
      const failure = toast(page(), 'failure');
      await failure.waitFor();
      expect(await failure.textContent()).not.toMatch(/document\.blocks|body\./);
      await expect.poll(() => page().locator('.block.invalid').count()).toBe(2);
      expect(await block('kpi').first().locator('.block-problems').textContent()).toMatch(/Expression: .*Unitz/);
      expect(await block('kpi').first().getByLabel('Expression').getAttribute('aria-invalid')).toBe('true');
      expect(await page().getByRole('button', { name: 'Save' }).isEnabled()).toBe(true);
      await failure.getByRole('button', { name: 'Dismiss' }).click();
      await block('kpi').first().getByLabel('Expression').fill('Sum(Units)');
      await block('kpi').last().getByLabel('Expression').fill('Sum(Units * Price)');
    });

    it('asks before leaving with unsaved work, in the app and on reload', async () => {
      await page().getByLabel('Add', { exact: true }).selectOption({ label: 'Text' });
      await page().getByRole('button', { name: 'Add block' }).click();
      await block('text').getByLabel('Text', { exact: true }).fill('Draft note');
      await nav(page(), 'Analytics apps').click();
      const ask = alertDialog(page());
      await ask.waitFor();
      expect(await ask.textContent()).toMatch(/changes to “Revenue by region” since the last save will be lost/);
      await ask.getByRole('button', { name: 'Keep editing' }).click();
      expect(await block('text').getByLabel('Text', { exact: true }).inputValue()).toBe('Draft note');
      expect(new URL(page().url()).hash).toContain(reportId);
      // A reload asks through the browser's own question; dismissing it keeps the page and the draft.
      const asked = new Promise<string>((resolve) =>
        page().once('dialog', (d) => {
          resolve(d.type());
          void d.dismiss();
        }),
      );
      await page()
        .reload({ timeout: 3000 })
        .catch(() => undefined);
      expect(await asked).toBe('beforeunload');
      expect(await block('text').getByLabel('Text', { exact: true }).inputValue()).toBe('Draft note');
      await page().getByRole('button', { name: 'Save' }).click();
      await page().getByRole('button', { name: 'Saved' }).waitFor();
      await nav(page(), 'Projects').click();
      await page().getByRole('heading', { name: 'Projects' }).waitFor();
      await page().goBack();
      await page()
        .getByRole('heading', { name: /Revenue by region/ })
        .waitFor();
    });

    it('downloads the PDF, whose text holds the figures and the KPIs side by side', async () => {
      await page().getByLabel('Output format').selectOption('Pdf');
      const [download] = await Promise.all([
        page().waitForEvent('download'),
        page().getByRole('button', { name: 'Generate and download' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^Revenue by region - North\.pdf$|^Revenue by region\.pdf$|\.zip$/);
      const file = join(ARTIFACTS, download.suggestedFilename().replace(/\s+/g, '-'));
      await download.saveAs(file);
      if (file.endsWith('.pdf')) {
        const text = pdfPages(readFileSync(file)).join('\n');
        expect(text).toContain('Revenue by region');
      }
    });

    it('renames and deletes a report, deletes a filter, and refuses removing a connection in use with the page kept', async () => {
      await page().getByRole('button', { name: '← Project' }).click();
      await page().getByRole('button', { name: 'Rename Revenue by region' }).click();
      await dialog(page()).getByRole('textbox', { name: 'Name', exact: true }).fill('Regional revenue');
      await dialog(page()).getByRole('button', { name: 'Rename' }).click();
      await page().getByRole('link', { name: 'Regional revenue' }).waitFor();
      await page().getByRole('button', { name: 'Remove connection Shop data' }).click();
      await alertDialog(page()).getByRole('button', { name: 'Remove connection' }).click();
      await expect.poll(() => toast(page(), 'failure').textContent()).toMatch(/Regional revenue/);
      await page().getByRole('heading', { name: 'Shop reports' }).waitFor();
      expect(await page().getByText('Shop data').count()).toBeGreaterThan(0);
      await page().getByRole('button', { name: 'Delete filter North only' }).click();
      await alertDialog(page()).getByRole('button', { name: 'Delete filter' }).click();
      await page().getByRole('link', { name: 'North only' }).waitFor({ state: 'detached' });
      await page().getByRole('button', { name: 'Delete Regional revenue' }).click();
      expect(await alertDialog(page()).textContent()).toMatch(/“Regional revenue” will be deleted/);
      await alertDialog(page()).getByRole('button', { name: 'Delete report' }).click();
      await page().getByRole('link', { name: 'Regional revenue' }).waitFor({ state: 'detached' });
      expect((await e.s.call('GET', `/api/v1/reports/${reportId}`)).status).toBe(404);
    });

    it('exports a project as a file it says it saved, and deletes a project only when its name is typed', async () => {
      await nav(page(), 'Projects').click();
      const row = page().getByRole('row', { name: /Shop reports/ });
      const [download] = await Promise.all([
        page().waitForEvent('download'),
        row.getByRole('button', { name: 'Export' }).click(),
      ]);
      const file = join(ARTIFACTS, 'exported-project.json');
      await download.saveAs(file);
      expect(JSON.parse(readFileSync(file, 'utf8')).project.name).toBe('Shop reports');
      await toast(page(), 'success', 'Exported “Shop reports”').waitFor();
      await row.getByRole('button', { name: 'Delete' }).click();
      const ask = alertDialog(page());
      await ask.getByLabel(/to confirm/).fill('Shop report');
      expect(await ask.getByRole('button', { name: 'Delete project' }).isDisabled()).toBe(true);
      expect(await ask.textContent()).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
      await ask.getByLabel(/to confirm/).fill('Shop reports');
      await ask.getByRole('button', { name: 'Delete project' }).click();
      await row.waitFor({ state: 'detached' });
    });
  },
);

describe(
  covers(
    'data from a database in Chromium',
    'app.dataConnections.create',
    'app.analytics.reload',
    'app.analytics.previewSource',
    'app.analytics.setReloadSchedule',
    'app.analytics.listReloads',
  ),
  () => {
    it('adds a SQLite data connection, tests it, gives the app a query and reloads it, with the reload in its history', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'bs-e2e-data-'));
      try {
        const file = join(dir, 'stock.db');
        await new Promise<void>((resolve, reject) => {
          const db = new sqlite3.Database(file, (e) => {
            if (e) return reject(e);
            db.exec(
              "CREATE TABLE stock (Region TEXT, Units INTEGER); INSERT INTO stock VALUES ('North', 40), ('South', 2);",
              (e2) => db.close(() => (e2 ? reject(e2) : resolve())),
            );
          });
        });
        await nav(page(), 'Data connections').click();
        await page().getByRole('button', { name: 'New data connection' }).click();
        const d = dialog(page());
        // A folder asks for its path alone; SQLite for its file.
        await d.getByLabel('Kind of database').selectOption('Folder');
        expect(await d.getByRole('textbox', { name: 'Folder' }).count()).toBe(1);
        await d.getByLabel('Kind of database').selectOption('SQLite');
        expect(await d.getByRole('textbox', { name: 'Host' }).count()).toBe(0);
        expect(await d.getByRole('textbox', { name: 'Folder' }).count()).toBe(0);
        await d.getByRole('textbox', { name: 'Name', exact: true }).fill('Stock file');
        await d.getByRole('textbox', { name: 'Database file' }).fill(file);
        await d.getByRole('button', { name: 'Create' }).click();
        const row = page().getByRole('row', { name: /Stock file/ });
        await row.getByRole('button', { name: 'Test connection' }).click();
        // The answer stays in the row, where it can be read.
        await row
          .getByRole('status')
          .filter({ hasText: /Connected to SQLite 3\./ })
          .waitFor();
        expect(await accessibilityProblems(page())).toEqual([]);

        await nav(page(), 'Analytics apps').click();
        await page().getByRole('button', { name: 'New analytics app' }).click();
        await dialog(page()).getByRole('textbox', { name: 'Name', exact: true }).fill('Stock');
        await dialog(page()).getByRole('textbox', { name: 'App id' }).fill('stock');
        await dialog(page()).getByRole('button', { name: 'Create' }).click();
        await page().getByRole('heading', { name: 'Stock' }).waitFor();
        const data = page()
          .locator('.panel')
          .filter({ has: page().getByRole('heading', { name: 'Data from a database' }) });
        expect(await data.getByRole('button', { name: 'Reload now' }).isDisabled()).toBe(true);
        await data.getByLabel('Data connection').selectOption({ label: 'Stock file' });
        await data.getByRole('textbox', { name: 'Query' }).fill('SELECT Region, Units FROM stock');
        await data.getByRole('button', { name: 'Save the source' }).click();
        await toast(page(), 'success', /The source is saved/)
          .first()
          .waitFor();
        await data.getByRole('button', { name: 'Preview the first 100 rows' }).click();
        await expect
          .poll(() => data.getByRole('table', { name: 'Preview of data' }).textContent())
          .toMatch(/Region.*Units.*North.*40.*South.*2/);
        await data.getByRole('button', { name: 'Reload now' }).click();
        await toast(page(), 'success', 'Reloaded 2 rows from data.').first().waitFor();
        await expect.poll(() => data.getByRole('table', { name: 'Reloads' }).textContent()).toMatch(/completed/);
        // A second source adds a column to each row by the one it shares (Region, whatever its case).
        await data.getByRole('button', { name: 'Add a source' }).click();
        const added = data.getByRole('region', { name: 'Add a source' });
        await added.getByRole('textbox', { name: 'Source name' }).fill('owners');
        await added.getByLabel('Data connection').selectOption({ label: 'Stock file' });
        await added.getByRole('textbox', { name: 'Query' }).fill("SELECT 'North' AS region, 'Ana' AS owner");
        await added.getByRole('button', { name: 'Save the source' }).click();
        await expect.poll(() => data.getByRole('table', { name: 'Sources' }).textContent()).toMatch(/data.*owners/);
        await data.getByRole('button', { name: 'Reload now' }).click();
        await toast(page(), 'success', 'Reloaded 2 rows from data, owners.').first().waitFor();
        await expect
          .poll(() => data.getByRole('table', { name: 'Reloads' }).textContent())
          .toMatch(/1 row found no row in owners/);
        await expect
          .poll(() =>
            page()
              .getByText(/^2 rows/)
              .count(),
          )
          .toBeGreaterThan(0);
        // Keeping it fresh by itself: a schedule of a task's forms, its sentence and next runs as the engine reads them.
        await data.getByRole('button', { name: 'Set a schedule' }).click();
        const sd = dialog(page());
        await sd.getByLabel('Frequency').selectOption('Weekly');
        await sd.getByRole('checkbox', { name: 'Tuesday' }).check();
        await sd.getByLabel('At hour').fill('6');
        await sd.getByLabel('At minute').fill('15');
        await sd.getByLabel('Time zone').fill('Europe/Paris');
        await sd.getByRole('button', { name: 'Save the schedule' }).click();
        await toast(page(), 'success', /Reload schedule saved: Every Tuesday at 06:15 \(Europe\/Paris\)/)
          .first()
          .waitFor();
        const schedule = data.getByRole('region', { name: 'Reload schedule' });
        await expect.poll(() => schedule.textContent()).toContain('Every Tuesday at 06:15 (Europe/Paris).');
        await schedule.getByText('Next runs').click();
        expect(await schedule.getByRole('listitem').count()).toBe(5);
        expect(await accessibilityProblems(page())).toEqual([]);
        await shot(page(), 'app-data-from-a-database', true);

        // The monitoring screen lists the app's reloads beside the runs.
        await nav(page(), 'Monitoring').click();
        const reloads = page().getByRole('table', { name: 'App reloads' });
        await expect.poll(() => reloads.textContent()).toMatch(/Stock.*by hand.*2.*completed/);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);
