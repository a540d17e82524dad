// `npm run serve` on an empty folder, as a person would start it: the built server, a real process.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVE, serveRefused as refused } from '../support/serve-cli.js';
import { existsSync } from 'node:fs';
import { until } from '../support/until.js';
import { WRAPPED_HEAD } from '../../engine/code-cache.js';

let child: ChildProcess | null = null;
const folders: string[] = [];
afterAll(async () => {
  await stop();
  for (const f of folders) await rm(f, { recursive: true, force: true });
});

/** Ends the server started last, if it still runs (one ended by a signal has no exit code, only a signal code). */
async function stop() {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

/** Starts a server, ending the one started before (a test that leaves one running would leak it past the run). */
async function start(
  dataDir: string,
  extra: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<{ url: string; output: string }> {
  await stop();
  return new Promise((resolve, reject) => {
    child = spawn(
      process.execPath,
      [SERVE, '--data-dir', dataDir, '--port', '0', '--owner-email', 'Chief@Example.com', ...extra],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
    );
    let output = '';
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${output}`)), 20_000);
    const onData = (b: Buffer) => {
      output += b.toString();
      const m = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve({ url: m[1], output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${output}`)));
  });
}

describe('npm run serve', () => {
  it('starts on an empty folder, writes the owner key (0600) and prints its path, and serves API and UI', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'bs-serve-'));
    folders.push(dataDir);
    const { url, output } = await start(dataDir);
    const keyFile = join(dataDir, 'owner-api-key');
    expect(output).toContain(keyFile);
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dataDir, 'secret.key'))).mode & 0o777).toBe(0o600);
    const key = (await readFile(keyFile, 'utf8')).trim();
    expect(output).not.toContain(key);
    const me = (await (
      await fetch(`${url}/api/app/auth/me`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as any;
    expect(me.data.user).toMatchObject({ email: 'chief@example.com', isTenantOwner: true });
    const page = await fetch(`${url}/groups`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });

  it('starts its background work (here the demo) with nobody calling it, a moment after it serves', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'bs-serve-'));
    folders.push(dataDir);
    await start(dataDir);
    // No call at all: the demo (background work, like the queues and the scheduler) still gets made.
    await until(
      () => existsSync(join(dataDir, 'apps', 'sales-demo', 'meta.json')) && !existsSync(join(dataDir, 'demo-pending')),
      (made) => made,
      60_000,
    );
    await stop();
  });

  it('builds the server bundle in ASCII alone, as its start reads it (one byte a character)', async () => {
    // engine/code-cache.ts reads the bundle as latin1: one raw UTF-8 byte in it would garble every
    // text outside ASCII the server says (curly quotes, names in other scripts).
    const bundle = await readFile(join(SERVE, '..', 'serve-bundle.cjs'));
    const offending = bundle.findIndex((b) => b > 0x7f);
    expect(offending, `a byte over 0x7f at ${offending}`).toBe(-1);
    expect(bundle.toString('latin1')).toContain('\\u201C');
    // Inside CommonJS's wrapper as built, so its start compiles the text as read, not a wrapped copy.
    expect(bundle.subarray(0, WRAPPED_HEAD.length).toString('latin1')).toBe(WRAPPED_HEAD);
    expect(bundle.subarray(-4).toString('latin1')).toBe('\n});');
  });

  it("keeps the compiled server in the user's own cache folder between starts, never where others can write", async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'bs-serve-'));
    const cacheBase = await mkdtemp(join(tmpdir(), 'bs-cache-'));
    folders.push(dataDir, cacheBase);
    const codeDir = join(cacheBase, 'broadsheet', 'code', process.versions.v8);
    await mkdir(codeDir, { recursive: true, mode: 0o700 });
    await writeFile(join(codeDir, 'serve-bundle.cjs.from-an-earlier-build'), 'stale');
    const answers = async (url: string) => (await (await fetch(`${url}/api/app/setup`)).json()).isSuccess;

    expect(await answers((await start(dataDir, [], { XDG_CACHE_HOME: cacheBase })).url)).toBe(true);
    await stop();
    const [cache, ...others] = await readdir(codeDir);
    expect(others).toEqual([]);
    expect(cache).toMatch(/^serve-bundle\.cjs\.[0-9a-f]{32}$/);
    const written = await stat(join(codeDir, cache));
    expect(written.mode & 0o777).toBe(0o600);
    expect(written.size).toBeGreaterThan(100_000);

    // The next start reads it and leaves it as it was.
    expect(await answers((await start(dataDir, [], { XDG_CACHE_HOME: cacheBase })).url)).toBe(true);
    await stop();
    expect((await stat(join(codeDir, cache))).mtimeMs).toBe(written.mtimeMs);

    // A cache folder others may write to is not used at all; the server starts all the same.
    const shared = await mkdtemp(join(tmpdir(), 'bs-cache-'));
    folders.push(shared);
    await mkdir(join(shared, 'broadsheet'), { mode: 0o700 });
    await chmod(join(shared, 'broadsheet'), 0o777);
    expect(await answers((await start(dataDir, [], { XDG_CACHE_HOME: shared })).url)).toBe(true);
    await stop();
    expect(await readdir(join(shared, 'broadsheet', 'code', process.versions.v8))).toEqual([]);
  });

  it('keeps the secrets key outside the data folder when asked, and refuses a key others can read', async () => {
    await stop();
    const dataDir = await mkdtemp(join(tmpdir(), 'bs-serve-'));
    const keyDir = await mkdtemp(join(tmpdir(), 'bs-serve-key-'));
    folders.push(dataDir, keyDir);
    const keyFile = join(keyDir, 'broadsheet.key');
    await start(dataDir, ['--secret-key-file', keyFile]);
    await stop();
    expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
    // A copy of the data folder holds no key: nothing in it decrypts the sealed passwords.
    expect(await stat(join(dataDir, 'secret.key')).catch(() => null)).toBeNull();
    // The key made readable by others: the server refuses to start, saying what to do.
    await chmod(keyFile, 0o644);
    const { code, output } = await refused(['--data-dir', dataDir, '--secret-key-file', keyFile]);
    expect(code).toBe(1);
    expect(output).toContain(`chmod 600 ${keyFile}`);
    // The environment variable names it as the option does.
    await chmod(keyFile, 0o600);
    await new Promise<void>((resolve, reject) => {
      child = spawn(process.execPath, [SERVE, '--data-dir', dataDir, '--port', '0'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, BROADSHEET_SECRET_KEY_FILE: keyFile },
      });
      let out = '';
      child.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.includes('is serving')) resolve();
      });
      child.on('exit', (c) => reject(new Error(`exited ${c}: ${out}`)));
    });
    await stop();
    expect(await stat(join(dataDir, 'secret.key')).catch(() => null)).toBeNull();
  });
});
