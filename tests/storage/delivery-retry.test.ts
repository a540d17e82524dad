// Issue 57, finding 4 (in part): a delivery that fails for a passing reason is tried again within
// its run, and the log names the real cause. The destination folder is on a real 8 MB tmpfs, full
// when the run starts: the run says "the disk is full" and tries again; once the test frees the
// disk, the file arrives and the run completes. A refused FTP sign-in is said at once, untried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { smallDisk } from '../support/small-disk.js';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { fixtures } from '../support/samples.js';
import { ftpService, startFtp, type TestFtp } from '../support/ftp.js';
import { until } from '../support/until.js';
import { waitForRequest } from '../support/requests.js';
import { startRunToStorage, unitsReport } from '../support/units-report.js';

const disk = smallDisk(8);
const mountPoint = disk.path;

let s: TestServer;
let ftp: TestFtp;
let projectId: string;
let reportId: string;
beforeAll(async () => {
  ftp = await startFtp();
  s = await startTestServer({ storageRetry: { tries: 30, baseMs: 200, maxMs: 500 } });
  projectId = (await (await fixtures(s)).make.connected()).projectId;
  reportId = await unitsReport(s, projectId);
});
afterAll(async () => {
  await s?.stop();
  await ftp?.close();
  disk.remove();
});

const startRunTo = (serviceId: string) => startRunToStorage(s, { projectId, reportId }, serviceId, 'daily');
/** The run's log so far (none before the run has started). */
const logOf = async (id: string) => {
  const r = await s.call('GET', `/api/v1/requests/${id}/log`);
  return r.status === 404 ? '' : ((r.body.data as { text: string }).text ?? '');
};

describe('a delivery that fails for a passing reason', () => {
  it.skipIf(!disk.mounted)('to a full disk: says so, tries again, and delivers once there is room', async () => {
    const svc = await s.ok('POST', '/api/v1/storage-services', {
      name: 'Small disk',
      type: 'Folder',
      rootPath: mountPoint,
    });
    disk.fill();
    const id = await startRunTo(svc.id);
    try {
      await until(
        () => logOf(id),
        (text) => /Files not put in “Small disk”: the disk is full \(ENOSPC\); trying again in \d+ s/.test(text),
        60_000,
      );
    } finally {
      disk.free();
    }
    const done = await waitForRequest(s, id);
    expect(done.status).toBe('completed');
    expect(readdirSync(join(mountPoint, 'daily'))).toEqual([done.files[0].name]);
    expect(await logOf(id)).toMatch(/1 file put in “Small disk” under daily \(try \d+\)/);
  });

  it('a refused FTP sign-in is said at once, not tried again', async () => {
    const svc = await s.ok('POST', '/api/v1/storage-services', ftpService(ftp, { password: 'wrong' }));
    const done = await waitForRequest(s, await startRunTo(svc.id));
    expect(done.status).toBe('warning');
    const text = await logOf(done.id);
    expect(text).toContain('Files not put in “Partner FTP”');
    expect(text).not.toContain('trying again');
  });
});
