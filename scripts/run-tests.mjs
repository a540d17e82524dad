// `npm test`: builds what the tests exercise (renderer, Node bundles), runs every test file
// (engine, HTTP, main, end-to-end in Chromium), and ends with the line `N passed, N failed`.
// The tests run with a temporary folder of their own: whatever a test leaves there is named, counted
// as a failure (tests remove what they make), and removed, so no run leaves folders behind.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const run = (cmd, args, env = process.env) =>
  spawnSync(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32', env });

const build = run('npm', ['run', 'build']);
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
  ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  env,
);
let passed = 0;
let failed = 0;
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed = r.numPassedTests;
  failed =
    r.numFailedTests +
    (r.numRuntimeErrorTestSuites ?? 0) +
    (r.testResults ?? []).filter((t) => t.status === 'failed' && t.assertionResults.length === 0).length;
} catch {
  failed = Math.max(failed, 1);
}
// Our own folders (bs-*, broadsheet-*) left behind are a test's fault; others (a browser's) are only named.
const left = readdirSync(scratch);
const ours = left.filter((name) => /^(bs-|broadsheet-)/.test(name));
if (left.length) console.log(`Temporary files left by the tests: ${left.join(', ')}`);
if (ours.length) failed += 1;
rmSync(scratch, { recursive: true, force: true });
console.log(`${passed} passed, ${failed} failed`);
process.exit(vitest.status === 0 && failed === 0 ? 0 : 1);
