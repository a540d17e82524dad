// A backup of a working installation (10,000 users, 400 request files of 256 KiB, an app of
// 200,000 rows) through POST /api/app/backups, beside the same work done bare: the same `VACUUM
// INTO` snapshot of the database, the app's data file linked, one gzipped tar of the same files,
// without the staging links, the checksums and the manifest. Same machine, same files, warmed,
// one thread each (gzip and SQLite both run on the one thread libuv gives them). A backup is
// checked by staging it as a restore would.
import { figure } from './verdicts.js';
import { link, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import sqlite3 from 'sqlite3';
import * as tar from 'tar';
import { createEngine } from '../../engine/engine.js';
import { startHttpServer } from '../../engine/http/server.js';
import { stageRestore } from '../../engine/features/backups/backup-archive.js';
import { MIGRATIONS } from '../../engine/migrations/index.js';
import { median } from './stats.js';

function vacuumInto(source: string, target: string) {
  return new Promise<void>((resolve, reject) => {
    const db = new sqlite3.Database(source, sqlite3.OPEN_READONLY, (e) => {
      if (e) return reject(e);
      db.run('VACUUM INTO ?', [target], (err) => db.close(() => (err ? reject(err) : resolve())));
    });
  });
}

export async function backupBench(runs = 3) {
  const dataDir = await mkdtemp(join(tmpdir(), 'bs-bench-backup-'));
  const out = await mkdtemp(join(tmpdir(), 'bs-bench-backup-out-'));
  const key = randomBytes(32);
  const engine = await createEngine({
    dataDir,
    secretKeys: { load: async () => key, save: async () => {} },
    demo: false,
    schedulerTimers: false,
  });
  const ownerKey = await engine.issueOwnerKey();
  const server = await startHttpServer(engine, { port: 0 });
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json()) as { data: any };
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  // What a working installation holds: people, generated files (half text-like, half incompressible), app data.
  const db = engine.services.db;
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  const runner = db.createQueryRunner();
  await runner.startTransaction();
  for (let i = 0; i < 10_000; i++)
    await runner.query(
      'INSERT INTO users (id, createdDate, modifiedDate, kind, firstName, lastName, email, isActive) VALUES (?, ?, ?, ?, ?, ?, ?, 1)',
      [randomUUID(), now, now, 'user', `First${i % 97}`, `Last${i}`, `user${i}@bench.example`],
    );
  await runner.commitTransaction();
  await runner.release();
  for (let r = 0; r < 40; r++) {
    const dir = join(dataDir, 'files', 'requests', randomUUID());
    await mkdir(dir, { recursive: true });
    for (let i = 0; i < 10; i++)
      await writeFile(
        join(dir, `file-${i}.pdf`),
        i % 2 ? randomBytes(256 * 1024) : Buffer.from(`Region ${r} page ${i}\n`.repeat(13_000).slice(0, 256 * 1024)),
      );
  }
  const app = await api('POST', '/api/v1/analytics-apps', {
    appId: 'bench-backup',
    name: 'Bench app',
    folderId: '00000000-0000-0000-0000-000000000000',
    folderPath: '/',
    allowAnalyticsSenseApp: false,
    allowMashup: false,
    defaultOpen: 'Main',
  });
  const csv = [
    'Region,Product,Units,Price',
    ...Array.from({ length: 200_000 }, (_, i) => `R${i % 17},P${i % 101},${i % 9},${(i % 50) + 0.5}`),
  ].join('\n');
  await api('POST', `/api/app/analytics/${app.id}/import`, { fileName: 'data.csv', content: csv });

  const ours = async (n: number) => {
    const t = performance.now();
    const made = await api('POST', '/api/app/backups', { file: join(out, `ours-${n}.bsbackup`) });
    return { ms: performance.now() - t, size: made.size as number, file: made.file as string };
  };
  const bare = async (n: number) => {
    const t = performance.now();
    const dir = join(out, `bare-${n}`);
    await mkdir(join(dir, 'apps', 'bench-backup'), { recursive: true });
    await vacuumInto(join(dataDir, 'broadsheet.db'), join(dir, 'broadsheet.db'));
    // The app's data file is written once and only read after: linked, as the backup places it.
    await link(join(dataDir, 'apps', 'bench-backup', 'data.duckdb'), join(dir, 'apps', 'bench-backup', 'data.duckdb'));
    const files = (await readdir(join(dataDir, 'files'), { recursive: true, withFileTypes: true }))
      .filter((d) => d.isFile())
      .map((d) => join(d.parentPath, d.name).slice(dataDir.length + 1));
    await tar.create({ gzip: true, file: join(out, `bare-${n}.tgz`), cwd: dataDir, portable: true }, files);
    await tar.create({ gzip: true, file: join(out, `bare-${n}-db.tgz`), cwd: dir, portable: true }, [
      'broadsheet.db',
      'apps/bench-backup/data.duckdb',
    ]);
    const ms = performance.now() - t;
    await rm(dir, { recursive: true, force: true });
    return ms;
  };
  await ours(0);
  await bare(0);
  const oursMs: number[] = [];
  const bareMs: number[] = [];
  let last = { ms: 0, size: 0, file: '' };
  for (let i = 1; i <= runs; i++) {
    last = await ours(i);
    oursMs.push(last.ms);
    bareMs.push(await bare(i));
  }
  // The sample checked: the last backup restores (every checksum, SQLite's integrity check).
  const check = await mkdtemp(join(tmpdir(), 'bs-bench-backup-check-'));
  const manifest = await stageRestore(check, last.file, MIGRATIONS.length, false);
  await rm(check, { recursive: true, force: true });
  await server.close();
  await engine.close();
  await rm(dataDir, { recursive: true, force: true });
  await rm(out, { recursive: true, force: true });
  const p50 = median(oursMs);
  const base = median(bareMs);
  return {
    'backup p50 (ms)': Math.round(p50),
    'bare snapshots + tar.gz p50 (ms)': Math.round(base),
    'ratio to the bare work': `${figure({ id: 'backup', measure: 'a backup, to the same snapshots and tar.gz done bare', value: p50 / base, unit: '×', goal: { atMost: 1.5 } }).toFixed(2)}x`,
    'backup size (MiB)': (last.size / 1024 / 1024).toFixed(1),
    'checked: files, users': `${Object.keys(manifest.files).length}, ${manifest.counts.users}`,
  };
}
