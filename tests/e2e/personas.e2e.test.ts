/// <reference lib="dom" />
// As a viewer, as an editor, as a manager, as a hub user: each signs in to Chromium and, on every
// screen their menu offers (and the project, report, filter and task pages under it), every enabled
// control is tried as a person would: clicked, its dialog filled with what it requires and
// submitted, its question answered yes. A control the server then refuses (403) is one the screen
// should not have offered: the count must be 0. What was allowed must work (no 5xx), and the
// writes each persona is there to make are among those that went through. A screenshot of each
// screen per persona is saved under tests/artifacts/personas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubRootId } from '../support/hub-root.js';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, launchChromium } from './browser.js';
import { openApp, type E2E, WIDE } from './harness.js';
import { defaults } from '../support/test-server.js';
import { clickEveryControl, outcome, requestWatch, settle, type Tried } from './control-walk.js';

const SHOTS = join(ARTIFACTS, 'personas');
const OWNER = { firstName: 'Olga', lastName: 'Owner', email: 'olga@example.com', password: 'olga-password-1' };
let e: E2E;
let projectId = '';
let reportId = '';
let filterId = '';
let taskId = '';
let appId = '';

type Persona = 'viewer' | 'editor' | 'manager' | 'hub user';
const CONTENT_VIEW = { viewProject: true, viewTask: true, viewTaskStatus: true, viewCondition: true };
const HUB = { previewPublishedReport: true, downloadPublishedReport: true, subscribePublishedReport: true };
/** Each persona's roles; the three project personas are members of the project with the preset of their name. */
const ROLES: Record<Persona, Record<string, boolean>> = {
  viewer: { ...CONTENT_VIEW, ...HUB },
  editor: { ...CONTENT_VIEW, ...HUB, updateProject: true, createTask: true, editTask: true, runTask: true },
  manager: {
    ...CONTENT_VIEW,
    ...HUB,
    updateProject: true,
    createTask: true,
    editTask: true,
    runTask: true,
    deleteTask: true,
    createCondition: true,
    editCondition: true,
    deleteCondition: true,
    // Sharing is choosing people: a manager sees users and groups.
    viewUser: true,
    viewGroup: true,
  },
  'hub user': HUB,
};
/** The member presets of the permissions dialog, as flags. */
const PRESET: Record<Exclude<Persona, 'hub user'>, (flag: string) => boolean> = {
  viewer: (f) => f.startsWith('view') || f === 'subscribeReport',
  editor: (f) => /^(view|create|edit|run|subscribe)/.test(f),
  manager: () => true,
};
/** Operations that change something each persona is there to do: each must have gone through. */
const EXPECTED_WRITES: Record<Persona, string[]> = {
  viewer: ['v1.subscriptions.create'],
  'hub user': ['v1.subscriptions.create', 'app.auth.updateProfile'],
  editor: ['v2.reports.create', 'v2.filters.create', 'v2.requests.run'],
  manager: ['v2.reports.create', 'app.reports.delete', 'v2.projects.setPermissions'],
};
const PEOPLE = {} as Record<Persona, { email: string; password: string }>;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  e = await openApp(OWNER, WIDE, { demo: true });
  const { orgId } = await defaults(e.s);
  const { PERMISSION_FLAGS } = await import('../../engine/model/members.entity.js');
  projectId = (await e.s.ok('GET', '/api/v1/projects', undefined, { get_all: true }))[0].id;
  const reports = await e.s.ok('GET', '/api/v1/reports', undefined, { project_id: projectId, get_all: true });
  reportId = reports.find((r: { name: string }) => r.name === 'Regional sales review').id;
  filterId = (await e.s.ok('POST', '/api/v2/filters', { name: 'West only', projectID: projectId })).id;
  taskId = (await e.s.ok('POST', '/api/v2/tasks', { name: 'Regional pack', projectID: projectId })).id;
  appId = (await e.s.ok('GET', '/api/v1/analytics-apps', undefined, { get_all: true }))[0].id;
  await e.s.ok('PUT', `/api/v2/tasks/${taskId}/reports`, {
    reportID: reportId,
    format: 'Html',
    emailEmbedment: false,
    emailAttachment: true,
    hub: { folderID: await hubRootId(e.s), hubMaxFileOccurrences: 5 },
  });
  // One published file for the hub's people to preview and subscribe to.
  const run = await e.s.ok('POST', `/api/v2/requests/${taskId}/run`);
  const { waitForRequest } = await import('../support/requests.js');
  await waitForRequest(e.s, run.id);
  await e.s.ok('PUT', `/api/v2/projects/${projectId}/permissions-mode`, undefined, { value: 'true' });
  for (const persona of Object.keys(ROLES) as Persona[]) {
    const role = await e.s.ok('POST', '/api/v1/roles', {
      name: `As a ${persona}`,
      permissions: ROLES[persona],
      isActive: true,
      allProjects: true,
    });
    const person = { email: `${persona.replace(' ', '-')}@example.com`, password: `${persona}-password-1` };
    const user = await e.s.ok('POST', '/api/v1/users', {
      firstName: persona[0].toUpperCase() + persona.slice(1),
      lastName: 'Persona',
      ...person,
      isActive: true,
      roles: [{ id: role.id }],
      organizations: [{ id: orgId }],
    });
    PEOPLE[persona] = person;
    // Each sees the task's published file in the hub, as its recipient.
    await e.s.ok('POST', `/api/v1/tasks/${taskId}/recipients`, [
      { id: user.id, type: 'user', sendEmail: false, seeInHub: true },
    ]);
    if (persona === 'hub user') continue;
    await e.s.ok('PUT', `/api/v2/projects/${projectId}/permissions`, {
      members: [{ id: user.id, type: 'user' }],
      permissions: Object.fromEntries(PERMISSION_FLAGS.map((f) => [f, PRESET[persona](f)])),
    });
  }
}, 180_000);
afterAll(async () => {
  await e?.close();
});

/** The places a persona walks: the screens of their menu, then the pages under a project, deepest first. */
async function placesOf(page: Page): Promise<{ name: string; hash: string }[]> {
  const menu = await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => ({ name: a.textContent!.trim(), hash: a.getAttribute('href')! })));
  const deep = menu.some((m) => m.hash === '#/projects')
    ? [
        { name: 'Report designer', hash: `#/projects/${projectId}/reports/${reportId}` },
        { name: 'Filter', hash: `#/projects/${projectId}/filters/${filterId}` },
        { name: 'Project', hash: `#/projects/${projectId}` },
      ]
    : [];
  const task = menu.some((m) => m.hash === '#/tasks') ? [{ name: 'Task', hash: `#/tasks/${taskId}` }] : [];
  // The app every project of the demo reads: changing it is offered only to whom may change it.
  const app = menu.some((m) => m.hash === '#/apps') ? [{ name: 'Analytics app', hash: `#/apps/${appId}` }] : [];
  // The list of projects last: a manager may delete the project itself.
  const lists = menu.filter((m) => m.hash !== '#/projects');
  // One's own account is everyone's: reached from one's name, outside the menu.
  const profile = { name: 'Your account', hash: '#/profile' };
  return [profile, ...app, ...task, ...deep, ...lists, ...menu.filter((m) => m.hash === '#/projects')];
}

describe('as each persona, every enabled control is one the server allows', () => {
  for (const persona of (process.env.PERSONAS?.split(',') ?? [
    'viewer',
    'hub user',
    'editor',
    'manager',
  ]) as Persona[]) {
    it(`as a ${persona}`, async () => {
      const browser = await launchChromium();
      try {
        const context = await browser.newContext({ viewport: WIDE, timezoneId: 'UTC', locale: 'en-US' });
        const page = await context.newPage();
        const watch = requestWatch(page);
        await page.goto(e.s.url + '/');
        await page.getByLabel('E-mail').fill(PEOPLE[persona].email);
        await page.getByLabel('Password').fill(PEOPLE[persona].password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('navigation', { name: 'Main' }).waitFor();
        const tried: Tried[] = [];
        for (const place of await placesOf(page)) {
          const from = watch.answers.length;
          await page.goto(`${e.s.url}/${place.hash}`);
          await settle(page, watch);
          // Opening a screen fires no call it knows will be refused.
          tried.push(outcome(place.name, '(opening it)', watch.answers.slice(from)));
          await page.screenshot({
            path: join(
              SHOTS,
              `${persona.replace(' ', '-')}-${place.hash.split('/')[1]}${place.hash.split('/').length > 2 ? '-' + place.name.replace(/\W+/g, '-') : ''}.png`,
            ),
          });
          tried.push(...(await clickEveryControl(page, watch, `${e.s.url}/${place.hash}`, place.name)));
        }
        const slowest = [...tried].sort((a, b) => (b.ms ?? 0) - (a.ms ?? 0)).slice(0, 8);
        console.log(
          `${persona}: ${tried.length} tried; slowest`,
          slowest.map((t) => `${t.place} › ${t.control} ${t.ms} ms`),
        );
        const refused = tried.flatMap((t) => t.refused.map((r) => `${t.place} › ${t.control}: ${r}`));
        expect(refused, `enabled controls the server refused ${persona}`).toEqual([]);
        const broken = tried.flatMap((t) => t.failed.map((r) => `${t.place} › ${t.control}: ${r}`));
        expect(broken, 'allowed actions that failed').toEqual([]);
        const written = tried.flatMap((t) => t.written);
        for (const want of EXPECTED_WRITES[persona])
          expect(
            written,
            `${persona} could not ${want}; tried ${tried.map((t) => `${t.place} › ${t.control} [${t.written.join(' ')}]`).join('; ')}`,
          ).toContain(want);
        expect(tried.length, `${persona} tried no control`).toBeGreaterThan(3);
      } finally {
        await browser.close();
      }
    }, 600_000);
  }
});
