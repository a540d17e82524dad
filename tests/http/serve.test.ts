// `npm run serve` on an empty folder, as a person would start it: the built server, a real process.
import { afterAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SERVE = join(__dirname, '..', '..', 'dist', 'engine', 'serve.cjs');
let child: ChildProcess | null = null;
const folders: string[] = [];
afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  for (const f of folders) await rm(f, { recursive: true, force: true });
});

function start(dataDir: string): Promise<{ url: string; output: string }> {
  return new Promise((resolve, reject) => {
    child = spawn(process.execPath, [SERVE, '--data-dir', dataDir, '--port', '0', '--owner-email', 'Chief@Example.com'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
    const me = (await (await fetch(`${url}/api/app/auth/me`, { headers: { authorization: `Bearer ${key}` } })).json()) as any;
    expect(me.data.user).toMatchObject({ email: 'chief@example.com', isTenantOwner: true });
    const page = await fetch(`${url}/groups`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
  });
});
