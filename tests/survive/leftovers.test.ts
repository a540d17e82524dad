// Issue 57, finding 5: what a stop or a full disk cut off is cleaned at the next start when nothing
// owns it, and a cut-off import is recorded as failed where a person looks. The folder is left as a
// kill leaves it (an import's upload and half-written data file, an
// app folder whose metadata was never renamed into place, the first start's demo half-made), then
// the next start is watched.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtures } from '../support/samples.js';
import { silentLogger } from '../../engine/engine.js';
import { memoryKeyStore, startTestServer, type TestServer } from '../support/test-server.js';
import { DEMO_APP_ID } from '../../engine/analytics/embedded-analytics.js';
import { INTERRUPTED_IMPORT } from '../../engine/features/app-data/interrupted-imports.js';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers.reverse()) await s.stop().catch(() => undefined);
});

describe('leftovers of a cut-off import or first start', () => {
  it('are removed at the next start, the apps keep their data, and a half-made demo is made again', async () => {
    const secretKeys = memoryKeyStore();
    const first = await startTestServer({ keepDataDir: true, secretKeys });
    const { make } = await fixtures(first);
    const appRecord = await make.app();
    const records: { id: string; appId: string }[] = await first.ok('GET', '/api/v1/analytics-apps', undefined, {
      get_all: 'true',
    });
    const app = records.find((a) => a.id === appRecord)!.appId;
    // A project import killed mid-way: its project written, still marked importing.
    const cutProject = await make.project();
    const [{ name: cutName }] = await first.engine.services.db.query('SELECT name FROM projects WHERE id = ?', [
      cutProject,
    ]);
    await first.engine.services.db.query('UPDATE projects SET importing = 1 WHERE id = ?', [cutProject]);
    const dataDir = first.dataDir;
    await first.stop();

    const apps = join(dataDir, 'apps');
    // An import killed mid-way: its 9 MB upload and the data file it was writing.
    writeFileSync(join(apps, app, 'upload-5f0c.tmp'), Buffer.alloc(9 * 2 ** 20));
    writeFileSync(join(apps, app, 'data.next.duckdb'), '');
    writeFileSync(join(apps, app, 'data.next.duckdb.wal'), Buffer.alloc(4096));
    // The first start's demo cut off by a full disk: its folder, its metadata never named.
    mkdirSync(join(apps, DEMO_APP_ID));
    writeFileSync(join(apps, DEMO_APP_ID, 'data.duckdb'), Buffer.alloc(2 ** 20));
    writeFileSync(join(apps, DEMO_APP_ID, 'meta.json.tmp'), '');
    writeFileSync(join(dataDir, 'demo-pending'), '');

    const warnings: { message: string; fields?: Record<string, unknown> }[] = [];
    const again = await startTestServer({
      dataDir,
      secretKeys,
      demo: true,
      logger: {
        ...silentLogger,
        warn: (message: string, fields?: Record<string, unknown>) => warnings.push({ message, fields }),
      },
    });
    servers.push(again);
    // The half-imported project is gone, and the log names it.
    expect((await again.call('GET', `/api/v2/projects/${cutProject}`)).status).toBe(404);
    expect(warnings).toContainEqual({
      message: 'Project imports cut off by a stop were removed: import their files again',
      fields: { projects: cutName },
    });
    expect(readdirSync(join(apps, app)).filter((n) => /tmp|next/.test(n))).toEqual([]);
    // The app still answers with its data.
    const meta = await again.ok('GET', `/api/app/analytics/${appRecord}`);
    expect(JSON.stringify(meta)).toContain('Region');
    // The cut-off import is recorded where an app's loads are read, failed and saying why; once.
    const loads: { appId: string; status: string; message: string | null }[] = await again.ok(
      'GET',
      '/api/app/analytics/reloads',
      undefined,
      { status: 'failed' },
    );
    expect(loads.filter((r) => r.appId === appRecord)).toEqual([
      expect.objectContaining({ status: 'failed', message: INTERRUPTED_IMPORT }),
    ]);
    // The demo, made whole this time: its record, its rows, its metadata; the marker gone.
    expect(existsSync(join(apps, DEMO_APP_ID, 'meta.json'))).toBe(true);
    expect(existsSync(join(apps, DEMO_APP_ID, 'meta.json.tmp'))).toBe(false);
    expect(existsSync(join(dataDir, 'demo-pending'))).toBe(false);
    const listed: { appId: string; id: string }[] = await again.ok('GET', '/api/v1/analytics-apps', undefined, {
      get_all: 'true',
    });
    const demo = listed.find((a) => a.appId === DEMO_APP_ID);
    expect(demo).toBeDefined();
    const demoMeta: { rowCount: number } = await again.ok('GET', `/api/app/analytics/${demo!.id}`);
    expect(demoMeta.rowCount).toBe(110_000);
  }, 120_000);
});
