// `npm run build`, and the build `npm run serve` and `npm start` make when a source changed. One
// build at a time over the checkout (a lock in dist/): a second start waiting on the lock finds the
// build current when it gets it and builds nothing. The stamp it writes records the newest source
// time the build was made from, so `npm run build` and the starts agree on what is current.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import { BUILD_OUTPUTS } from './build-outputs.mjs';

const SOURCES = [
  'engine',
  'renderer',
  'main',
  'preload',
  'scripts/build.mjs',
  'scripts/build-outputs.mjs',
  'scripts/build-node.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];
const STAMP = 'dist/.build-stamp';

function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let t = 0;
  for (const e of readdirSync(path)) if (e !== 'node_modules' && e !== 'dist') t = Math.max(t, newest(join(path, e)));
  return t;
}

const sourceTime = () => Math.max(...SOURCES.map(newest));
const isCurrent = (time) =>
  existsSync(STAMP) && Number(readFileSync(STAMP, 'utf8')) >= time && BUILD_OUTPUTS.every((f) => existsSync(f));

/**
 * Runs one build step; false when it failed (its own output says why). Not spawnSync: the lock is
 * renewed on a timer while the step runs, and a blocked event loop would let it lapse.
 */
function run(script) {
  const child = spawn('npm', ['run', script], { stdio: 'inherit', shell: process.platform === 'win32' });
  return new Promise((resolve) => child.on('close', (code) => resolve(code === 0)));
}

const onlyIfStale = process.argv.includes('--if-stale');
if (onlyIfStale && isCurrent(sourceTime())) process.exit(0);
mkdirSync('dist', { recursive: true });
// Held while building, renewed every few seconds; a lock left by a killed build lapses after 30 s.
const release = await lockfile.lock('dist', {
  lockfilePath: 'dist/.build-lock',
  stale: 30_000,
  retries: { retries: 600, factor: 1, minTimeout: 250, maxTimeout: 250 },
});
let built = true;
try {
  // Read after the lock is held: a start that waited on another's build finds it done.
  const time = sourceTime();
  if (!(onlyIfStale && isCurrent(time))) {
    built = (await run('build:node')) && (await run('build:renderer'));
    if (built) writeFileSync(STAMP, String(time));
  }
} finally {
  await release();
}
process.exitCode = built ? 0 : 1;
