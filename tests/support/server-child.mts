// A whole server (engine and HTTP) in a process of its own, one of several sharing a PostgreSQL
// database and a files folder (tests/scale): killed with SIGKILL as a crash would, and driven by
// the test on stdin, one command a line, answered on stdout as `<id> <answer>`:
//   clock <ms>  its clock runs that far ahead of real time (the engine's injected clock)
//   tick        the scheduler looks for due slots now (its own timers are off)
//   renew       the runner and the outbox renew the leases of what they hold
//   recover     the runner and the outbox take over work whose lease lapsed
//   owner       an API key of the tenant owner
//   started     how many runs this server started itself
//   waits <a>   milliseconds this server makes account <a> wait before its next sign-in from loopback
//   pace <ms>   each file it renders waits that long first (a slow renderer: a kill lands mid-run)
//   logged <t>  how many warnings and errors the server logged whose message contains <t>
import { createInterface } from 'node:readline';
import { createEngine } from '../../engine/engine.js';
import { startHttpServer } from '../../engine/http/server.js';
import { consoleLogger } from '../../engine/core/console-logger.js';
import type { Logger } from '../../engine/ops/context.js';
import { TEST_PASSWORD_WORK } from './password-work.js';

const env = process.env;
const key = Buffer.from(env.BROADSHEET_TEST_KEY ?? '', 'hex');
let offset = 0;
let paceMs = 0;
// What the server said went wrong, counted for `logged` (and shown with BROADSHEET_TEST_LOG=1).
const said: string[] = [];
const shown = env.BROADSHEET_TEST_LOG ? consoleLogger : null;
const logger: Logger = {
  info: (m, f) => shown?.info(m, f),
  warn: (m, f) => (said.push(m), shown?.warn(m, f)),
  error: (m, f) => (said.push(m), shown?.error(m, f)),
};
const engine = await createEngine({
  dataDir: env.BROADSHEET_TEST_DATA ?? '',
  passwordWork: TEST_PASSWORD_WORK,
  database: env.BROADSHEET_TEST_DATABASE,
  nodeId: env.BROADSHEET_TEST_NODE,
  secretKeys: { load: async () => key, save: async () => {} },
  demo: false,
  now: () => new Date(Date.now() + offset),
  schedulerTimers: false,
  leaseMs: Number(env.BROADSHEET_TEST_LEASE_MS ?? 600_000),
  mail: { baseDelayMs: 20, maxDelayMs: 200 },
  logger,
});
// The engine's own render pool, each file held back `paceMs` first when the test asks (`pace`).
const pool = engine.services.renders;
const render = pool.render.bind(pool);
pool.render = async (task) => {
  if (paceMs) await new Promise((r) => setTimeout(r, paceMs));
  return render(task);
};
const http = await startHttpServer(engine, { port: 0 });
const started = new Set<string>();
engine.on((e, from) => {
  if (!from && e.type === 'request.changed' && e.payload.status === 'running') started.add(e.payload.id);
});
process.stdout.write(`LISTENING ${http.url}\n`);

const commands: Record<string, (arg: string) => Promise<string | number>> = {
  clock: async (ms) => ((offset = Number(ms)), 'ok'),
  tick: async () => (await engine.scheduler.tick(), 'ok'),
  renew: async () => {
    await engine.runner.kernel.renewLeases();
    await engine.outbox.kernel.renewLeases();
    return 'ok';
  },
  recover: async () => (await engine.runner.kernel.recover(false)) + (await engine.outbox.kernel.recover(false)),
  owner: () => engine.issueOwnerKey(),
  started: async () => started.size,
  pace: async (ms) => ((paceMs = Number(ms)), 'ok'),
  logged: async (text) => said.filter((m) => m.includes(text)).length,
  waits: async (account) =>
    Math.max(
      ...['127.0.0.1', '::1', '::ffff:127.0.0.1'].map((at) => engine.services.signInThrottle.retryAfter(account, at)),
    ),
};
createInterface({ input: process.stdin }).on('line', (line) => {
  const [id, name, ...rest] = line.split(' ');
  const arg = rest.join(' ');
  void commands[name](arg).then(
    (answer) => process.stdout.write(`${id} ${answer}\n`),
    (e: Error) => process.stdout.write(`${id} ERROR ${e.message.replace(/\s+/g, ' ')}\n`),
  );
});
