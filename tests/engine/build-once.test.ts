import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
// @ts-expect-error: a plain ES module of the build scripts, without types.
import { BUILD_OUTPUTS as OUTPUTS } from '../../scripts/build-outputs.mjs';
let dir = '';

/**
 * A checkout with the real build script whose two build steps are stand-ins: each appends a line
 * to builds.log (so the builds are counted) and takes a moment, long enough for a second start to
 * arrive while the first builds.
 */
async function checkout() {
  dir = await mkdtemp(join(tmpdir(), 'bs-build-'));
  await mkdir(join(dir, 'scripts'));
  await mkdir(join(dir, 'engine'));
  await mkdir(join(dir, 'node_modules'));
  for (const script of ['build.mjs', 'build-outputs.mjs'])
    await copyFile(join(ROOT, 'scripts', script), join(dir, 'scripts', script));
  await symlink(join(ROOT, 'node_modules', 'proper-lockfile'), join(dir, 'node_modules', 'proper-lockfile'));
  await writeFile(join(dir, 'engine', 'serve.ts'), 'export {};\n');
  const step = (name: string, outputs: string[]) =>
    `node -e "const fs=require('fs');fs.appendFileSync('builds.log','${name}\\\\n');` +
    outputs
      .map((o) => `fs.mkdirSync(require('path').dirname('${o}'),{recursive:true});fs.writeFileSync('${o}','');`)
      .join('') +
    `setTimeout(()=>{},1000)"`;
  await writeFile(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'build-once',
      private: true,
      scripts: {
        'build:node': step('node', OUTPUTS.slice(0, 5)),
        'build:renderer': step('renderer', OUTPUTS.slice(5)),
      },
    }),
  );
}

function build(...args: string[]): Promise<number> {
  const child = spawn('node', ['scripts/build.mjs', ...args], { cwd: dir, stdio: 'ignore' });
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

const builds = async () =>
  (await readFile(join(dir, 'builds.log'), 'utf8').catch(() => '')).split('\n').filter(Boolean);

afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the build that `npm run serve` and `npm start` make', () => {
  it('builds once when two starts arrive together, and not again until a source changes', async () => {
    await checkout();
    expect(await Promise.all([build('--if-stale'), build('--if-stale')])).toEqual([0, 0]);
    expect(await builds()).toEqual(['node', 'renderer']);
    expect(await build('--if-stale')).toBe(0);
    expect(await builds()).toHaveLength(2);
    // A source saved later than the build: the next start builds again.
    const later = new Date(Date.now() + 5_000);
    await utimes(join(dir, 'engine', 'serve.ts'), later, later);
    expect(await build('--if-stale')).toBe(0);
    expect(await builds()).toHaveLength(4);
  });

  it('agrees with `npm run build`: after a build the next start builds nothing', async () => {
    await checkout();
    expect(await build()).toBe(0);
    expect(await build()).toBe(0); // Asked for, it builds even when current.
    expect(await build('--if-stale')).toBe(0);
    expect(await builds()).toEqual(['node', 'renderer', 'node', 'renderer']);
  });
});
