// WebDAV storage against a real server on loopback (Debian's `rclone serve webdav`): a task run
// puts one file per iteration value in a subfolder named by the task report's variable, read back
// from the folder the server serves; "Test connection" writes and removes a small file and names a
// wrong password or an address that is not a WebDAV server; an address with credentials in it, or
// not http(s), is refused naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { startWebDav, type TestWebDav } from '../support/webdav.js';
import { waitForRequest } from '../support/requests.js';
import { demoSalesByRegion } from '../support/demo-figures.js';
import { demoRegionalReport } from '../support/demo-region.js';
import { closedPort } from '../support/smtp.js';
import { covers } from '../support/covers.js';

let s: TestServer;
let dav: TestWebDav;
let report: { id: string; projectId: string; connectionId: string };
const en = (n: number) => Math.round(n).toLocaleString('en-US');
const service = (over: Record<string, unknown> = {}) => ({
  name: 'Team cloud',
  type: 'WebDAV',
  host: dav.url,
  username: 'reports',
  password: 'dav-secret',
  ftpTestDirectoryPath: '/Shared/Reports',
  ...over,
});

beforeAll(async () => {
  dav = await startWebDav();
  s = await startTestServer({ demo: true });
  report = await demoRegionalReport(s);
}, 60_000);
afterAll(async () => {
  await s?.stop();
  await dav?.close();
});

describe(covers('WebDAV storage', 'app.storageServices.create', 'app.storageServices.test', 'v2.requests.run'), () => {
  it('tests by writing and removing a file, keeps the password sealed, and names a wrong password', async () => {
    const svc = await s.ok('POST', '/api/v1/storage-services', service());
    expect(svc).toMatchObject({ type: 'WebDAV', host: dav.url, hasPassword: true, port: null });
    expect(JSON.stringify(svc)).not.toContain('dav-secret');
    const tested = await s.ok('POST', `/api/v1/storage-services/${svc.id}/test`);
    expect(tested.message).toBe(`Wrote and removed a test file in /Shared/Reports at ${dav.url}`);
    // The base folder was made; the test file is gone.
    expect(await readdir(join(dav.root, 'Shared', 'Reports'))).toEqual([]);

    await s.ok('PUT', `/api/v2/storage-services/${svc.id}`, service({ password: 'wrong' }));
    const wrong = await s.call('POST', `/api/v1/storage-services/${svc.id}/test`);
    expect(wrong.status).toBe(400);
    expect(wrong.body.errorDetails?.[0]).toEqual({
      field: 'username',
      message: 'the server refused the user name or password (401)',
    });
    const nobody = await s.ok(
      'POST',
      '/api/v1/storage-services',
      service({ host: `http://127.0.0.1:${await closedPort()}/` }),
    );
    const dead = await s.call('POST', `/api/v1/storage-services/${nobody.id}/test`);
    expect(dead.status).toBe(400);
    expect(dead.body.errorDetails?.[0].field).toBe('host');
    expect(dead.body.error).toMatch(/ECONNREFUSED/);
  });

  it('refuses an address that is not http(s) or carries credentials, naming the field; nothing is stored', async () => {
    const before = (await s.ok('GET', '/api/v1/storage-services', undefined, { get_all: true })).length;
    for (const host of ['ftp://127.0.0.1/', 'http://reports:dav-secret@127.0.0.1/', 'not a url', null]) {
      const res = await s.call('POST', '/api/v1/storage-services', { body: service({ host }) });
      expect(res.status, String(host)).toBe(400);
      expect(res.body.errorDetails?.[0].field).toBe('body.host');
      expect(JSON.stringify(res.body)).not.toContain('dav-secret');
    }
    expect((await s.ok('GET', '/api/v1/storage-services', undefined, { get_all: true })).length).toBe(before);
  });

  it('delivers one file per iteration value into subfolders named by the variable, read back from the server', async () => {
    const svc = await s.ok('POST', '/api/v1/storage-services', service({ name: 'Regions cloud' }));
    const task = await s.ok('POST', '/api/v2/tasks', { name: 'Regions to the cloud', projectID: report.projectId });
    await s.ok('POST', `/api/v1/tasks/${task.id}/reports`, {
      reportId: report.id,
      format: 'Html',
      emailAttachment: false,
      ftpVariable: '$(vRegionName)',
      reportStorageServices: [{ fileStorageServiceId: svc.id, path: 'by-region', order: 0 }],
    });
    const done = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
    expect(done.status, done.message).toBe('completed');
    const sales = await demoSalesByRegion(s);
    const regions = [...sales.keys()].sort();
    const base = join(dav.root, 'Shared', 'Reports', 'by-region');
    expect((await readdir(base)).sort()).toEqual(regions);
    for (const region of regions) {
      const files = await readdir(join(base, region));
      expect(files, region).toHaveLength(1);
      const html = await readFile(join(base, region, files[0]), 'utf8');
      // Byte for byte the run's own file, and only that region's figure.
      const made = done.files.find((f: { name: string }) => f.name === files[0]);
      expect(made, `${region}: ${files[0]} among ${done.files.map((f: { name: string }) => f.name)}`).toBeTruthy();
      expect(
        Buffer.compare(await readFile(join(s.dataDir, 'files', 'requests', done.id, made.name)), Buffer.from(html)),
      ).toBe(0);
      expect(html).toContain(en(sales.get(region)!));
    }
    const log = (await s.ok('GET', `/api/v1/requests/${done.id}/log`)).text;
    expect(log).toContain(
      `${regions.length} files put in “Regions cloud” under by-region in ${regions.length} folders named by $(vRegionName)`,
    );
    // A second run replaces each file in place: still one per folder.
    const again = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
    expect(again.status).toBe('completed');
    for (const region of regions) expect(await readdir(join(base, region))).toHaveLength(1);
  });
});
