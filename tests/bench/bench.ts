// `npm run bench`: figures, not assertions, each against its floor measured in the same run.
// `npm run bench -- installation` (start and list pages), `-- import`, `-- tasks`, `-- templates`,
// `-- template-peers`, `-- office-pdf`, `-- template-check`, `-- scale`, `-- reload`, `-- backup`, `-- members`,
// `-- mail` or `-- reports` runs one part alone. Every run ends with each figure's verdict against
// its goal and tests/bench/baseline.json, and the line "N of M goals met; K slipped";
// `-- --save-baseline` (with or without a part) writes this run's figures into the baseline,
// `-- --add-to-baseline` only those it does not hold yet. `-- --runs 3` measures it all three times
// and judges each figure by its median (a baseline saved so keeps each figure's runs and spread).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createEngine } from '../../engine/engine.js';
import { fileKeyStore } from '../../engine/secret-key-file.js';
import { seedInstallation } from './installation.js';
import { listsBench } from './lists-bench.js';
import { startBench } from './start-bench.js';
import { reportBench } from './report-bench.js';
import { importBench } from './import-bench.js';
import { taskBench } from './task-bench.js';
import { mailBench } from './mail-bench.js';
import { membersBench } from './members-bench.js';
import { backupBench } from './backup-bench.js';
import { templateBench } from './template-bench.js';
import { templatePeersBench } from './template-peers-bench.js';
import { officePdfBench } from './office-pdf-bench.js';
import { scaleBench } from './scale-bench.js';
import { templateCheckBench } from './template-check-bench.js';
import { reloadBench } from './reload-bench.js';
import { closeVerdicts, figure, takeFigures, type Figure } from './verdicts.js';

const ROOT = join(__dirname, '..', '..');
const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 2_000_000);
const RELOAD_ROWS = Number(process.env.BENCH_RELOAD_ROWS ?? 2_000_000);

/** A working installation: its 10-row pages against bare SQL, then its restart against the floor. */
async function installationBench() {
  const dataDir = await mkdtemp(join(tmpdir(), 'bs-bench-installation-'));
  // The key where `serve` looks for it, so the restarts below open the same folder.
  const engine = await createEngine({ dataDir, secretKeys: fileKeyStore(join(dataDir, 'secret.key')) });
  const ownerKey = await engine.issueOwnerKey();
  const s0 = performance.now();
  await seedInstallation(engine);
  const seedMs = performance.now() - s0;
  console.log(
    `\nList pages: a 10-row page through the HTTP API against a bare route answering the same page, count and related rows in bare SQL (installation seeded in ${(seedMs / 1000).toFixed(1)} s):`,
  );
  console.table(await listsBench(engine, ownerKey));
  await engine.close();
  console.log(
    '\nStart to first answer (node dist/engine/serve.cjs), against Node loading Fastify and sqlite3 and answering from a database:',
  );
  console.table(await startBench(dataDir));
  await rm(dataDir, { recursive: true, force: true });
}

/**
 * The parts in the order the whole bench runs them, each with the line that heads its table. A part
 * run alone (`npm run bench -- <part>`) prints its table without the heading.
 */
const PARTS: Record<string, { heading: string; run: () => Promise<unknown> }> = {
  installation: { heading: '', run: installationBench },
  reports: {
    heading:
      'Report generation: KPI + 50-row table + bar chart, iterated over 500 customers of the demo app, zipped; against the same renderer on as many threads with the data in hand:',
    run: async () => console.table(await reportBench(500)),
  },
  templates: {
    heading:
      'Template reports: an Excel and a Word template filled for 500 customers of the demo app, against the same fill on as many pool threads with the data in hand:',
    run: async () => console.table(await templateBench(500)),
  },
  'template-peers': {
    heading:
      'Word and Excel fills against the peers, the same 500-row table, one thread each, warmed; then PDF from Word templates through LibreOffice kept warm, against LibreOffice converting the same files itself:',
    run: async () => {
      console.table(await templatePeersBench());
      console.table(await officePdfBench());
    },
  },
  'office-pdf': {
    heading: 'PDF from Word templates through LibreOffice kept warm (also in template-peers):',
    run: async () => console.table(await officePdfBench()),
  },
  'template-check': {
    heading:
      'Other calls while a 100,000-tag Word template is checked (in a render thread), against the same calls idle, same run:',
    run: async () => console.table(await templateCheckBench()),
  },
  tasks: {
    heading: 'The distribution loop: task runs, stop, on-demand latency, schedules loaded, fire drift:',
    run: async () => console.table(await taskBench()),
  },
  members: {
    heading:
      'Member permissions: a 10-row page of reports (sorted by name) for a member opened to 1,000 of 10,000, and for an administrator:',
    run: async () => console.table(await membersBench()),
  },
  backup: {
    heading:
      'A backup of a working installation (10,000 users, 400 files of 256 KiB, an app of 200,000 rows), against the same snapshots and tar.gz done bare:',
    run: async () => console.table(await backupBench()),
  },
  mail: {
    heading: 'Mail through the persisted outbox to a loopback SMTP server, one PDF attached each:',
    run: async () => console.table(await mailBench(1000)),
  },
  scale: {
    heading:
      'Servers on one PostgreSQL database: 120 single-file runs whose render waits 200 ms (bound by I/O), against N times one server:',
    run: async () => console.table(await scaleBench()),
  },
  import: {
    heading: `Large import: a ${IMPORT_ROWS.toLocaleString('en')}-row CSV uploaded as the file itself (BENCH_IMPORT_ROWS=0 skips it):`,
    run: () => importBench(IMPORT_ROWS),
  },
  reload: {
    heading: `A reload from PostgreSQL: ${RELOAD_ROWS.toLocaleString('en')} rows streamed into a new version of an app, against psql \\copy plus the engine's import of that file (BENCH_RELOAD_ROWS=0 skips it):`,
    run: async () => console.table(await reloadBench(RELOAD_ROWS)),
  },
};

/** Parts the whole bench leaves out: office-pdf is run within template-peers; the others by their sizes. */
const skippedInWhole = (part: string) =>
  part === 'office-pdf' || (part === 'import' && IMPORT_ROWS <= 0) || (part === 'reload' && RELOAD_ROWS <= 0);

async function main() {
  const args = process.argv.slice(2);
  const save = args.includes('--save-baseline') ? 'all' : args.includes('--add-to-baseline') ? 'new' : null;
  const runsAt = args.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 1;
  if (!Number.isInteger(runs) || runs < 1 || runs > 9) throw new Error('--runs takes a whole number from 1 to 9');
  const figuresAt = args.indexOf('--figures-to');
  const part = args.find(
    (a, i) => !a.startsWith('--') && !(runsAt >= 0 && i === runsAt + 1) && !(figuresAt >= 0 && i === figuresAt + 1),
  );
  if (part && !PARTS[part]) throw new Error(`no bench part "${part}": ${Object.keys(PARTS).join(', ')}`);
  if (figuresAt >= 0 && part) {
    // A part in a process of its own, for the whole bench: its figures go back in a file.
    await PARTS[part].run();
    console.log(`(this part's process: peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB)`);
    writeFileSync(args[figuresAt + 1], JSON.stringify(takeFigures()));
    return;
  }
  // The build is brought up to date first, so the runs time a start, not a build.
  spawnSync('node', ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  console.log('Broadsheet bench (Node %s, %s)', process.version, process.arch);
  for (let run = 1; run <= runs; run++) {
    if (runs > 1) console.log(`\n=== run ${run} of ${runs} ===`);
    if (part) await PARTS[part].run();
    else await everything();
  }
  closeVerdicts({ save, about: aboutThisRun(runs) });
}

/** Where the figures came from, kept in the baseline beside them. */
function aboutThisRun(runs: number): string {
  return `npm run bench${runs > 1 ? ` --runs ${runs} (medians)` : ''} on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}

/**
 * Every part, each in a Node process of its own, as a server runs alone: run one after another in
 * one process, a part's figures carried the heap and the threads the parts before it left (hub
 * publish read 1.08–1.34× run alone and 1.27–1.58× in the whole bench).
 */
async function everything() {
  const folder = await mkdtemp(join(tmpdir(), 'bs-bench-figures-'));
  try {
    for (const [part, { heading }] of Object.entries(PARTS)) {
      if (skippedInWhole(part)) continue;
      if (heading) console.log(`\n${heading}`);
      const file = join(folder, `${part}.json`);
      const child = spawnSync(process.execPath, [...process.execArgv, __filename, part, '--figures-to', file], {
        cwd: ROOT,
        stdio: 'inherit',
      });
      if (child.status !== 0) throw new Error(`the ${part} part ended with ${child.status ?? child.signal}`);
      for (const f of JSON.parse(readFileSync(file, 'utf8')) as Figure[]) figure(f);
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
