// What every end-to-end file needs: a served Broadsheet, a Chromium page on it that records every
// console error (a test fails on one), signing in, the main navigation, an accessibility check with
// axe-core, and screenshots at the two sizes a designer works at.
import { expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { ARTIFACTS, RENDERER_DIR, launchChromium } from './browser.js';

export const WIDE = { width: 1440, height: 900 };
export const NARROW = { width: 1024, height: 700 };
export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

export interface E2E {
  s: TestServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors seen so far (a CSP refusal is one). */
  consoleErrors: string[];
  /** Requests the server refused with a 4xx (a wrong password, a delete in use): Chromium logs them as errors, but they are answers. */
  refusals: string[];
  close(): Promise<void>;
}

/** Starts a server (set up for `owner` unless null), a browser and a page watched for console errors. */
export async function openApp(
  owner: Person | null,
  viewport = WIDE,
  opts: {
    demo?: boolean;
    browser?: Parameters<typeof launchChromium>[0];
    cloudEndpoints?: NonNullable<Parameters<typeof startTestServer>[0]>['cloudEndpoints'];
    /** Deliveries' retry timing: within a run, and after it. */
    storageRetry?: NonNullable<Parameters<typeof startTestServer>[0]>['storageRetry'];
    deliveries?: NonNullable<Parameters<typeof startTestServer>[0]>['deliveries'];
  } = {},
): Promise<E2E> {
  const s = await startTestServer({
    rendererDir: RENDERER_DIR,
    demo: opts.demo,
    cloudEndpoints: opts.cloudEndpoints,
    storageRetry: opts.storageRetry,
    deliveries: opts.deliveries,
  });
  if (owner) await s.ok('POST', '/api/app/setup', owner);
  const browser = await launchChromium(opts.browser);
  const context = await browser.newContext({ viewport, acceptDownloads: true, timezoneId: 'UTC', locale: 'en-US' });
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  const refusals: string[] = [];
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(m.text()))
      refusals.push(`${m.location().url}: ${m.text()}`);
    else consoleErrors.push(`${m.text()} (at ${m.location().url}:${m.location().lineNumber})`);
  });
  page.on('pageerror', (e) => consoleErrors.push(`page error: ${e.message}`));
  return {
    s,
    browser,
    context,
    page,
    consoleErrors,
    refusals,
    async close() {
      await browser.close();
      await s.stop();
    },
  };
}

export async function signIn(e: E2E, who: Person) {
  await e.page.goto(e.s.url + '/');
  await e.page.getByLabel('E-mail').fill(who.email);
  await e.page.getByLabel('Password').fill(who.password);
  await e.page.getByRole('button', { name: 'Sign in' }).click();
  await e.page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** Signs out and waits for the sign-in form: the session ends when the server has answered, not at the click. */
export async function signOut(e: Pick<E2E, 'page'>) {
  await e.page.getByRole('button', { name: 'Sign out' }).click();
  await e.page.getByRole('button', { name: 'Sign in' }).waitFor();
}

export const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
export const dialog = (page: Page) => page.getByRole('dialog');
/** Waits for a dialog to open with the keyboard's focus inside it, as a person sees it ready to type into. */
export async function dialogReady(page: Page): Promise<void> {
  await dialog(page).waitFor();
  await page.waitForFunction(() => !!document.activeElement?.closest('[role=dialog]'));
}
/** An in-app question (toasts are alert dialogs too, in react-aria: told apart by class). */
export const alertDialog = (page: Page) => page.locator('.dialog[role=alertdialog]');
/** A toast of a tone ('success' or 'failure'): the one saying `text`, or else the latest. */
export const toast = (page: Page, tone: 'success' | 'failure', text?: string | RegExp) =>
  text === undefined ? page.locator(`.toast.${tone}`).last() : page.locator(`.toast.${tone}`).filter({ hasText: text });

const AXE = readFileSync(join(__dirname, '..', '..', 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** axe-core's serious and critical findings on the page as it is now. */
export async function accessibilityProblems(page: Page): Promise<AxeFinding[]> {
  // Evaluated through the DevTools protocol, not a <script> tag the page's CSP would (rightly) refuse.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const { axe, document } = globalThis as unknown as {
      document: unknown;
      axe: {
        run(
          ctx: unknown,
          o: object,
        ): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
      };
    };
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
      }));
  });
}

export const shot = (page: Page, name: string, fullPage = false) =>
  page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage });

/** Fails the test that caused a console error (called after each test), then starts counting afresh. */
export function noConsoleErrorsSince(e: E2E | undefined) {
  const seen = e?.consoleErrors.splice(0) ?? [];
  if (seen.length) throw new Error(`Console errors during this test:\n${seen.join('\n')}`);
}

/** Saves the task designer's draft and waits until nothing is left unsaved. */
export async function saveTask(page: Page) {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await toast(page, 'success', 'Saved the task.').first().waitFor();
  await expect.poll(() => page.locator('.badge.unsaved').count()).toBe(0);
}

/** Creates a task in a project from the Tasks screen, adds a report to it in a format through its dialog, and saves. */
export async function newTaskWithReport(
  page: Page,
  task: { name: string; project: string; report: string; format: string },
) {
  const panel = (title: string) =>
    page.locator('.panel').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
  await nav(page, 'Tasks').click();
  await page.getByRole('button', { name: 'New task' }).click();
  await dialog(page).getByRole('textbox', { name: 'Name', exact: true }).fill(task.name);
  await dialog(page).getByLabel('Project').selectOption({ label: task.project });
  await dialog(page).getByRole('button', { name: 'Create' }).click();
  await page.getByRole('heading', { name: task.name, level: 1 }).waitFor();
  const reports = panel('Reports');
  await reports.getByRole('button', { name: 'Add report' }).click();
  await dialog(page).getByRole('combobox', { name: 'Report', exact: true }).selectOption({ label: task.report });
  await dialog(page).getByLabel('Format').selectOption(task.format);
  await dialog(page).getByRole('button', { name: 'Add report' }).click();
  await expect
    .poll(() => reports.locator('.cards li').first().textContent())
    .toContain(task.report.replace(/ \(.*$/, ''));
  await saveTask(page);
}
