// Issue 57, finding 1's last part: an analytics import on a full disk answers 503 saying the disk is
// full, like every other write, and the same import succeeds once there is room. The disk is a real
// one: a small tmpfs mounted for the test (root is needed to mount; CI runs as root).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smallDisk } from '../support/small-disk.js';
import { fixtures } from '../support/samples.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

const disk = smallDisk(24);
const mounted = disk.mounted;

let s: TestServer;
beforeAll(async () => {
  if (mounted) s = await startTestServer({ dataDir: disk.path, keepDataDir: true });
});
afterAll(async () => {
  await s?.stop();
  disk.remove();
});

/** A CSV of `rows` order lines, about 40 bytes each. */
const csv = (rows: number) =>
  'Region,Product,Units,Price\n' +
  Array.from({ length: rows }, (_, i) => `Region ${i % 7},Product ${i % 113},${i % 17},${(i % 1000) / 10}`).join('\n');

describe.skipIf(!mounted)('an import on a full disk (a 24 MB tmpfs)', () => {
  it('answers 503 saying the disk is full, keeps the app as it was, and imports once there is room', async () => {
    const { make } = await fixtures(s);
    const app = await make.app();
    const content = csv(40_000);
    // The disk full half-way through the upload, then with room for the upload but not the app's new data.
    for (const room of [Math.floor(content.length / 2), content.length + 1024 * 1024]) {
      disk.fill(room);
      try {
        const full = await s.call('POST', `/api/app/analytics/${app}/import`, {
          body: { fileName: 'orders.csv', content },
        });
        expect(full.status, `${room} bytes free: ${JSON.stringify(full.body)}`).toBe(503);
        expect(full.body.error).toMatch(/disk holding .* is full: nothing was written/i);
        expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
        // The app still answers with its earlier data.
        const meta = await s.ok('GET', `/api/app/analytics/${app}`);
        expect(JSON.stringify(meta)).toContain('Region');
      } finally {
        disk.free();
      }
    }
    const done: { rows?: number } = await s.ok('POST', `/api/app/analytics/${app}/import`, {
      fileName: 'orders.csv',
      content,
    });
    expect(JSON.stringify(done)).toContain('40000');
  });
});
