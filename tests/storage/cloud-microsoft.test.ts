// OneDrive and SharePoint storage against a fake of Microsoft's identity platform and Graph on
// loopback (no provider offers an emulator; the fake checks each request as the reference describes
// it): the administrator's app registration (its secret never answered), connecting an account
// through the browser with PKCE, a task run delivering one file per iteration value in subfolders,
// a SharePoint site's library found from its address, an expired access token renewed, a revoked
// connection said in words with "reconnect", a 429 waited out, and a large file resumed after the
// connection dropped mid-upload, read back whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { startFakeMicrosoft, type FakeMicrosoft } from '../support/fake-microsoft.js';
import { waitForRequest } from '../support/requests.js';
import { demoSalesByRegion } from '../support/demo-figures.js';
import { demoRegionalReport } from '../support/demo-region.js';
import { covers } from '../support/covers.js';
import { connectThroughBrowser } from '../support/cloud-connect.js';
import { graphDrive } from '../../engine/features/storage/cloud/microsoft.js';
import { StorageService } from '../../engine/model/storage.entity.js';

let s: TestServer;
let ms: FakeMicrosoft;
let dir: string;
let report: { id: string; projectId: string; connectionId: string };
const en = (n: number) => Math.round(n).toLocaleString('en-US');

beforeAll(async () => {
  ms = await startFakeMicrosoft();
  dir = await mkdtemp(join(tmpdir(), 'bs-cloud-'));
  s = await startTestServer({ demo: true, cloudEndpoints: { microsoftLogin: ms.login, graph: ms.graph } });
  report = await demoRegionalReport(s);
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await ms?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Connects a service through the browser, at the tenant's sign-in page. */
async function connect(id: string) {
  const { authorizationUrl, landed } = await connectThroughBrowser(s, id);
  expect(authorizationUrl.startsWith(`${ms.login}/contoso.onmicrosoft.com/oauth2/v2.0/authorize?`)).toBe(true);
  return landed;
}

describe(
  covers(
    'OneDrive and SharePoint storage',
    'app.settings.setCloudApps',
    'app.settings.getCloudApps',
    'app.storageServices.connect',
    'app.storageServices.test',
  ),
  () => {
    it('keeps the app registration with its secret sealed, and asks for it before connecting', async () => {
      const svc = await s.ok('POST', '/api/v1/storage-services', { name: 'Early', type: 'OneDrive' });
      const early = await s.call('POST', `/api/app/storage-services/${svc.id}/connect`);
      expect(early.status).toBe(400);
      expect(early.body.error).toContain('No Microsoft app registration is set up');
      const bad = await s.call('PUT', '/api/app/settings/cloud-apps', {
        body: { microsoft: { clientId: 'not-a-guid', tenant: 'contoso.onmicrosoft.com' } },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errorDetails?.[0].field).toBe('body.microsoft.clientId');
      const saved = await s.ok('PUT', '/api/app/settings/cloud-apps', {
        microsoft: { clientId: ms.clientId, tenant: 'contoso.onmicrosoft.com', clientSecret: ms.clientSecret },
      });
      expect(saved).toEqual({
        microsoft: { clientId: ms.clientId, tenant: 'contoso.onmicrosoft.com', hasSecret: true },
        google: null,
        dropbox: null,
      });
      expect(JSON.stringify(await s.ok('GET', '/api/app/settings/cloud-apps'))).not.toContain(ms.clientSecret);
    });

    it('connects an account with PKCE, tests by writing and removing a file, and delivers per iteration value', async () => {
      const svc = await s.ok('POST', '/api/v1/storage-services', {
        name: 'Olga’s OneDrive',
        type: 'OneDrive',
        ftpTestDirectoryPath: '/Reports',
      });
      expect(svc).toMatchObject({ type: 'OneDrive', connected: false, account: null });
      const notYet = await s.call('POST', `/api/v1/storage-services/${svc.id}/test`);
      expect(notYet.body.errorDetails?.[0]).toEqual({ field: 'account', message: 'connect an account first' });
      expect(await connect(svc.id)).toMatch(new RegExp(`/#/storage/connected/${svc.id}$`));
      const listed = (await s.ok('GET', '/api/v1/storage-services', undefined, { get_all: true })).find(
        (x: { id: string }) => x.id === svc.id,
      );
      expect(listed).toMatchObject({ connected: true, account: 'olga@contoso.example' });
      expect(JSON.stringify(listed)).not.toMatch(/rt-|at-[0-9a-f]{8}/);
      // The state is taken once: the same return again connects nothing.
      const tested = await s.ok('POST', `/api/v1/storage-services/${svc.id}/test`);
      expect(tested.message).toBe('Wrote and removed a test file in /Reports (OneDrive of olga@contoso.example)');
      expect(
        ms.requests.filter((r) => /^(PUT|DELETE) \/v1\.0\/me\/drive\/root:\/Reports\/\.broadsheet-test-/.test(r)),
      ).toHaveLength(2);
      expect([...ms.files.keys()].filter((k) => k.includes('.broadsheet-test-'))).toEqual([]);

      const task = await s.ok('POST', '/api/v2/tasks', { name: 'Regions to OneDrive', projectID: report.projectId });
      await s.ok('POST', `/api/v1/tasks/${task.id}/reports`, {
        reportId: report.id,
        format: 'Html',
        emailAttachment: false,
        onedriveVariable: '$(vRegionName)',
        reportStorageServices: [{ fileStorageServiceId: svc.id, path: 'by-region', order: 0 }],
      });
      // The access token has expired by the time the task runs: it is renewed with the refresh token.
      ms.expireAccessTokens();
      const done = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
      expect(done.status, done.message).toBe('completed');
      expect(ms.grants).toContain('refresh_token');
      const sales = await demoSalesByRegion(s);
      for (const region of sales.keys()) {
        const made = done.files.find((f: { name: string }) => f.name.includes(region));
        const key = `me/Reports/by-region/${region}/${made.name}`;
        expect(ms.files.get(key)?.toString(), `${key} among ${[...ms.files.keys()].join(', ')}`).toContain(
          en(sales.get(region)!),
        );
      }
    });

    it("finds a SharePoint site's library from its address, and says a revoked connection in words", async () => {
      const bad = await s.call('POST', '/api/v1/storage-services', {
        body: { name: 'Finance', type: 'SharePoint', siteUrl: 'http://contoso.sharepoint.com/sites/Finance' },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errorDetails?.[0].field).toBe('body.siteUrl');
      const svc = await s.ok('POST', '/api/v1/storage-services', {
        name: 'Finance site',
        type: 'SharePoint',
        siteUrl: 'https://contoso.sharepoint.com/sites/Finance/',
        library: 'Monthly reports',
        ftpTestDirectoryPath: '/Packs',
      });
      expect(svc.siteUrl).toBe('https://contoso.sharepoint.com/sites/Finance');
      await connect(svc.id);
      expect((await s.ok('POST', `/api/v1/storage-services/${svc.id}/test`)).message).toBe(
        'Wrote and removed a test file in /Packs (Monthly reports of https://contoso.sharepoint.com/sites/Finance)',
      );
      expect(
        ms.requests.some((r) => /^PUT \/v1\.0\/drives\/drive-reports\/root:\/Packs\/\.broadsheet-test-/.test(r)),
      ).toBe(true);
      ms.expireAccessTokens();
      ms.revokeRefreshTokens();
      const revoked = await s.call('POST', `/api/v1/storage-services/${svc.id}/test`);
      expect(revoked.status).toBe(400);
      expect(revoked.body.errorDetails?.[0].field).toBe('account');
      expect(revoked.body.error).toContain('was revoked or has expired');
      expect(revoked.body.error).toContain('reconnect “Finance site”');
      const after = (await s.ok('GET', '/api/v1/storage-services', undefined, { get_all: true })).find(
        (x: { id: string }) => x.id === svc.id,
      );
      expect(after.connected).toBe(false);
    });

    it('uploads a large file through a session, waits out a 429, and resumes after a dropped connection', async () => {
      const svc = await s.ok('POST', '/api/v1/storage-services', { name: 'Big files', type: 'OneDrive' });
      await connect(svc.id);
      const local = join(dir, 'large.pdf');
      const bytes = randomBytes(9 * 1024 * 1024 + 12345);
      await writeFile(local, bytes);
      const row = await s.engine.services.db.getRepository(StorageService).findOneByOrFail({ id: svc.id });
      const log: string[] = [];
      ms.throttleNext(0);
      ms.dropChunk(2);
      const drive = await graphDrive(s.engine.services, row, { log: (l) => void log.push(l), firstPauseMs: 1 });
      await drive.put(local, 'Quarter/large.pdf');
      const stored = ms.files.get('me/Quarter/large.pdf');
      expect(stored?.length).toBe(bytes.length);
      expect(Buffer.compare(stored!, bytes)).toBe(0);
      expect(log.some((l) => /the service answered 429; trying again in 0 s/.test(l))).toBe(true);
      expect(log.some((l) => /the connection dropped at byte \d+; going on from byte \d+/.test(l))).toBe(true);
      // It went on from where the session stood, not from the start: fewer chunks than twice the file.
      const puts = ms.requests.filter((r) => r.startsWith('PUT /upload/')).length;
      expect(puts).toBeLessThan(Math.ceil(bytes.length / (3200 * 1024)) + 3);
    });
  },
);
