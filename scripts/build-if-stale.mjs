// Builds only when a source is newer than the last build, so `npm run serve` and `npm start` start
// at once on a current build (a full build takes seconds). The stamp records the newest source
// time the build was made from; any newer file under the sources means build again.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = [
  'engine',
  'renderer',
  'main',
  'preload',
  'scripts/build-node.mjs',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];
const OUTPUTS = [
  'dist/engine/serve.cjs',
  'dist/engine/render-worker.cjs',
  'dist/engine/import-worker.cjs',
  'dist/main/main.cjs',
  'dist/preload/preload.cjs',
  'dist/renderer/index.html',
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

const sourceTime = Math.max(...SOURCES.map(newest));
const built = existsSync(STAMP) ? Number(readFileSync(STAMP, 'utf8')) : 0;
if (built >= sourceTime && OUTPUTS.every((f) => existsSync(f))) process.exit(0);
const r = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
if (r.status !== 0) process.exit(r.status ?? 1);
writeFileSync(STAMP, String(sourceTime));
