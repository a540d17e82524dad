// What the built server loads before its first answer. A start pays for every package it loads
// (exceljs alone was 0.4 s of each start); the libraries behind a feature load when it is first used.
// A package joining this list is a choice: add it here with the reason, or load it where it is used.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVE } from '../support/serve-cli.js';

/** The packages a start may load, outside the start-up bundle (scripts/build-node.mjs), and why. */
const LOADED_AT_START: Record<string, string> = {
  sqlite3: 'the database (native, so never bundled)',
  bindings: "sqlite3's loader of its native module",
  'file-uri-to-path': "bindings' own",
  'fastify-plugin': 'wraps the HTTP plugins (a few lines)',
  nodemailer: 'its address parser alone, to validate e-mail addresses (nodemailer/lib/addressparser)',
};

const folders: string[] = [];
afterAll(async () => {
  for (const f of folders) await rm(f, { recursive: true, force: true });
});

/** Starts the built server on `dataDir` until it says it serves; the packages it had loaded by then. */
async function packagesLoadedByFirstAnswer(dataDir: string): Promise<Record<string, number>> {
  const record = join(dataDir, '..', `${dataDir.split('/').pop()}-loaded.json`);
  const child = spawn(
    process.execPath,
    [
      '--import',
      pathToFileURL(join(__dirname, '..', 'support', 'loaded-packages.mjs')).href,
      SERVE,
      '--data-dir',
      dataDir,
      '--port',
      '0',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, BS_LOADED_PACKAGES: record } },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (b: Buffer) => {
      output += b.toString();
      if (/is serving http/.test(output)) resolve();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  const loaded = JSON.parse(await readFile(record, 'utf8')) as Record<string, number>;
  await rm(record, { force: true });
  return loaded;
}

describe('the start loads only what its first answer needs', () => {
  it('on an empty folder and again on the installation it made, no package outside the list loads', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'bs-start-modules-'));
    folders.push(dataDir);
    for (const start of ['first start', 'restart']) {
      const loaded = await packagesLoadedByFirstAnswer(dataDir);
      // sqlite3 proves the record is real: the database cannot open without it.
      expect(Object.keys(loaded), start).toContain('sqlite3');
      const unexpected = Object.entries(loaded)
        .filter(([name]) => !(name in LOADED_AT_START))
        .sort((a, b) => b[1] - a[1])
        .map(([name, ms]) => `${name} (${ms} ms)`);
      expect(unexpected, `${start}: loaded before the first answer`).toEqual([]);
    }
  });
});
