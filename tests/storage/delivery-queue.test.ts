// Issue 57, finding 4: a delivery that still fails for a passing cause when its run ends is kept and
// tried again by itself, shown with its next try and its cause, retried, tried now or cancelled by
// hand, and kept across a restart. The destination is a folder on a real 8 MB tmpfs, full when the
// run starts; the run's own tries are cut to two so the run ends while the disk is still full.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { smallDisk } from '../support/small-disk.js';
import { memoryKeyStore, startTestServer, type TestServer } from '../support/test-server.js';

import { fixtures } from '../support/samples.js';
import { ftpService, startFtp, type TestFtp } from '../support/ftp.js';
import { until } from '../support/until.js';
import { waitForRequest } from '../support/requests.js';
import { startRunToStorage, unitsReport } from '../support/units-report.js';
import { covers } from '../support/covers.js';

const disk = smallDisk(8);
const keys = memoryKeyStore();
/** The run's own tries: two, quickly, so it ends while the disk is still full. */
const IN_RUN = { tries: 2, baseMs: 50, maxMs: 50 };

let s: TestServer;
let ftp: TestFtp;
let projectId: string;
let reportId: string;
beforeAll(async () => {
  ftp = await startFtp();
  // Tries after the run every 300 ms while a test waits on them.
  s = await startTestServer({
    secretKeys: keys,
    keepDataDir: true,
    storageRetry: IN_RUN,
    deliveries: { baseDelayMs: 300, maxDelayMs: 300 },
  });
  projectId = (await (await fixtures(s)).make.connected()).projectId;
  reportId = await unitsReport(s, projectId);
});
afterAll(async () => {
  const dataDir = s?.dataDir;
  await s?.stop();
  if (dataDir) (await import('node:fs')).rmSync(dataDir, { recursive: true, force: true });
  await ftp?.close();
  disk.remove();
});

type Kept = {
  id: string;
  requestId: string;
  status: string;
  attempts: number;
  lastError: string | null;
  nextAttemptAt: string | null;
  destination: string;
  files: string[];
};
const keptOf = async (requestId: string) =>
  s.ok<Kept[]>('GET', '/api/v1/deliveries', undefined, { request_id: requestId, get_all: true });
const logOf = async (id: string) => (await s.ok<{ text: string }>('GET', `/api/v1/requests/${id}/log`)).text;
const startRunTo = (serviceId: string, path = 'daily') =>
  startRunToStorage(s, { projectId, reportId }, serviceId, path);

describe(
  covers(
    'a delivery still failing when its run ends',
    'app.deliveries.list',
    'app.deliveries.cancel',
    'app.deliveries.retry',
    'app.deliveries.deliverNow',
  ),
  () => {
    it.skipIf(!disk.mounted)(
      'is kept, tried again by itself while the disk is full, cancelled and retried by hand, and arrives once there is room',
      async () => {
        const svc = await s.ok<{ id: string }>('POST', '/api/v1/storage-services', {
          name: 'Small disk',
          type: 'Folder',
          rootPath: disk.path,
        });
        disk.fill();
        try {
          const run = await waitForRequest(s, await startRunTo(svc.id));
          expect(run.status).toBe('warning');
          expect(run.message).toMatch(
            /“Small disk”: the disk is full \(ENOSPC\) \(tried 2 times\); tried again by itself from /,
          );
          const [kept] = await keptOf(run.id);
          expect(kept).toMatchObject({
            requestId: run.id,
            destination: 'Small disk',
            files: [run.files[0].name],
            lastError: 'the disk is full (ENOSPC)',
          });
          // The queue's own tries, each said in the run's log with its next try.
          const tried = await until(
            () => keptOf(run.id),
            ([d]) => d.attempts >= 2 && d.status === 'waiting',
          );
          expect(tried[0].nextAttemptAt).not.toBeNull();
          expect(await logOf(run.id)).toMatch(
            /Files still not put in “Small disk” under daily: the disk is full \(ENOSPC\) \(try \d+\); next try at /,
          );
          // Cancelled: no more tries; a cancelled delivery cannot be cancelled again, nor tried now.
          const cancelled = await s.ok<Kept>('POST', `/api/v1/deliveries/${kept.id}/cancel`);
          expect(cancelled.status).toBe('cancelled');
          expect((await s.call('POST', `/api/v1/deliveries/${kept.id}/deliver-now`)).status).toBe(409);
          const attemptsWhenCancelled = (await keptOf(run.id))[0].attempts;
          // Retried by hand once the disk has room: it arrives, whole, and the run's log says so.
          disk.free();
          const retried = await s.ok<Kept>('POST', `/api/v1/deliveries/${kept.id}/retry`);
          expect(retried).toMatchObject({ status: 'waiting', attempts: 0 });
          const [done] = await until(
            () => keptOf(run.id),
            ([d]) => d.status === 'delivered',
          );
          expect(done.attempts).toBe(1);
          expect(attemptsWhenCancelled).toBeGreaterThanOrEqual(2);
          const arrived = join(disk.path, 'daily', run.files[0].name);
          expect(readFileSync(arrived, 'utf8')).toContain('<');
          expect(await logOf(run.id)).toMatch(/1 file put in “Small disk” under daily \(try 1, after the run\)/);
          // A delivered one is neither retried nor cancelled.
          expect((await s.call('POST', `/api/v1/deliveries/${kept.id}/retry`)).status).toBe(409);
          expect((await s.call('POST', `/api/v1/deliveries/${kept.id}/cancel`)).status).toBe(409);
        } finally {
          disk.free();
        }
      },
    );

    it.skipIf(!disk.mounted)('is kept across a restart and delivered by the next start', async () => {
      const svc = await s.ok<{ id: string }>('POST', '/api/v1/storage-services', {
        name: 'Small disk (restart)',
        type: 'Folder',
        rootPath: disk.path,
      });
      disk.fill();
      let runId: string;
      try {
        runId = (await waitForRequest(s, await startRunTo(svc.id, 'restart'))).id;
        const [kept] = await keptOf(runId);
        expect(kept.status).toBe('waiting');
        // Stopped before its next try; the next start finds it waiting and, with room, delivers it.
        await s.stop();
      } finally {
        disk.free();
      }
      s = await startTestServer({
        dataDir: s.dataDir,
        secretKeys: keys,
        keepDataDir: true,
        storageRetry: IN_RUN,
        deliveries: { baseDelayMs: 300, maxDelayMs: 300 },
      });
      const [done] = await until(
        () => keptOf(runId),
        ([d]) => d.status === 'delivered',
      );
      expect(done.destination).toBe('Small disk (restart)');
      expect(readdirSync(join(disk.path, 'restart'))).toHaveLength(1);
    });

    it.skipIf(!disk.mounted)(
      'ends failed when its time is up, said in the run log, leaving no half-written file',
      async () => {
        await s.stop();
        s = await startTestServer({
          dataDir: s.dataDir,
          secretKeys: keys,
          keepDataDir: true,
          storageRetry: IN_RUN,
          deliveries: { baseDelayMs: 200, maxDelayMs: 200, giveUpAfterMs: 900 },
        });
        const svc = await s.ok<{ id: string }>('POST', '/api/v1/storage-services', {
          name: 'Small disk (give up)',
          type: 'Folder',
          rootPath: disk.path,
        });
        disk.fill();
        try {
          const run = await waitForRequest(s, await startRunTo(svc.id, 'giveup'));
          const [failed] = await until(
            () => keptOf(run.id),
            ([d]) => d.status === 'failed',
          );
          expect(failed.lastError).toBe('the disk is full (ENOSPC)');
          expect(failed.nextAttemptAt).toBeNull();
          expect(await logOf(run.id)).toMatch(/no more tries by itself\. Retry it from Monitoring once fixed/);
          // A copy cut short by the full disk left nothing behind: no truncated report to open.
          expect(readdirSync(join(disk.path, 'giveup'))).toEqual([]);
        } finally {
          disk.free();
        }
      },
    );

    it('a cause that does not pass (a refused sign-in) is said at once and not kept', async () => {
      const svc = await s.ok<{ id: string }>(
        'POST',
        '/api/v1/storage-services',
        ftpService(ftp, { password: 'wrong' }),
      );
      const run = await waitForRequest(s, await startRunTo(svc.id));
      expect(run.status).toBe('warning');
      expect(run.message).not.toContain('tried again by itself');
      expect(await keptOf(run.id)).toEqual([]);
    });
  },
);
