// The hub over HTTP with the demo app: a task report publishes one PDF per region to a folder,
// runs add occurrences and retention keeps exactly maxFileOccurrences (rows and bytes); only
// recipients with seeInHub see the files (a stranger gets 404, even on download), group changes
// apply at once; stars, recent, the zipped iteration set, dedicated files for the users an
// iteration's variable names; folders and the hub configuration.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { defaults, startTestServer, signedInUserWith, type TestServer } from '../support/test-server.js';
import { waitForRequest } from '../support/requests.js';
import { pdfPages, zipEntries } from '../support/read-back.js';
import { covers } from '../support/covers.js';
import { demoSalesByRegion } from '../support/demo-figures.js';
import { sql } from '../../engine/core/sql.js';

let s: TestServer;
let report: { id: string; projectId: string; connectionId: string };
let appRowId: string;
let regions: string[];
const HUB_READER = { previewPublishedReport: true, downloadPublishedReport: true };

beforeAll(async () => {
  s = await startTestServer({ demo: true });
  [report] = await s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
  appRowId = (await s.ok('GET', '/api/v1/connections', undefined, { projectId: report.projectId })).find(
    (c: { id: string }) => c.id === report.connectionId,
  )?.analyticsAppId;
  regions = [...(await s.engine.services.analytics.iterationValues('sales-demo', ['Region'], {}))]
    .map((r) => r[0])
    .sort();
});
afterAll(() => s.stop());

async function publishingTask(name: string, hub: Record<string, unknown>, recipients: unknown[]) {
  const task = await s.ok('POST', '/api/v2/tasks', { name, projectID: report.projectId });
  await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
    reportID: report.id,
    format: 'Pdf',
    emailAttachment: false,
    emailEmbedment: false,
    hub,
  });
  if (recipients.length) await s.ok('POST', `/api/v1/tasks/${task.id}/recipients`, recipients);
  return task.id as string;
}

async function run(taskId: string) {
  const { id } = await s.ok('POST', `/api/v2/requests/${taskId}/run`);
  const done = await waitForRequest(s, id);
  expect(done.status, JSON.stringify(done)).toBe('completed');
  return id as string;
}

const as = (token: string) => ({
  list: (path: string, query: Record<string, string | number | boolean> = {}) =>
    s.call('GET', path, { token, query: { get_all: true, ...query } }),
  call: (method: string, path: string, body?: unknown) => s.call(method, path, { token, body }),
  file: (path: string, query: Record<string, string | number | boolean>) => s.file('GET', path, { token, query }),
});

describe(
  covers(
    'the hub',
    'v1.files.list',
    'v1.files.listOccurrences',
    'v1.files.listIterationFiles',
    'v1.files.listFavorites',
    'v1.files.listRecent',
    'v1.files.download',
    'v1.files.delete',
    'v1.hubFolders.create',
    'v1.hubFolders.list',
    'v1.hubFolders.update',
    'v1.hubFolders.delete',
    'v1.hub.updateConfiguration',
  ),
  () => {
    it('shows recipients their region files with exactly maxFileOccurrences kept, and nothing to anyone else (404 on download)', async () => {
      const folder = await s.ok('POST', '/api/v1/hub/folders', { name: 'Sales', parentUrl: '/', location: '/Sales' });
      expect(folder.location).toBe('/Sales');
      const reader = await signedInUserWith(s, HUB_READER, 'reader');
      const stranger = await signedInUserWith(s, { ...HUB_READER, deletePublishedReport: true }, 'stranger');
      const group = await s.ok('POST', '/api/v1/groups', {
        name: `Readers ${Date.now()}`,
        organizationId: (await defaults(s)).orgId,
      });
      await s.ok('POST', `/api/v1/groups/${group.id}/users`, [reader.userId]);
      const taskId = await publishingTask('Regions to the hub', { folderID: folder.id, hubMaxFileOccurrences: 2 }, [
        { id: group.id, type: 'group', sendEmail: false, seeInHub: true },
      ]);
      const runs = [await run(taskId), await run(taskId), await run(taskId)];

      const mine = await as(reader.token).list('/api/v1/files', { sort_by: 'Name' });
      expect(mine.status).toBe(200);
      expect(mine.body.data.map((f: any) => f.iteration[0]).sort()).toEqual(regions);
      expect(
        mine.body.data.every(
          (f: any) =>
            f.type === 'iteration' && f.isIteration && f.fullName === `/Sales/${f.name}` && f.extension === 'pdf',
        ),
      ).toBe(true);
      for (const file of mine.body.data) {
        const occurrences = await as(reader.token).list(`/api/v1/files/${file.id}/occurrences`);
        expect(occurrences.body.data).toHaveLength(2);
        // Retention removed the bytes too: two occurrence files on disk.
        expect(readdirSync(join(s.dataDir, 'files', 'hub', file.id))).toHaveLength(2);
      }
      // The latest occurrence is the third run's file, byte for byte.
      const north = mine.body.data[0];
      const got = await as(reader.token).file('/api/v1/files/download', { id: north.id });
      expect(got.status).toBe(200);
      expect(got.contentType).toBe('application/pdf');
      const sales = await demoSalesByRegion(s);
      expect(pdfPages(got.data).join('\n')).toContain(
        Math.round(sales.get(north.iteration[0])!).toLocaleString('en-US'),
      );
      const lastRun = await s.ok('GET', `/api/v1/ondemand/requests/${runs[2]}`);
      expect(lastRun.files.map((f: any) => f.name)).toContain(north.name);

      // A stranger: no files, 404 for each one (not 403), nothing starred, deleted or counted.
      expect((await as(stranger.token).list('/api/v1/files')).body.data).toEqual([]);
      expect((await as(stranger.token).list('/api/v1/files/recent')).body.data).toEqual([]);
      expect((await as(stranger.token).file('/api/v1/files/download', { id: north.id })).status).toBe(404);
      expect((await as(stranger.token).file('/api/v1/files/download', { id: north.occurrenceId })).status).toBe(404);
      expect(
        (await as(stranger.token).file('/api/v1/files/download', { id: report.id, isIteration: true })).status,
      ).toBe(404);
      expect((await as(stranger.token).list(`/api/v1/files/${north.id}/occurrences`)).status).toBe(404);
      expect((await as(stranger.token).call('PUT', `/api/v1/files/${north.id}/star`)).status).toBe(404);
      expect((await as(stranger.token).call('DELETE', '/api/v1/files', [{ id: north.id }])).status).toBe(404);
      // Joining the group shows the files at once; a recipient entry without seeInHub does not.
      await s.ok('POST', `/api/v1/groups/${group.id}/users`, [stranger.userId]);
      expect((await as(stranger.token).list('/api/v1/files')).body.data).toHaveLength(regions.length);
      await s.ok('DELETE', `/api/v1/groups/${group.id}/users`, [stranger.userId]);
      expect((await as(stranger.token).list('/api/v1/files')).body.data).toEqual([]);
    });

    it('stars, lists favourites and recent views, zips the iteration set, and deletes a file with its occurrences', async () => {
      const reader = await signedInUserWith(s, HUB_READER, 'reader');
      const root = (await s.ok('GET', '/api/v1/hub/folders', undefined, { 'name[equals]': 'Hub' }))[0];
      expect(root).toMatchObject({ isRoot: true, location: '/' });
      const taskId = await publishingTask('Starred regions', { folderID: root.id, hubMaxFileOccurrences: 0 }, [
        { id: reader.userId, type: 'user', sendEmail: false, seeInHub: true },
      ]);
      await run(taskId);
      const me = as(reader.token);
      const files = (await me.list('/api/v1/files', { sort_by: 'Name' })).body.data;
      expect(files).toHaveLength(regions.length);
      expect(files.every((f: any) => f.fullName === `/${f.name}`)).toBe(true);
      expect((await me.call('PUT', `/api/v1/files/${files[1].id}/star`)).status).toBe(200);
      const favourites = (await me.list('/api/v1/files/favorites')).body.data;
      expect(favourites.map((f: any) => [f.id, f.starred])).toEqual([[files[1].id, true]]);
      const starredFirst = (await me.list('/api/v1/files', { sort_by: 'starred', sort_direction: 'desc' })).body.data;
      expect(starredFirst[0].id).toBe(files[1].id);
      expect((await me.list('/api/v1/files/recent', { event_type: 'viewed' })).body.data).toEqual([]);
      expect((await me.list('/api/v1/files/recent', { event_type: 'added' })).body.data).toHaveLength(regions.length);
      expect((await me.file(`/api/v1/files/${files[0].id}/preview`, {})).contentType).toBe('application/pdf');
      expect((await me.list('/api/v1/files/recent', { event_type: 'viewed' })).body.data.map((f: any) => f.id)).toEqual(
        [files[0].id],
      );
      expect((await me.list('/api/v1/files/recent', { event_type: 'seen' })).status).toBe(400);
      await me.call('DELETE', `/api/v1/files/${files[1].id}/star`);
      expect((await me.list('/api/v1/files/favorites')).body.data).toEqual([]);

      const set = await me.file('/api/v1/files/download', { id: files[0].id, isIteration: true });
      expect(set.contentType).toBe('application/zip');
      const entries = await zipEntries(set.data);
      expect([...entries.keys()].sort()).toEqual(files.map((f: any) => f.name).sort());
      expect((await me.list(`/api/v1/files/reports/${report.id}/pdf`)).body.data).toHaveLength(regions.length);

      // Deleting needs deletePublishedReport; with it, the file, its occurrences and bytes go.
      expect((await me.call('DELETE', '/api/v1/files', [{ id: files[0].id }])).status).toBe(403);
      const editor = await signedInUserWith(s, { ...HUB_READER, deletePublishedReport: true }, 'editor');
      await s.ok('POST', `/api/v1/tasks/${taskId}/recipients`, [
        { id: editor.userId, type: 'user', sendEmail: false, seeInHub: true },
      ]);
      expect((await as(editor.token).call('DELETE', '/api/v1/files', [{ id: files[0].id }])).status).toBe(200);
      expect(existsSync(join(s.dataDir, 'files', 'hub', files[0].id))).toBe(false);
      expect((await me.list('/api/v1/files')).body.data).toHaveLength(regions.length - 1);
      expect((await me.file('/api/v1/files/download', { id: files[0].id })).status).toBe(404);
    });

    it('shows a dedicated file only to the users its authorized-user variable names', async () => {
      await s.ok('POST', `/api/app/analytics/${appRowId}/variables`, {
        name: 'vRegionReader',
        definition: "Min(Region) & '@regions.test'",
      });
      const owners = new Map<string, { token: string; userId: string }>();
      for (const r of regions.slice(0, 2)) {
        const u = await signedInUserWith(s, HUB_READER, `region-${r.toLowerCase()}`);
        // The user's address is what the variable evaluates to for their region.
        await sql(s.engine.services.db, 'UPDATE users SET email = ? WHERE id = ?', [
          `${r.toLowerCase()}@regions.test`,
          u.userId,
        ]);
        owners.set(r, u);
      }
      const task = await s.ok('POST', '/api/v2/tasks', { name: 'Dedicated regions', projectID: report.projectId });
      await s.ok('POST', `/api/v1/tasks/${task.id}/reports`, {
        reportId: report.id,
        format: 'Pdf',
        publishToServiceHub: true,
        hubAuthorizedUserVariable: 'vRegionReader',
      });
      const outsider = await signedInUserWith(s, HUB_READER, 'outsider');
      // A recipient with seeInHub still sees no dedicated file that does not name them.
      await s.ok('POST', `/api/v1/tasks/${task.id}/recipients`, [
        { id: outsider.userId, type: 'user', sendEmail: false, seeInHub: true },
      ]);
      const runId = await run(task.id);
      for (const [region, u] of owners) {
        const seen = (
          await as(u.token).list('/api/v1/files', { 'report.name': 'Regional sales review', is_iteration: true })
        ).body.data.filter((f: any) => f.type === 'dedicated');
        expect(seen.map((f: any) => f.iteration)).toEqual([[region]]);
        expect((await as(u.token).file('/api/v1/files/download', { id: seen[0].id })).status).toBe(200);
      }
      expect(
        (await as(outsider.token).list('/api/v1/files')).body.data.filter((f: any) => f.type === 'dedicated'),
      ).toEqual([]);
      const log = (await s.file('GET', `/api/v2/requests/${runId}/log`)).data.toString();
      expect(log).toMatch(/Hub: no active user for .*@regions\.test/);
    });

    it('keeps folders consistent: moves carry subfolders, the root stays, deleting moves files to the root', async () => {
      const a = await s.ok('POST', '/api/v1/hub/folders', { name: 'Finance', parentUrl: '/', location: '/Finance' });
      const b = await s.ok('POST', '/api/v1/hub/folders', {
        parentId: a.id,
        name: 'Monthly',
        parentUrl: '/Finance',
        location: '/Finance/Monthly',
      });
      expect(b.location).toBe('/Finance/Monthly');
      const clash = await s.call('POST', '/api/v1/hub/folders', {
        body: { parentId: a.id, name: 'Monthly', parentUrl: '/Finance', location: '/Finance/Monthly' },
      });
      expect(clash.status).toBe(409);
      expect(
        (await s.call('POST', '/api/v1/hub/folders', { body: { name: '../etc', parentUrl: '/', location: '/x' } })).body
          .errorDetails?.[0].field,
      ).toBe('body.name');
      await s.ok('PUT', `/api/v1/hub/folders/${a.id}`, { name: 'Money', parentUrl: '/', location: '/Money' });
      const listed = await s.ok('GET', '/api/v1/hub/folders', undefined, { get_all: true, exceptRoot: true });
      expect(listed.map((f: any) => f.location)).toEqual(expect.arrayContaining(['/Money', '/Money/Monthly']));
      expect(listed.some((f: any) => f.isRoot)).toBe(false);
      const except = await s.ok('GET', '/api/v1/hub/folders', undefined, { get_all: true, exceptFolderId: a.id });
      expect(except.map((f: any) => f.location)).not.toContain('/Money/Monthly');
      expect(
        (
          await s.call('PUT', `/api/v1/hub/folders/${a.id}`, {
            body: { parentId: b.id, name: 'Money', parentUrl: '/', location: '/' },
          })
        ).status,
      ).toBe(400);
      const root = (await s.ok('GET', '/api/v1/hub/folders', undefined, { get_all: true })).find((f: any) => f.isRoot);
      expect((await s.call('DELETE', '/api/v1/hub/folders', { body: [root.id] })).status).toBe(409);

      const taskId = await publishingTask('Into Monthly', { folderID: b.id, hubMaxFileOccurrences: 1 }, []);
      await run(taskId);
      const deleted = await s.ok('DELETE', '/api/v1/hub/folders', [a.id]);
      expect(deleted).toEqual({ deleted: 2, filesMovedToRoot: regions.length });
      const moved = await s.ok('GET', '/api/v1/files', undefined, {
        get_all: true,
        'report.name': 'Regional sales review',
      });
      expect(moved.filter((f: any) => f.folder === '/').length).toBeGreaterThanOrEqual(regions.length);
    });

    it('updates the hub configuration, refusing a line break in the sender name', async () => {
      const config = await s.ok('GET', '/api/v1/hub/configuration');
      const updated = await s.ok('PUT', `/api/v1/hub/configuration/${config.id}`, {
        fromEmail: 'Hub@Example.com',
        fromName: 'Reports hub',
        customEmailFooter: 'Sent by the hub',
        hideSubsciptionLink: true,
      });
      expect(updated).toMatchObject({
        fromEmail: 'hub@example.com',
        fromName: 'Reports hub',
        hideSubsciptionLink: true,
      });
      const bad = await s.call('PUT', `/api/v1/hub/configuration/${config.id}`, {
        body: { fromEmail: 'hub@example.com', fromName: 'Hub\r\nBcc: x@evil.test' },
      });
      expect(bad.body.errorDetails?.[0].field).toBe('body.fromName');
      expect((await s.ok('GET', '/api/v1/hub/configuration')).fromName).toBe('Reports hub');
    });
  },
);
