// Start to first answer, as the built server starts it (`node` with SERVER_NODE_FLAGS and
// dist/engine/serve.cjs, what `npm run serve` runs after npm's own start): a first start on an
// empty folder, and a restart on a folder holding a working installation (the demo, 10,000 users,
// 10,000 schedules, 1,500 hub files). The floor: Node loading Fastify and sqlite3 and answering one
// route from a database, started the same way. Runs alternate, 12 of each; the first answer is read;
// each start's ratio is to the floor's start of its round.
import { figure } from './verdicts.js';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS } from '../../engine/core/heap-flags.js';
import { pct } from './stats.js';

const ROOT = join(__dirname, '..', '..');

/** The floor's server: what any start must do at least (load Fastify and sqlite3, answer from a database). */
const FLOOR = `
const fastify = require('fastify')();
const sqlite3 = require('sqlite3');
const db = new sqlite3.Database(process.argv[1] + '/floor.db');
fastify.get('/api/app/setup', () => new Promise((resolve, reject) =>
  db.get('SELECT 1 AS setupComplete', (e, row) => (e ? reject(e) : resolve({ isSuccess: true, data: row })))));
fastify.listen({ port: 0, host: '127.0.0.1' }).then((a) => console.log('serving ' + a));
`;

/** Milliseconds from spawning to the first answer of /api/app/setup, and that answer. */
async function firstAnswer(args: string[]): Promise<{ ms: number; body: { isSuccess?: boolean } }> {
  const t0 = performance.now();
  const child = spawn('node', args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /serving (http:\/\/[\d.:]+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.once('exit', (c) => reject(new Error(`exited ${c}: ${out}`)));
  });
  const body = (await (await fetch(`${url}/api/app/setup`)).json()) as { isSuccess?: boolean };
  const ms = performance.now() - t0;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  return { ms, body };
}

/** `installed`: a data folder holding a working installation, closed. */
export async function startBench(installed: string) {
  const floorDir = await mkdtemp(join(tmpdir(), 'bs-bench-floor-'));
  const serve = [...SERVER_NODE_FLAGS, 'dist/engine/serve.cjs', '--port', '0', '--data-dir'];
  const floor: number[] = [];
  const first: number[] = [];
  const restart: number[] = [];
  await firstAnswer(['-e', FLOOR, floorDir]); // Warms the disk cache for all three.
  await firstAnswer([...serve, installed]);
  for (let i = 0; i < 12; i++) {
    floor.push((await firstAnswer(['-e', FLOOR, floorDir])).ms);
    const empty = await mkdtemp(join(tmpdir(), 'bs-bench-first-'));
    const a = await firstAnswer([...serve, empty]);
    await rm(empty, { recursive: true, force: true });
    if (!a.body.isSuccess) throw new Error('the first start did not answer');
    first.push(a.ms);
    const b = await firstAnswer([...serve, installed]);
    if (!b.body.isSuccess) throw new Error('the restart did not answer');
    restart.push(b.ms);
  }
  await rm(floorDir, { recursive: true, force: true });
  const f = pct(floor, 50);
  // Each start is set beside the floor's start of its own round, a second before it. On one
  // machine, the same build, three runs of eight rounds a minute apart read the floor at 268-306 ms
  // and the ratio of the two medians at 1.38-1.72: a ratio over the whole part carried that drift.
  const row = (id: string, measure: string, xs: number[]) => ({
    measure,
    p50: `${pct(xs, 50).toFixed(0)} ms (min ${Math.min(...xs).toFixed(0)})`,
    floor: `${f.toFixed(0)} ms`,
    ratio: `${figure({
      id,
      measure: `${measure}, to the floor`,
      value: pct(
        xs.map((x, i) => x / floor[i]),
        50,
      ),
      unit: '×',
      goal: { atMost: 1.5 },
    }).toFixed(2)}x (goal 1.5x; median of each round's ratio)`,
  });
  return [
    row('start.first', 'first start, empty folder', first),
    row('start.restart', 'restart: demo, 10,000 users, 10,000 schedules, 1,500 hub files', restart),
  ];
}
