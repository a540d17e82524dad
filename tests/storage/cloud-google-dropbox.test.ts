// Google Drive and Dropbox storage against fakes of their APIs on loopback (neither offers an
// emulator; each fake checks requests as the provider's reference describes them): the app
// registrations (secrets never answered), connecting an account with PKCE through the browser and
// through the desktop's loopback address, a task run delivering one file per iteration value in
// subfolders named by set A's `googledriveVariable` / `dropboxVariable`, a file delivered again kept
// as the provider versions it, an expired access token renewed, a revoked connection said with
// "reconnect", rate limits waited out, and large files resumed after a dropped connection, read back whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { startFakeGoogle, type FakeGoogle } from '../support/fake-google.js';
import { startFakeDropbox, type FakeDropbox } from '../support/fake-dropbox.js';
import { connectThroughBrowser } from '../support/cloud-connect.js';
import { waitForRequest } from '../support/requests.js';
import { demoSalesByRegion } from '../support/demo-figures.js';
import { demoRegionalReport } from '../support/demo-region.js';
import { covers } from '../support/covers.js';
import { cloudDrive } from '../../engine/features/storage/cloud/providers.js';
import { StorageService } from '../../engine/model/storage.entity.js';

let s: TestServer;
let gg: FakeGoogle;
let dbx: FakeDropbox;
let dir: string;
let report: { id: string; projectId: string; connectionId: string };
const en = (n: number) => Math.round(n).toLocaleString('en-US');

beforeAll(async () => {
  [gg, dbx] = await Promise.all([startFakeGoogle(), startFakeDropbox()]);
  dir = await mkdtemp(join(tmpdir(), 'bs-cloud2-'));
  s = await startTestServer({
    demo: true,
    cloudEndpoints: {
      googleAccounts: gg.base,
      googleOAuth: gg.base,
      googleApis: gg.base,
      dropboxWeb: dbx.base,
      dropboxApi: dbx.base,
      dropboxContent: dbx.base,
    },
  });
  report = await demoRegionalReport(s);
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await Promise.all([gg?.close(), dbx?.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

const row = (id: string) => s.engine.services.db.getRepository(StorageService).findOneByOrFail({ id });
const listed = async (id: string) =>
  (await s.ok('GET', '/api/v1/storage-services', undefined, { get_all: true })).find(
    (x: { id: string }) => x.id === id,
  );

/** A task delivering the demo's regional report as HTML to `serviceId` under `by-region`, one subfolder per region. */
async function regionalTask(name: string, serviceId: string, variable: Record<string, string>) {
  const task = await s.ok('POST', '/api/v2/tasks', { name, projectID: report.projectId });
  await s.ok('POST', `/api/v1/tasks/${task.id}/reports`, {
    reportId: report.id,
    format: 'Html',
    emailAttachment: false,
    ...variable,
    reportStorageServices: [{ fileStorageServiceId: serviceId, path: 'by-region', order: 0 }],
  });
  return task.id as string;
}

const run = async (taskId: string) => {
  const done = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${taskId}/run`)).id);
  expect(done.status, done.message).toBe('completed');
  return done as { files: { name: string }[] };
};

describe(
  covers(
    'Google Drive and Dropbox storage',
    'app.settings.setCloudApps',
    'app.settings.getCloudApps',
    'app.storageServices.connect',
    'app.storageServices.finishConnect',
    'app.storageServices.test',
  ),
  () => {
    it('keeps the Google and Dropbox registrations with secrets sealed, and refuses a Google client without its secret', async () => {
      const noSecret = await s.call('PUT', '/api/app/settings/cloud-apps', {
        body: { google: { clientId: gg.clientId } },
      });
      expect(noSecret.status).toBe(400);
      expect(noSecret.body.errorDetails?.[0].field).toBe('body.google.clientSecret');
      const badKey = await s.call('PUT', '/api/app/settings/cloud-apps', {
        body: { dropbox: { clientId: 'not a key!' } },
      });
      expect(badKey.body.errorDetails?.[0].field).toBe('body.dropbox.clientId');
      const empty = await s.call('PUT', '/api/app/settings/cloud-apps', { body: {} });
      expect(empty.status).toBe(400);
      await s.ok('PUT', '/api/app/settings/cloud-apps', {
        google: { clientId: gg.clientId, clientSecret: gg.clientSecret },
        dropbox: { clientId: dbx.clientId },
      });
      const apps = await s.ok('GET', '/api/app/settings/cloud-apps');
      expect(apps).toEqual({
        microsoft: null,
        google: { clientId: gg.clientId, hasSecret: true },
        dropbox: { clientId: dbx.clientId, hasSecret: false },
      });
      expect(JSON.stringify(apps)).not.toContain(gg.clientSecret);
    });

    it('connects Google Drive, tests it, delivers a file per region into subfolders, and keeps a second delivery as a revision', async () => {
      const svc = await s.ok('POST', '/api/v1/storage-services', {
        name: 'Gita’s Drive',
        type: 'GoogleDrive',
        ftpTestDirectoryPath: '/Reports/Weekly',
      });
      expect(svc).toMatchObject({ type: 'GoogleDrive', connected: false });
      const { authorizationUrl, landed } = await connectThroughBrowser(s, svc.id);
      expect(authorizationUrl.startsWith(`${gg.base}/o/oauth2/v2/auth?`)).toBe(true);
      expect(landed).toMatch(new RegExp(`/#/storage/connected/${svc.id}$`));
      expect(await listed(svc.id)).toMatchObject({ connected: true, account: 'gita@example.org' });
      const tested = await s.ok('POST', `/api/v1/storage-services/${svc.id}/test`);
      expect(tested.message).toBe(
        'Wrote and removed a test file in /Reports/Weekly (Google Drive of gita@example.org)',
      );
      expect(gg.paths()).toEqual([]);

      const taskId = await regionalTask('Regions to Drive', svc.id, { googledriveVariable: '$(vRegionName)' });
      gg.expireAccessTokens();
      const done = await run(taskId);
      expect(gg.grants.filter((g) => g === 'refresh_token')).toHaveLength(1);
      const sales = await demoSalesByRegion(s);
      for (const region of sales.keys()) {
        const made = done.files.find((f) => f.name.includes(region))!;
        const path = `Reports/Weekly/by-region/${region}/${made.name}`;
        expect(gg.read(path)?.toString(), `${path} among ${gg.paths().join(', ')}`).toContain(en(sales.get(region)!));
      }
      // Google answers no new refresh token: the one given at connection keeps working.
      gg.expireAccessTokens();
      const again = await run(taskId);
      expect(gg.grants.filter((g) => g === 'refresh_token')).toHaveLength(2);
      const first = again.files[0].name;
      const region = [...sales.keys()].find((r) => first.includes(r))!;
      expect(gg.revisions(`Reports/Weekly/by-region/${region}/${first}`)).toBe(2);
      // One folder per name: delivering again made no second "by-region".
      expect(gg.paths().filter((p) => p.endsWith(first))).toHaveLength(1);
    });

    it('uploads a large file to Google Drive through a resumable session: a rate limit waited out, a dropped connection resumed, an expired session started again', async () => {
      const svc = await s.ok('POST', '/api/v1/storage-services', { name: 'Drive big files', type: 'GoogleDrive' });
      await connectThroughBrowser(s, svc.id);
      const local = join(dir, 'large.pdf');
      const bytes = randomBytes(9 * 1024 * 1024 + 4321);
      await writeFile(local, bytes);
      const log: string[] = [];
      const chunkPuts = () => gg.requests.filter((r) => r.startsWith('PUT /upload/session/')).length;
      const before = chunkPuts();
      gg.rateLimitNext();
      gg.dropChunk(2);
      const drive = await cloudDrive(s.engine.services, await row(svc.id), {
        log: (l) => void log.push(l),
        firstPauseMs: 1,
      });
      await drive.put(local, 'Quarter/large.pdf');
      expect(Buffer.compare(gg.read('Quarter/large.pdf')!, bytes)).toBe(0);
      expect(log.some((l) => /the service answered 429; trying again/.test(l))).toBe(true);
      expect(log.some((l) => /the connection dropped at byte \d+; going on from byte \d+/.test(l))).toBe(true);
      // Went on from where the session stood: at most one chunk more than the file needs.
      expect(chunkPuts() - before).toBeLessThanOrEqual(Math.ceil(bytes.length / (4 * 1024 * 1024)) + 2);

      // A session that expires mid-upload is started again, and the file is whole.
      const other = randomBytes(5 * 1024 * 1024);
      await writeFile(local, other);
      gg.expireOnChunk(2);
      const expiring = await cloudDrive(s.engine.services, await row(svc.id), {
        log: (l) => void log.push(l),
        firstPauseMs: 1,
      });
      await expiring.put(local, 'Quarter/large.pdf');
      expect(Buffer.compare(gg.read('Quarter/large.pdf')!, other)).toBe(0);
      expect(log).toContain('Uploading large.pdf: the upload session expired; starting it again');
      // The second upload of the same name is a new revision of the one file.
      expect(gg.revisions('Quarter/large.pdf')).toBe(2);
    });

    it('connects Dropbox through the desktop’s loopback address, and delivers a file per region', async () => {
      const svc = await s.ok('POST', '/api/v1/storage-services', {
        name: 'Team Dropbox',
        type: 'Dropbox',
        ftpTestDirectoryPath: '/Team reports',
      });
      const bad = await s.call('POST', `/api/app/storage-services/${svc.id}/connect`, {
        body: { redirectUri: 'https://evil.example/callback' },
      });
      expect(bad.body.errorDetails?.[0].field).toBe('body.redirectUri');
      // The desktop: a loopback listener of its own, the system browser, then the callback handed to the engine.
      const loopback = 'http://127.0.0.1:50123/callback';
      const { authorizationUrl } = await s.ok('POST', `/api/app/storage-services/${svc.id}/connect`, {
        redirectUri: loopback,
      });
      expect(new URL(authorizationUrl).searchParams.get('redirect_uri')).toBe(loopback);
      const atDropbox = await fetch(authorizationUrl, { redirect: 'manual' });
      const callbackUrl = atDropbox.headers.get('location')!;
      expect(callbackUrl.startsWith(`${loopback}?code=`)).toBe(true);
      const declined = await s.call('POST', '/api/app/storage-services/connect/finish', {
        body: { callbackUrl: `${loopback}?error=access_denied&state=x` },
      });
      expect(declined.status).toBe(400);
      expect(declined.body.error).toContain('access_denied');
      expect(await s.ok('POST', '/api/app/storage-services/connect/finish', { callbackUrl })).toEqual({ id: svc.id });
      // The state is taken once: the same return again connects nothing.
      const replay = await s.call('POST', '/api/app/storage-services/connect/finish', { body: { callbackUrl } });
      expect(replay.status).toBe(400);
      expect(replay.body.error).toContain('connect again');
      expect(await listed(svc.id)).toMatchObject({ connected: true, account: 'dara@example.net' });
      expect((await s.ok('POST', `/api/v1/storage-services/${svc.id}/test`)).message).toBe(
        'Wrote and removed a test file in /Team reports (Dropbox of dara@example.net)',
      );

      const taskId = await regionalTask('Regions to Dropbox', svc.id, { dropboxVariable: '$(vRegionName)' });
      dbx.expireAccessTokens();
      const done = await run(taskId);
      expect(dbx.grants).toContain('refresh_token');
      const sales = await demoSalesByRegion(s);
      for (const region of sales.keys()) {
        const made = done.files.find((f) => f.name.includes(region))!;
        const path = `/Team reports/by-region/${region}/${made.name}`;
        expect(dbx.files.get(path)?.toString(), `${path} among ${[...dbx.files.keys()].join(', ')}`).toContain(
          en(sales.get(region)!),
        );
      }
    });

    it('uploads a large file to Dropbox through a session, waits out a 429, and goes on from the offset Dropbox has after a lost answer', async () => {
      const svc = await s.ok('POST', '/api/v1/storage-services', { name: 'Dropbox big files', type: 'Dropbox' });
      await connectThroughBrowser(s, svc.id);
      const local = join(dir, 'large.xlsx');
      const bytes = randomBytes(13 * 1024 * 1024 + 777);
      await writeFile(local, bytes);
      const log: string[] = [];
      dbx.throttleNext(0);
      dbx.dropChunk(2);
      const drive = await cloudDrive(s.engine.services, await row(svc.id), {
        log: (l) => void log.push(l),
        firstPauseMs: 1,
      });
      // A name beyond ASCII travels escaped in the Dropbox-API-Arg header.
      await drive.put(local, 'Zürich/Übersicht.xlsx');
      expect(Buffer.compare(dbx.files.get('/Zürich/Übersicht.xlsx')!, bytes)).toBe(0);
      expect(log.some((l) => /the service answered 429; trying again in 0 s/.test(l))).toBe(true);
      expect(log.some((l) => /Dropbox already had the bytes up to \d+; going on from there/.test(l))).toBe(true);
    });

    it('says a revoked Google or Dropbox connection in words, with "reconnect"', async () => {
      for (const [type, fake] of [
        ['GoogleDrive', gg],
        ['Dropbox', dbx],
      ] as const) {
        const svc = await s.ok('POST', '/api/v1/storage-services', { name: `Revoked ${type}`, type });
        await connectThroughBrowser(s, svc.id);
        fake.expireAccessTokens();
        fake.revokeRefreshTokens();
        const revoked = await s.call('POST', `/api/v1/storage-services/${svc.id}/test`);
        expect(revoked.status).toBe(400);
        expect(revoked.body.errorDetails?.[0].field).toBe('account');
        expect(revoked.body.error).toContain(`reconnect “Revoked ${type}”`);
        expect((await listed(svc.id)).connected).toBe(false);
      }
    });
  },
);
