// One server of the scaling bench (scale-bench.ts): the engine and its HTTP server on a shared
// PostgreSQL database, with a stand-in renderer that waits 200 ms a file — a render bound by I/O,
// as a rendering service elsewhere would be — so what is measured is how work spreads over servers,
// not how two cores share CPU. Answers on stdin: `owner` (an owner API key), `cpu` (its CPU ms).
import { scanTemplate } from '../../engine/render/templates/template-check.js';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { createEngine } from '../../engine/engine.js';
import { startHttpServer } from '../../engine/http/server.js';
import type { Renderer } from '../../engine/render/render-pool.js';

const WAIT_MS = Number(process.env.BENCH_RENDER_WAIT_MS ?? 200);

const standIn: Renderer = {
  threads: 1,
  async render(task) {
    await delay(WAIT_MS);
    return Buffer.from(`<html><body><h1>${task.report.title}</h1></body></html>`);
  },
  scanTemplate: (bytes, fileName) => scanTemplate(bytes, fileName),
  async fillTemplate() {
    await delay(WAIT_MS);
    return Buffer.from('template');
  },
  async close() {},
};

async function main() {
  const key = Buffer.from(process.env.BENCH_KEY ?? '', 'hex');
  const engine = await createEngine({
    dataDir: process.env.BENCH_DATA ?? '',
    database: process.env.BENCH_DATABASE,
    nodeId: process.env.BENCH_NODE,
    secretKeys: { load: async () => key, save: async () => {} },
    demo: false,
    renders: standIn,
  });
  const http = await startHttpServer(engine, { port: 0 });
  process.stdout.write(`LISTENING ${http.url}\n`);
  createInterface({ input: process.stdin }).on('line', (line) => {
    const [id, name] = line.split(' ');
    const answer =
      name === 'owner'
        ? engine.issueOwnerKey()
        : Promise.resolve(String(Math.round((process.cpuUsage().user + process.cpuUsage().system) / 1000)));
    void answer.then((a) => process.stdout.write(`${id} ${a}\n`));
  });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
