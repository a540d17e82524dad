// A server of the import and reload benches in a process of its own (the engine and its HTTP
// server on a data folder, SQLite, nothing stood in), so that its memory is the server's alone:
// the bench samples this process's resident set from outside, as a person's task manager would,
// beside the same server idle. Driven on stdin, one command a line, answered as `<id> <answer>`:
//   owner            an API key of the tenant owner
//   invoke <json>    {op, input, times?}: the operation as the owner over HTTP would call it, without
//                    the HTTP around it; answers its data, or with `times` the p50 of as many calls
//   evaluate <json>  {app, expression, selections?, times}: the evaluation in the engine, no HTTP
//                    around it, `times` warmed runs; answers {value, p50}
//   importFile <json> {app, csv}: the engine's import of a CSV file (the reload's floor); answers ms
//   iterate <json>   {app, field, values, expression, chart}: an iterated report's data as a run reads
//                    it (a KPI and a chart per value, through the grouped reads); answers {p50, sample}
//   stalls start|stop  the main thread's event-loop delay watched; `stop` answers the longest, in ms
//   profile start|<file>  the main thread's CPU profile: `start`, then the file to write it to (a
//                    .cpuprofile for Chrome's DevTools), when looking into where a call's time goes
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { createInterface } from 'node:readline';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createEngine, silentLogger } from '../../engine/engine.js';
import { startHttpServer } from '../../engine/http/server.js';
import { iteratingReads } from '../../engine/analytics/iterating-reads.js';
import type { ChartDef } from '../../engine/analytics/model.js';
import { pct } from './stats.js';

async function main() {
  const key = Buffer.from(process.env.BENCH_KEY ?? '', 'hex');
  const memoryMb = Number(process.env.BENCH_IMPORT_MEMORY_MB ?? 0) || undefined;
  const engine = await createEngine({
    dataDir: process.env.BENCH_DATA ?? '',
    secretKeys: { load: async () => key, save: async () => {} },
    demo: false,
    // Its answers are read by the bench; a log line would only cross its output.
    logger: silentLogger,
    importLimits: memoryMb ? { memoryMb } : undefined,
  });
  const http = await startHttpServer(engine, { port: 0 });
  const owner = await engine.issueOwnerKey();
  const stalls = monitorEventLoopDelay({ resolution: 10 });
  const profiler = new Session();

  const commands: Record<string, (arg: string) => Promise<string>> = {
    owner: async () => owner,
    async invoke(arg) {
      const { op, input, times } = JSON.parse(arg) as { op: string; input: object; times?: number };
      const a = await engine.invoke(op, input as never, { token: owner, transport: 'http' });
      if (a.status !== 200) throw new Error(`${op}: ${JSON.stringify(a.envelope)}`);
      if (!times) return JSON.stringify(a.envelope.data);
      const ms: number[] = [];
      for (let i = 0; i < times; i++) {
        const t = performance.now();
        await engine.invoke(op, input as never, { token: owner, transport: 'http' });
        ms.push(performance.now() - t);
      }
      return JSON.stringify({ p50: pct(ms, 50) });
    },
    async evaluate(arg) {
      const { app, expression, selections, times } = JSON.parse(arg) as {
        app: string;
        expression: string;
        selections?: Record<string, string[]>;
        times: number;
      };
      let value: unknown = await engine.services.analytics.evaluate(app, expression, selections);
      const ms: number[] = [];
      for (let i = 0; i < times; i++) {
        const t = performance.now();
        value = await engine.services.analytics.evaluate(app, expression, selections);
        ms.push(performance.now() - t);
      }
      return JSON.stringify({ value, p50: pct(ms, 50) });
    },
    async iterate(arg) {
      const { app, field, values, expression, chart } = JSON.parse(arg) as {
        app: string;
        field: string;
        values: string[];
        expression: string;
        chart: ChartDef;
      };
      const base = { [field]: values };
      const once = async () => {
        const reads = iteratingReads(engine.services.analytics, app, [field], base);
        const answers = await Promise.all(
          values.map(async (v) => {
            const sel = { [field]: [v] };
            return [await reads.evaluate(app, expression, sel), await reads.chartData(app, chart, sel)] as const;
          }),
        );
        return answers;
      };
      await once();
      const ms: number[] = [];
      let answers = await once();
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        answers = await once();
        ms.push(performance.now() - t);
      }
      // A sample checked against the same value asked alone.
      const k = Math.floor(values.length / 2);
      const sel = { [field]: [values[k]] };
      const alone = [
        await engine.services.analytics.evaluate(app, expression, sel),
        await engine.services.analytics.chartData(app, chart, sel),
      ];
      return JSON.stringify({ p50: pct(ms, 50), checked: JSON.stringify(alone) === JSON.stringify(answers[k]) });
    },
    async importFile(arg) {
      const { app, csv } = JSON.parse(arg) as { app: string; csv: string };
      const t = performance.now();
      await engine.services.embedded.importFromFile(app, 'csv', csv, 'orders.csv');
      return String(performance.now() - t);
    },
    async profile(arg) {
      if (arg === 'start') {
        profiler.connect();
        await profiler.post('Profiler.enable');
        await profiler.post('Profiler.start');
        return 'profiling';
      }
      const { profile } = await profiler.post('Profiler.stop');
      profiler.disconnect();
      await writeFile(arg, JSON.stringify(profile));
      return arg;
    },
    async stalls(arg) {
      if (arg === 'start') {
        stalls.reset();
        stalls.enable();
        return 'watching';
      }
      stalls.disable();
      return String(stalls.max / 1e6);
    },
  };

  process.stdout.write(`LISTENING ${http.url}\n`);
  createInterface({ input: process.stdin }).on('line', (line) => {
    const [id, name] = line.split(' ', 2);
    const arg = line.slice(id.length + name.length + 2);
    const run = commands[name] ?? (async () => Promise.reject(new Error(`no command ${name}`)));
    void run(arg).then(
      (a) => process.stdout.write(`${id} ${a}\n`),
      (e: Error) => process.stdout.write(`${id} ERROR ${e.message.replace(/\n/g, ' ')}\n`),
    );
  });
  process.once(
    'SIGTERM',
    () =>
      void http
        .close()
        .then(() => engine.close())
        .then(() => process.exit(0)),
  );
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
