// Finding 4 (medium): one long write blocked every other write. A project import is written in
// chunks and an analytics import has a store of its own, so short writes answer in between.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../../engine/engine.js';
import { defaults, memoryKeyStore, startTestServer, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';
import { until } from '../support/until.js';

let s: TestServer;
let appRecord: string;
const ROOT = '00000000-0000-0000-0000-000000000000';

function projectFile(filters: number, values: number) {
  return {
    format: 'broadsheet-project',
    version: 1,
    project: { name: 'Big import', description: null },
    connections: [{ ref: 'c1', name: 'Sales', appId: 'long-writes' }],
    filters: Array.from({ length: filters }, (_, f) => ({
      ref: `f${f}`,
      name: `Filter ${f}`,
      description: null,
      values: Array.from({ length: values }, (_, v) => ({
        kind: 'field',
        targetId: `field-${v}`,
        fieldValues: [`value ${v}`],
        variableValue: null,
        order: v,
      })),
    })),
    reports: [],
  };
}

beforeAll(async () => {
  s = await startTestServer();
  appRecord = (
    await s.ok('POST', '/api/v1/analytics-apps', {
      appId: 'long-writes',
      name: 'Long writes',
      folderId: ROOT,
      folderPath: '/',
      allowAnalyticsSenseApp: false,
      allowMashup: false,
      defaultOpen: 'x',
    })
  ).id;
});
afterAll(() => s.stop());

describe(
  covers(
    'long writes let short ones through',
    'app.projects.import',
    'v2.groups.create',
    'v1.projects.list',
    'app.analytics.import',
  ),
  () => {
    it('a group created during a 100 × 1,000-value project import is saved before the import ends; the project appears only when complete', async () => {
      const { orgId } = await defaults(s);
      const finished: string[] = [];
      const importing = s
        .call('POST', '/api/app/projects/import', { body: { file: projectFile(100, 1000) } })
        .then((r) => {
          finished.push('import');
          return r;
        });
      const seenDuring: string[][] = [];
      // Short writes and reads sent while the import runs: once its first chunk is written (the project is there, still importing).
      await until(
        () => s.engine.services.db.query('SELECT COUNT(*) AS n FROM projects WHERE importing = 1'),
        (r: { n: number }[]) => Number(r[0].n) > 0,
        120_000,
      );
      for (let i = 0; i < 3; i++) {
        const g = await s.call('POST', '/api/v2/groups', {
          body: { name: `During import ${i}`, organizationID: orgId },
        });
        expect(g.status).toBe(200);
        finished.push(`group ${i}`);
        seenDuring.push(
          (await s.ok('GET', '/api/v1/projects', undefined, { get_all: true })).map((p: { name: string }) => p.name),
        );
      }
      const imported = await importing;
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(finished.indexOf('group 0')).toBeLessThan(finished.indexOf('import'));
      // While it was being written the project was not there to be seen half-made.
      expect(finished.indexOf('group 2')).toBeLessThan(finished.indexOf('import'));
      for (const names of seenDuring) expect(names).not.toContain('Big import');
      const [{ n }] = await s.engine.services.db.query(
        'SELECT COUNT(*) n FROM filter_values v JOIN filters f ON f.id = v.filterId WHERE f.projectId = ?',
        [imported.body.data.id],
      );
      expect(n).toBe(100_000);
      expect(
        (await s.ok('GET', '/api/v1/projects', undefined, { get_all: true })).map((p: { name: string }) => p.name),
      ).toContain('Big import');
    });

    it('a group created during a large analytics import is saved before the import ends', async () => {
      const { orgId } = await defaults(s);
      const lines = ['Region,Product,Units,Price'];
      for (let i = 0; i < 300_000; i++) lines.push(`R${i % 17},P${i % 101},${i % 9},${(i % 50) + 0.5}`);
      const finished: string[] = [];
      const importing = s
        .call('POST', `/api/app/analytics/${appRecord}/import`, {
          body: { fileName: 'big.csv', content: lines.join('\n') },
        })
        .then((r) => {
          finished.push('import');
          return r;
        });
      // Once the import reports rows read, it is under way.
      await new Promise<void>((resolve) => {
        const off = s.engine.on((e) => {
          if (e.type === 'analytics.import.progress' && e.payload.rows > 0) {
            off();
            resolve();
          }
        });
      });
      const g = await s.call('POST', '/api/v2/groups', {
        body: { name: 'During analytics import', organizationID: orgId },
      });
      expect(g.status).toBe(200);
      finished.push('group');
      const imported = await importing;
      expect(imported.status, JSON.stringify(imported.body)).toBe(200);
      expect(imported.body.data.rowCount).toBe(300_000);
      expect(finished).toEqual(['group', 'import']);
    });
  },
);

describe('an import cut short by a crash', () => {
  it('leaves no half project: the next start removes it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'bs-crash-import-'));
    try {
      // The same key at both starts, as the same machine has (another key is refused: issue 40).
      const secretKeys = memoryKeyStore();
      const first = await createEngine({ dataDir, secretKeys, demo: false });
      const [org] = await first.services.db.query("SELECT id FROM organizations WHERE name = 'Default'");
      await first.services.db.query(
        "INSERT INTO projects (id, createdDate, modifiedDate, name, organizationId, isActive, permissionsMode, importing) VALUES ('0d6c3f1e-1111-4222-8333-944455556666', datetime('now'), datetime('now'), 'Half imported', ?, 1, 0, 1)",
        [org.id],
      );
      await first.close();
      const second = await createEngine({ dataDir, secretKeys, demo: false });
      expect(await second.services.db.query("SELECT id FROM projects WHERE name = 'Half imported'")).toEqual([]);
      await second.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
