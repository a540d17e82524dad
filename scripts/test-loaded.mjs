// `npm run test:loaded`: the whole suite twice in a row while two busy-loop processes keep both
// cores loaded, as a slow CI machine or a designer's busy workstation would. The loops are bounded
// (two hours at most) and killed when the runs end. The last line is `N passed, N failed` over both runs.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';

const loops = Array.from({ length: Math.max(2, availableParallelism()) }, () =>
  spawn(process.execPath, ['-e', 'const end = Date.now() + 2 * 3600e3; let x = 0; while (Date.now() < end) x++;'], {
    stdio: 'ignore',
  }),
);
const stop = () => loops.forEach((l) => l.exitCode === null && l.kill('SIGKILL'));
process.on('exit', stop);
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));

let passed = 0;
let failed = 0;
for (let run = 1; run <= 2; run++) {
  console.log(`\n=== Run ${run} of 2 with ${loops.length} busy loops ===`);
  // Shown as it comes (a run takes a while); the tail is kept to read the run's closing line.
  let tail = '';
  await new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/run-tests.mjs', ...process.argv.slice(2)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      tail = (tail + chunk.toString()).slice(-4096);
    });
    child.on('exit', resolve);
  });
  const m = /(\d+) passed, (\d+) failed\s*$/.exec(tail);
  passed += m ? Number(m[1]) : 0;
  failed += m ? Number(m[2]) : 1;
  console.log(`=== Run ${run}: ${m ? `${m[1]} passed, ${m[2]} failed` : 'no result'} ===`);
}
stop();
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
