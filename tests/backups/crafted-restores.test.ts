// Issue 41, findings 2–4: crafted backups. Each archive below is refused with a 400 naming what is
// wrong, nothing is staged or replaced, and while it is checked the data folder grows by no more
// than its manifest declares (a ratio bomb is stopped at its header, before a byte is written).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tar from 'tar';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';
import { fixtures } from '../support/samples.js';
import { MIGRATIONS } from '../../engine/migrations/index.js';

let s: TestServer;
let work: string;
/** A real backup of the server, unpacked: the crafted archives start from its parts. */
let parts: string;
let manifest: { files: Record<string, { size: number; sha256: string }>; [k: string]: unknown };

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Bytes under a folder, all files (the data folder's size while a restore is checked). */
function sizeOf(dir: string): number {
  let n = 0;
  if (!existsSync(dir)) return 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    try {
      n += e.isDirectory() ? sizeOf(p) : e.isFile() ? statSync(p).size : 0;
    } catch {
      // gone meanwhile (a staging folder removed while it was measured)
    }
  }
  return n;
}

/** An archive of `entries` (the manifest first, as Broadsheet writes it), files taken from `dir`. */
async function archive(name: string, dir: string, entries: string[]) {
  const file = join(work, `${name}.bsbackup`);
  await tar.create({ gzip: true, file, cwd: dir, portable: true }, entries);
  return file;
}

/** A folder holding the real backup's files and this manifest, written as given (text or object). */
async function folderWith(name: string, m: unknown, extra: (dir: string) => Promise<void> = async () => {}) {
  const dir = join(work, name);
  await cp(parts, dir, { recursive: true });
  await writeFile(join(dir, 'manifest.json'), typeof m === 'string' ? m : JSON.stringify(m));
  await extra(dir);
  return dir;
}

beforeAll(async () => {
  s = await startTestServer();
  work = await mkdtemp(join(tmpdir(), 'bs-crafted-'));
  await (await fixtures(s)).make.app();
  await s.ok('POST', '/api/app/backups', { file: join(work, 'real.bsbackup') });
  parts = join(work, 'parts');
  await mkdir(parts);
  await tar.extract({ cwd: parts, file: join(work, 'real.bsbackup') });
  manifest = JSON.parse(await readFile(join(parts, 'manifest.json'), 'utf8'));
});
afterAll(async () => {
  await s.stop();
  await rm(work, { recursive: true, force: true });
});

/** Restores `file`; expects a 400 on body.file matching `why`, nothing staged, and growth within `declared`. */
async function refused(file: string, why: RegExp, declared = 0) {
  const groups = async () => Number((await s.engine.services.db.query('SELECT COUNT(*) AS n FROM groups'))[0].n);
  const before = await groups();
  const base = sizeOf(s.dataDir);
  let peak = 0;
  let checking = true;
  const watch = (async () => {
    while (checking) {
      peak = Math.max(peak, sizeOf(s.dataDir) - base);
      await new Promise((r) => setImmediate(r));
    }
  })();
  const res = await s.call('POST', '/api/app/backups/restore', { body: { file } });
  checking = false;
  await watch;
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.errorDetails?.[0].field).toBe('body.file');
  expect(res.body.error).toMatch(why);
  expect(existsSync(join(s.dataDir, 'restore-pending.json'))).toBe(false);
  expect(existsSync(join(s.dataDir, 'restore-staging'))).toBe(false);
  expect(await groups()).toBe(before);
  // The database's own journal may move a little as the server works; a staged file would be far more.
  expect(peak).toBeLessThanOrEqual(declared + 64 * 1024);
}

describe(covers('crafted backups are refused, nothing replaced', 'app.backups.restore'), () => {
  it('a manifest alone (no database)', async () => {
    const dir = join(work, 'manifest-only');
    await mkdir(dir);
    await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, files: {} }));
    await refused(await archive('manifest-only', dir, ['manifest.json']), /holds no database \(broadsheet\.db\)/);
  });

  it('a database the manifest names but the archive lacks', async () => {
    const dir = await folderWith('no-db', manifest);
    await rm(join(dir, 'broadsheet.db'));
    const entries = ['manifest.json', ...readdirSync(dir).filter((f) => f !== 'manifest.json')];
    await refused(await archive('no-db', dir, entries), /broadsheet\.db is missing/, totalOf(manifest));
  });

  it('the database without the apps it names (a manifest made to match)', async () => {
    // The server's app is in the database; its files are left out of the archive and the manifest.
    const demo = Object.keys(manifest.files).find((n) => n.startsWith('apps/') && n.endsWith('/meta.json'))!;
    expect(demo).toBeDefined();
    const files = Object.fromEntries(Object.entries(manifest.files).filter(([n]) => !n.startsWith('apps/')));
    const dir = await folderWith('no-apps', { ...manifest, files });
    await refused(
      await archive('no-apps', dir, ['manifest.json', ...Object.keys(files)]),
      new RegExp(`names the app ${demo.split('/')[1]}, whose data it does not hold`),
      totalOf({ ...manifest, files }),
    );
  });

  it('a file of another size than its manifest says', async () => {
    const files = { ...manifest.files, 'broadsheet.db': { ...manifest.files['broadsheet.db'], size: 1024 } };
    const dir = await folderWith('wrong-size', { ...manifest, files });
    await refused(
      await archive('wrong-size', dir, ['manifest.json', 'broadsheet.db']),
      /broadsheet\.db is \d+ bytes where its manifest says 1024/,
      1024,
    );
  });

  it('sizes beyond the free disk', async () => {
    const files = { ...manifest.files, 'files/huge.bin': { size: 2 ** 52, sha256: '0'.repeat(64) } };
    const dir = await folderWith('lying', { ...manifest, files });
    await refused(await archive('lying', dir, ['manifest.json']), /more than the data folder's disk has free/);
  });

  it('a ratio bomb: 64 MB of zeros, named with a small size, stopped at its header', async () => {
    const zeros = Buffer.alloc(64 * 1024 * 1024);
    const files = { ...manifest.files, 'files/bomb.bin': { size: 1000, sha256: sha(zeros.subarray(0, 1000)) } };
    const dir = await folderWith('bomb', { ...manifest, files }, async (d) => {
      await mkdir(join(d, 'files'), { recursive: true });
      await writeFile(join(d, 'files', 'bomb.bin'), zeros);
    });
    const file = await archive('bomb', dir, ['manifest.json', 'files/bomb.bin']);
    expect(statSync(file).size).toBeLessThan(1024 * 1024);
    await refused(file, /files\/bomb\.bin is 67108864 bytes where its manifest says 1000/, 1000);
  });

  it('a symbolic link', async () => {
    const dirS = await folderWith('symlink', manifest, async (d) => symlink('/etc/passwd', join(d, 'passwd')));
    await refused(await archive('symlink', dirS, ['manifest.json', 'passwd']), /holds a SymbolicLink \(passwd\)/);
  });

  it('a manifest that is not JSON, and one whose files are null', async () => {
    const notJson = await folderWith('not-json', '{"format": "broadsheet-backup", files: ');
    await refused(await archive('not-json', notJson, ['manifest.json']), /its manifest is not JSON/);
    const nullFiles = await folderWith('null-files', { ...manifest, files: null });
    await refused(await archive('null-files', nullFiles, ['manifest.json']), /its manifest lists no files/);
  });

  it('a database that is not SQLite, with a right checksum', async () => {
    const garbage = randomBytes(8192);
    const files = { 'broadsheet.db': { size: garbage.length, sha256: sha(garbage) } };
    const dir = join(work, 'not-sqlite');
    await mkdir(dir);
    await writeFile(join(dir, 'broadsheet.db'), garbage);
    await writeFile(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, files }));
    await refused(
      await archive('not-sqlite', dir, ['manifest.json', 'broadsheet.db']),
      /broadsheet\.db fails SQLite's integrity check: it is not a SQLite database/,
      garbage.length,
    );
  });

  it('a newer schema', async () => {
    const dir = await folderWith('newer', { ...manifest, schemaVersion: MIGRATIONS.length + 1 });
    await refused(
      await archive('newer', dir, ['manifest.json']),
      new RegExp(`schema version ${MIGRATIONS.length + 1}`),
    );
  });

  it('the look before the question (checkOnly) checks a real backup whole and stages nothing; what a restore refuses, it refuses (issue 55)', async () => {
    const look = (file: string) => s.call('POST', '/api/app/backups/restore', { body: { file, checkOnly: true } });
    const real = await look(join(work, 'real.bsbackup'));
    expect(real.status, JSON.stringify(real.body)).toBe(200);
    expect(real.body.data).toMatchObject({ staged: false, createdAt: manifest.createdAt, counts: manifest.counts });
    expect(existsSync(join(s.dataDir, 'restore-pending.json'))).toBe(false);
    expect(existsSync(join(s.dataDir, 'restore-staging'))).toBe(false);
    expect(readdirSync(s.dataDir).filter((n) => n.startsWith('restore-'))).toEqual([]);
    const symlinkFirst = await folderWith('link-first', manifest, async (d) => symlink('/etc/passwd', join(d, 'a')));
    for (const [file, why] of [
      [join(work, 'nowhere.bsbackup'), /must be an existing backup file/],
      [
        await archive(
          'look-newer',
          await folderWith('look-newer', { ...manifest, schemaVersion: MIGRATIONS.length + 1 }),
          ['manifest.json'],
        ),
        /newer release/,
      ],
      [
        await archive('look-link', symlinkFirst, ['a', 'manifest.json']),
        /holds a SymbolicLink|does not begin with its manifest/,
      ],
      // What the manifest alone cannot show: a database that is no database, its checksum right.
      [await garbageDatabase('look-garbage'), /fails SQLite's integrity check/],
    ] as const) {
      const res = await look(file);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.errorDetails?.[0].field).toBe('body.file');
      expect(JSON.stringify(res.body)).toMatch(why);
    }
  });
});

/** An archive whose manifest is right and whose database is random bytes (with their true checksum). */
async function garbageDatabase(name: string) {
  const garbage = randomBytes(8192);
  const dir = join(work, name);
  await mkdir(dir);
  await writeFile(join(dir, 'broadsheet.db'), garbage);
  await writeFile(
    join(dir, 'manifest.json'),
    JSON.stringify({ ...manifest, files: { 'broadsheet.db': { size: garbage.length, sha256: sha(garbage) } } }),
  );
  return archive(name, dir, ['manifest.json', 'broadsheet.db']);
}

function totalOf(m: typeof manifest) {
  return Object.values(m.files).reduce((n, f) => n + f.size, 0);
}
