// `npm test`: builds what the tests exercise (renderer, Node bundles), runs every test file
// (engine, HTTP, main, end-to-end in Chromium), and ends with the line `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const run = (cmd, args) => spawnSync(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32' });

const build = run('npm', ['run', 'build']);
if (build.status !== 0) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
mkdirSync('tests/artifacts', { recursive: true });
const report = join('tests', 'artifacts', 'vitest-report.json');
rmSync(report, { force: true });
const vitest = run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)]);
let passed = 0;
let failed = 0;
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  passed = r.numPassedTests;
  failed = r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0) + (r.testResults ?? []).filter((t) => t.status === 'failed' && t.assertionResults.length === 0).length;
} catch {
  failed = Math.max(failed, 1);
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(vitest.status === 0 && failed === 0 ? 0 : 1);
