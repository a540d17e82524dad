/// <reference lib="dom" />
// Every screen, with the demo content in it, at the two sizes a designer works at (1440 × 900 and
// 1024 × 700): a screenshot of each under tests/artifacts/screens, an axe-core check that finds no
// serious or critical problem, nothing cut off sideways, and no console error.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hubRootId } from '../support/hub-root.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS } from './browser.js';
import { waitForRequest } from '../support/requests.js';
import {
  accessibilityProblems,
  dialog,
  NARROW,
  noConsoleErrorsSince,
  openApp,
  signIn,
  signOut,
  WIDE,
  type E2E,
} from './harness.js';

let e: E2E;
const OWNER = { firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com', password: 'olga-password-1' };
const SCREENS_DIR = join(ARTIFACTS, 'screens');

interface Visit {
  name: string;
  hash: () => string;
  ready: string;
  open?: string;
  settled?: () => Promise<void>;
}
let projectId = '';
let reportId = '';
let filterId = '';
let appId = '';
let taskId = '';

const VISITS: Visit[] = [
  { name: 'projects', hash: () => '#/projects', ready: 'Sales reporting (demo)' },
  { name: 'project', hash: () => `#/projects/${projectId}`, ready: 'Regional sales review' },
  {
    name: 'designer',
    hash: () => `#/projects/${projectId}/reports/${reportId}`,
    ready: 'Preview',
    settled: () => e.page.getByRole('document', { name: 'Report preview' }).locator('.report-page').waitFor(),
  },
  { name: 'filter', hash: () => `#/projects/${projectId}/filters/${filterId}`, ready: 'Steps, in order' },
  { name: 'apps', hash: () => '#/apps', ready: 'Sales demo' },
  { name: 'app', hash: () => `#/apps/${appId}`, ready: 'Fields' },
  { name: 'tasks', hash: () => '#/tasks', ready: 'Regional pack', open: 'New task' },
  { name: 'task', hash: () => `#/tasks/${taskId}`, ready: 'When it runs' },
  { name: 'conditions', hash: () => '#/conditions', ready: 'Sold something', open: 'New condition' },
  {
    name: 'monitoring',
    hash: () => '#/monitoring',
    ready: 'Runs over time',
    settled: () => e.page.locator('.runs-plot circle').first().waitFor(),
  },
  { name: 'storage', hash: () => '#/storage', ready: 'Storage services', open: 'New storage service' },
  {
    name: 'data-connections',
    hash: () => '#/data-connections',
    ready: 'Data connections',
    open: 'New data connection',
  },
  {
    name: 'hub',
    hash: () => '#/hub',
    ready: 'Folders',
    settled: () =>
      e.page
        .getByRole('button', { name: /^Star Regional sales review/ })
        .first()
        .waitFor(),
  },
  { name: 'resources', hash: () => '#/resources', ready: 'Resources' },
  { name: 'users', hash: () => '#/users', ready: 'Olga Owner', open: 'New user' },
  { name: 'groups', hash: () => '#/groups', ready: 'Groups', open: 'New group' },
  { name: 'roles', hash: () => '#/roles', ready: 'Permissions by role' },
  { name: 'organizations', hash: () => '#/organizations', ready: 'Default' },
  { name: 'user-directories', hash: () => '#/user-directories', ready: 'User directories', open: 'New user directory' },
  { name: 'identity-providers', hash: () => '#/identity-providers', ready: 'Identity providers' },
  { name: 'trusted-origins', hash: () => '#/trusted-origins', ready: 'Trusted origins' },
  { name: 'api-keys', hash: () => '#/api-keys', ready: 'API keys' },
  { name: 'settings', hash: () => '#/settings', ready: 'Mail server' },
  { name: 'settings-sign-in', hash: () => '#/settings/sign-in', ready: 'Authentication methods' },
  { name: 'settings-cloud', hash: () => '#/settings/cloud', ready: 'Cloud drives' },
  { name: 'settings-backups', hash: () => '#/settings/backups', ready: 'Backups' },
];

beforeAll(async () => {
  mkdirSync(SCREENS_DIR, { recursive: true });
  e = await openApp(OWNER, WIDE, { demo: true });
  const projects = await e.s.ok('GET', '/api/v1/projects', undefined, { get_all: true });
  projectId = projects[0].id;
  reportId = (
    await e.s.ok('GET', '/api/v1/reports', undefined, {
      project_id: projectId,
      'name[equals]': 'Regional sales review',
    })
  )[0].id;
  filterId = (await e.s.ok('POST', '/api/v2/filters', { name: 'West only', projectID: projectId })).id;
  appId = (await e.s.ok('GET', '/api/v1/analytics-apps', undefined, { get_all: true }))[0].id;
  // A task with a report, a schedule, a condition and one finished run, for the distribution screens.
  const condition = (await e.s.ok('POST', '/api/v2/conditions', { name: 'Sold something', projectID: projectId })).id;
  await e.s.ok('PUT', `/api/v2/conditions/${condition}/rules`, {
    name: 'Any sales',
    analyticsAppID: appId,
    values: [{ type: 'Variable', variable: 'vTotalSales', operator: '>', comparisonValue: '0' }],
  });
  taskId = (await e.s.ok('POST', '/api/v2/tasks', { name: 'Regional pack', projectID: projectId })).id;
  await e.s.ok('PUT', `/api/v2/tasks/${taskId}/reports`, {
    reportID: reportId,
    format: 'Html',
    emailEmbedment: false,
    emailAttachment: true,
    conditions: [{ id: condition }],
    hub: { folderID: await hubRootId(e.s), hubMaxFileOccurrences: 5 },
  });
  await e.s.ok('POST', `/api/v1/tasks/${taskId}/triggers/schedules`, {
    name: 'Monday mornings',
    frequency: 'Weekly',
    weeklyDays: 'Monday',
    atHour: 7,
    atMinut: 0,
    timeZone: 'Europe/Paris',
    startDate: new Date().toISOString(),
    endDate: new Date(Date.now() + 365 * 86400_000).toISOString(),
  });
  const run = await e.s.ok('POST', `/api/v2/requests/${taskId}/run`);
  await waitForRequest(e.s, run.id);
  await signIn(e, OWNER);
}, 120_000);
afterEach(() => noConsoleErrorsSince(e));
afterAll(async () => {
  await e?.close();
});

async function check(label: string) {
  const problems = await accessibilityProblems(e.page);
  expect(problems, `${label}: ${JSON.stringify(problems, null, 1)}`).toEqual([]);
  // Nothing wider than the window: tables scroll inside their own box instead.
  expect(
    await e.page.evaluate(() => document.scrollingElement!.scrollWidth),
    `${label} overflows sideways`,
  ).toBeLessThanOrEqual(e.page.viewportSize()!.width);
  // A row's actions sit on one line, so the rows' buttons line up (they wrapped two and one at 1024).
  const wrapped = await e.page.evaluate(
    () =>
      Array.from(document.querySelectorAll('td.actions .row-actions')).filter((r) => {
        const boxes = Array.from(r.children).map((b) => b.getBoundingClientRect());
        // A second line starts below the bottom of the first line's shortest button.
        const firstLineEnds = Math.min(...boxes.map((b) => b.bottom));
        return boxes.some((b) => b.top >= firstLineEnds - 1);
      }).length,
  );
  expect(wrapped, `${label}: rows whose actions wrap`).toBe(0);
}

describe('every screen in Chromium', () => {
  for (const size of [WIDE, NARROW]) {
    for (const v of VISITS) {
      it(`${v.name} at ${size.width} × ${size.height}`, async () => {
        await e.page.setViewportSize(size);
        await e.page.goto(`${e.s.url}/${v.hash()}`);
        await e.page.locator('main').getByText(v.ready, { exact: true }).first().waitFor();
        await v.settled?.();
        await e.page.waitForLoadState('networkidle');
        await check(v.name);
        await e.page.screenshot({ path: join(SCREENS_DIR, `${v.name}-${size.width}.png`) });
        if (v.open) {
          await e.page.getByRole('button', { name: v.open }).click();
          await dialog(e.page).waitFor();
          await check(`${v.name} dialog`);
          await e.page.screenshot({ path: join(SCREENS_DIR, `${v.name}-dialog-${size.width}.png`) });
          await e.page.keyboard.press('Escape');
          await dialog(e.page).waitFor({ state: 'detached' });
        }
      });
    }
  }

  it('sign-in and first-run screens', async () => {
    const fresh = await openApp(null, NARROW);
    try {
      await fresh.page.goto(fresh.s.url + '/');
      await fresh.page.getByRole('button', { name: 'Finish setup' }).waitFor();
      expect(await accessibilityProblems(fresh.page)).toEqual([]);
      await fresh.page.screenshot({ path: join(SCREENS_DIR, 'first-run-1024.png') });
      await signOut(e);
      expect(await accessibilityProblems(e.page)).toEqual([]);
      await e.page.screenshot({ path: join(SCREENS_DIR, 'sign-in-1024.png') });
      expect(fresh.consoleErrors).toEqual([]);
    } finally {
      await fresh.close();
    }
  });
});
