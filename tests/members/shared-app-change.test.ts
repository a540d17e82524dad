// Who may change an analytics app every project connected to it reads: a person whose roles change
// projects, unless a project in permissions mode that they did not create uses the app (its changes
// are its creator's or a tenant administrator's). The app page asks `app.analytics.access` and the
// dispatcher keeps the same rule for every operation that writes to an app, refusing in words that
// name the app and the project.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { covers } from '../support/covers.js';
import { signedInUserWith, startTestServer, type TestServer } from '../support/test-server.js';

let s: TestServer;
let appId: string;
let projectId: string;
let projectName: string;

beforeAll(async () => {
  s = await startTestServer({ demo: true });
  await s.engine.demoReady;
  appId = (await s.ok('GET', '/api/v1/analytics-apps', undefined, { get_all: true }))[0].id;
  const [project] = await s.ok('GET', '/api/v1/projects', undefined, { get_all: true });
  projectId = project.id;
  projectName = project.name;
});
afterAll(() => s.stop());

const variable = (name: string) => ({ name, definition: 'Sum(Sales)' });
const APP_REFUSAL = 'Your roles do not let you change analytics apps (changing one needs the right to change projects)';

describe(covers('changing a shared analytics app', 'app.analytics.access', 'app.analytics.saveVariable'), () => {
  it('tells a viewer they may read the app, not change it, and refuses the change in words naming apps', async () => {
    const viewer = await signedInUserWith(s, { viewProject: true }, 'viewer');
    const access = await s.call('GET', `/api/app/analytics/${appId}/access`, { token: viewer.token });
    expect(access.body.data).toEqual({ mayChange: false, why: APP_REFUSAL });
    const refused = await s.call('POST', `/api/app/analytics/${appId}/variables`, {
      token: viewer.token,
      body: variable('vViewerTry'),
    });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(APP_REFUSAL);
    // Reading goes on: a value under no selection.
    const read = await s.call('POST', `/api/app/analytics/${appId}/evaluate`, {
      token: viewer.token,
      body: { expression: 'Count(Region)' },
    });
    expect(read.status).toBe(200);
  });

  it('lets an editor change the app until a project in permissions mode they did not make uses it', async () => {
    const editor = await signedInUserWith(s, { viewProject: true, updateProject: true }, 'editor');
    expect((await s.call('GET', `/api/app/analytics/${appId}/access`, { token: editor.token })).body.data).toEqual({
      mayChange: true,
      why: null,
    });
    const made = await s.call('POST', `/api/app/analytics/${appId}/variables`, {
      token: editor.token,
      body: variable('vEditorOpen'),
    });
    expect(made.status).toBe(200);

    await s.ok('PUT', `/api/v2/projects/${projectId}/permissions-mode`, undefined, { value: 'true' });
    try {
      const why = `This analytics app is used by the project “${projectName}”, whose member permissions leave changes to its creator or a tenant administrator`;
      expect((await s.call('GET', `/api/app/analytics/${appId}/access`, { token: editor.token })).body.data).toEqual({
        mayChange: false,
        why,
      });
      const refused = await s.call('POST', `/api/app/analytics/${appId}/variables`, {
        token: editor.token,
        body: variable('vEditorGuarded'),
      });
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe(why);
      const removal = await s.call('DELETE', `/api/app/analytics/${appId}/variables/${made.body.data.id}`, {
        token: editor.token,
      });
      expect(removal.status).toBe(403);
      const meta = await s.ok('GET', `/api/app/analytics/${appId}`);
      expect(meta.variables.map((v: { name: string }) => v.name)).toContain('vEditorOpen');
      expect(meta.variables.map((v: { name: string }) => v.name)).not.toContain('vEditorGuarded');
      // The owner, a tenant administrator, still may.
      expect((await s.ok('GET', `/api/app/analytics/${appId}/access`)).mayChange).toBe(true);
      await s.ok('POST', `/api/app/analytics/${appId}/variables`, variable('vOwnerGuarded'));
    } finally {
      await s.ok('PUT', `/api/v2/projects/${projectId}/permissions-mode`, undefined, { value: 'false' });
    }
    // The mode off, roles decide again.
    expect(
      (await s.call('GET', `/api/app/analytics/${appId}/access`, { token: editor.token })).body.data.mayChange,
    ).toBe(true);
  });
});
