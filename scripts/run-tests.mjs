// `npm test`: builds what the tests exercise (renderer, Node bundles), runs every test file
// (engine, HTTP, main, end-to-end in Chromium), and ends with the line `N passed, N failed`.
// `npm run test:quick` (`--quick`): the engine and HTTP suites alone, on SQLite, without Chromium,
// PostgreSQL or the renderer's build (the Node bundles the render threads load take two seconds).
// Each run prints its slowest files beside tests/timings.json (`--save-timings` writes it).
// The tests run with a temporary folder of their own: whatever a test leaves there is named, counted
// as a failure (tests remove what they make), and removed, so no run leaves folders behind.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const run = (cmd, args, env = process.env) =>
  spawnSync(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32', env });

/** The suites of the quick tier: the engine and its HTTP doors; no browser, no PostgreSQL, no LibreOffice. */
const QUICK = [
  'tests/engine',
  'tests/http',
  'tests/tasks',
  'tests/users',
  'tests/members',
  'tests/scheduler',
  'tests/store',
  'tests/sign-in',
  'tests/reports',
];
const TIMINGS = join('tests', 'timings.json');
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const saveTimings = args.includes('--save-timings');
const passOn = args.filter((a) => a !== '--quick' && a !== '--save-timings');

const build = run('npm', ['run', quick ? 'build:node' : 'build']);
if (build.status !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
mkdirSync('tests/artifacts', { recursive: true });
const report = join('tests', 'artifacts', 'vitest-report.json');
rmSync(report, { force: true });
const scratch = mkdtempSync(join(tmpdir(), 'broadsheet-tests-'));
const env = { ...process.env, TMPDIR: scratch, TMP: scratch, TEMP: scratch };
const vitest = run(
  'npx',
  [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${report}`,
    ...(quick ? ['--project', 'sqlite', ...QUICK] : []),
    ...passOn,
  ],
  env,
);
let passed = 0;
let failed = 0;
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  slowest(r);
  passed = r.numPassedTests;
  failed =
    r.numFailedTests +
    (r.numRuntimeErrorTestSuites ?? 0) +
    // A file that failed with none of its tests failed (its beforeAll threw: its tests are skipped)
    // counts once, or the last line would read "0 failed" for it.
    (r.testResults ?? []).filter((t) => t.status === 'failed' && !t.assertionResults.some((a) => a.status === 'failed'))
      .length;
} catch {
  failed = Math.max(failed, 1);
}
/**
 * The slowest files of this run beside the committed list's figures: a file grown much slower is
 * named, so a suite that creeps towards its limit is seen the day it slips, not when CI times out.
 */
function slowest(r) {
  const seconds = new Map();
  for (const t of r.testResults ?? []) {
    const file = t.name.slice(t.name.indexOf('tests/'));
    seconds.set(file, (seconds.get(file) ?? 0) + (t.endTime - t.startTime) / 1000);
  }
  let before = {};
  try {
    before = JSON.parse(readFileSync(TIMINGS, 'utf8')).seconds ?? {};
  } catch {
    // No list yet: this run's figures are printed alone.
  }
  const top = [...seconds].sort((a, b) => b[1] - a[1]).slice(0, 15);
  console.log(`Slowest files (seconds; against ${TIMINGS}):`);
  for (const [file, s] of top) {
    const was = before[file];
    const slipped = was !== undefined && s > was * 1.5 && s - was > 10;
    console.log(
      `  ${s.toFixed(0).padStart(5)}  ${was === undefined ? '    –' : String(Math.round(was)).padStart(5)}  ${file}${slipped ? '  ← slower by half' : ''}`,
    );
  }
  if (saveTimings && !quick) {
    const all = Object.fromEntries([...seconds].sort((a, b) => b[1] - a[1]).map(([f, s]) => [f, Math.round(s)]));
    writeFileSync(
      TIMINGS,
      `${JSON.stringify({ note: 'npm test -- --save-timings; seconds per file, both projects', seconds: all }, null, 2)}\n`,
    );
    console.log(`Wrote ${TIMINGS}`);
  }
}

// Our own folders (bs-*, broadsheet-*) left behind are a test's fault; others (a browser's) are only named.
const left = readdirSync(scratch);
const ours = left.filter((name) => /^(bs-|broadsheet-)/.test(name));
if (left.length) console.log(`Temporary files left by the tests: ${left.join(', ')}`);
if (ours.length) failed += 1;
rmSync(scratch, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(vitest.status === 0 && failed === 0 ? 0 : 1);
