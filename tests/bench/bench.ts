// `npm run bench`: figures, not assertions. Prints the cold start of `serve` to its first answer and
// the latency of a 10-row page of users out of 10,000, beside the bare SQLite query for the same page.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createEngine } from '../../engine/engine.js';
import { startHttpServer } from '../../engine/http/server.js';
import { reportBench } from './report-bench.js';
import { importBench } from './import-bench.js';
import { taskBench } from './task-bench.js';
import { mailBench } from './mail-bench.js';
import { membersBench } from './members-bench.js';
import { backupBench } from './backup-bench.js';
import { templateBench } from './template-bench.js';

const ROOT = join(__dirname, '..', '..');
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const ms = (x: number) => `${x.toFixed(2)} ms`;

async function coldStart(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'bs-bench-serve-'));
  const t0 = performance.now();
  // Through the command users run: npm run serve (which builds only when sources changed).
  const child = spawn('npm', ['run', 'serve', '--', '--data-dir', dir, '--port', '0'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /serving (http:\/\/[\d.:]+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (c) => reject(new Error(`serve exited ${c}: ${out}`)));
  });
  const res = await fetch(`${url}/api/app/setup`);
  await res.json();
  const elapsed = performance.now() - t0;
  const exited = new Promise((r) => child.once('exit', r));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
  await rm(dir, { recursive: true, force: true });
  return elapsed;
}

async function usersPage() {
  const dataDir = await mkdtemp(join(tmpdir(), 'bs-bench-users-'));
  const key = randomBytes(32);
  const engine = await createEngine({
    dataDir,
    secretKeys: { load: async () => key, save: async () => {} },
    demo: false,
  });
  const ownerKey = await engine.issueOwnerKey();
  const db = engine.services.db;
  const [{ id: orgId }] = await db.query('SELECT id FROM organizations LIMIT 1');
  const [{ id: groupId }] = await db.query('SELECT id FROM groups LIMIT 1');
  const [{ id: roleId }] = await db.query("SELECT id FROM roles WHERE name = 'Hub users'");
  const t0 = performance.now();
  const runner = db.createQueryRunner();
  await runner.startTransaction();
  const now = new Date().toISOString().replace('T', ' ').replace('Z', '');
  for (let i = 0; i < 10_000; i++) {
    const id = randomUUID();
    await runner.query(
      'INSERT INTO users (id, createdDate, modifiedDate, kind, firstName, lastName, email, isActive) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [
        id,
        now,
        now,
        i % 5 ? 'user' : 'recipient',
        `First${i % 97}`,
        `Last${i}`,
        `user${i}@bench.example`,
        i % 7 ? 1 : 0,
      ],
    );
    await runner.query('INSERT INTO user_organizations (userId, targetId) VALUES (?, ?)', [id, orgId]);
    await runner.query('INSERT INTO user_groups (userId, targetId) VALUES (?, ?)', [id, groupId]);
    await runner.query('INSERT INTO user_roles (userId, targetId) VALUES (?, ?)', [id, roleId]);
  }
  await runner.commitTransaction();
  await runner.release();
  const seedMs = performance.now() - t0;
  const server = await startHttpServer(engine, { port: 0 });
  const pages = 999;
  const samples: number[] = [];
  const bare: number[] = [];
  const headers = { authorization: `Bearer ${ownerKey}` };
  for (let i = 0; i < 30; i++)
    await (await fetch(`${server.url}/api/v1/users?page=${i + 1}&page_size=10`, { headers })).json();
  for (let i = 0; i < 300; i++) {
    const page = 1 + ((i * 37) % pages);
    const t = performance.now();
    const body = (await (
      await fetch(`${server.url}/api/v1/users?page=${page}&page_size=10&sort_by=FullName`, { headers })
    ).json()) as { data: unknown[] };
    samples.push(performance.now() - t);
    if (body.data.length !== 10) throw new Error('expected 10 rows');
    const b = performance.now();
    await db.query("SELECT * FROM users u ORDER BY LOWER(u.firstName || ' ' || u.lastName), u.id LIMIT 10 OFFSET ?", [
      (page - 1) * 10,
    ]);
    await db.query('SELECT COUNT(*) FROM users');
    bare.push(performance.now() - b);
  }
  await server.close();
  await engine.close();
  await rm(dataDir, { recursive: true, force: true });
  return { seedMs, samples, bare };
}

async function main() {
  // `npm run bench -- templates` runs one part alone.
  if (process.argv[2] === 'templates') {
    console.table(await templateBench(500));
    return;
  }
  console.log('Broadsheet bench (Node %s, %s)', process.version, process.arch);
  // The build is brought up to date first, so the runs time a start, not a build.
  spawnSync('node', ['scripts/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  const starts: number[] = [];
  for (let i = 0; i < 5; i++) starts.push(await coldStart());
  console.log(
    `\nCold start of \`npm run serve\` to first answer (build current, empty folder, first start included), 5 runs:`,
  );
  console.log(`  p50 ${ms(pct(starts, 50))}   min ${ms(Math.min(...starts))}   max ${ms(Math.max(...starts))}`);

  const { seedMs, samples, bare } = await usersPage();
  const p50 = pct(samples, 50);
  const bareP50 = pct(bare, 50);
  console.log(
    `\nGET /api/v1/users, 10-row page out of 10,000 users (sorted by FullName, with roles/groups/organizations), 300 requests:`,
  );
  console.log(`  seeding 10,000 users: ${ms(seedMs)}`);
  console.log(`  p50 ${ms(p50)}   p95 ${ms(pct(samples, 95))}   p99 ${ms(pct(samples, 99))}`);
  console.log(
    `  bare SQLite page + count query p50 ${ms(bareP50)}; ratio full HTTP path / bare query: ${(p50 / bareP50).toFixed(1)}x`,
  );
  console.log(
    `\nReport generation: KPI + 50-row table + bar chart, iterated over 500 customers of the demo app, zipped; against the same renderer on as many threads with the data in hand:`,
  );
  console.table(await reportBench(500));
  console.log(
    '\nTemplate reports: an Excel and a Word template filled for 500 customers of the demo app, against the same fill on as many pool threads with the data in hand:',
  );
  console.table(await templateBench(500));
  console.log('\nThe distribution loop: task runs, stop, on-demand latency, schedules loaded, fire drift:');
  console.table(await taskBench());
  console.log(
    '\nMember permissions: a 10-row page of reports (sorted by name) for a member opened to 1,000 of 10,000, and for an administrator:',
  );
  console.table(await membersBench());
  console.log(
    '\nA backup of a working installation (10,000 users, 400 files of 256 KiB, an app of 200,000 rows), against the same snapshots and tar.gz done bare:',
  );
  console.table(await backupBench());
  console.log('\nMail through the persisted outbox to a loopback SMTP server, one PDF attached each:');
  console.table(await mailBench(1000));
  const importRows = Number(process.env.BENCH_IMPORT_ROWS ?? 2_000_000);
  if (importRows > 0) {
    console.log(
      `\nLarge import: a ${importRows.toLocaleString('en')}-row XLSX through POST /api/app/analytics/{id}/import (BENCH_IMPORT_ROWS=0 skips it):`,
    );
    await importBench(importRows);
  }
  const mem = process.memoryUsage();
  console.log(
    `\nBench process peak RSS about ${(mem.rss / 1024 / 1024).toFixed(0)} MiB, heap used ${(mem.heapUsed / 1024 / 1024).toFixed(0)} MiB`,
  );
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
