// The import bench's floors: a bare Node HTTP server, in a process of its own as the product's
// server is, writing each request's body to one file as it arrives and answering `{}`: what the
// upload costs before anything is imported (the same client, the same bytes, the same disk).
// A request to `/import` then has DuckDB alone build its typed file from what arrived (the
// statements and settings the bench gives, as DuckDB alone is asked them) before it answers, while
// the main thread's event-loop delay is watched as the product's server's is (every 10 ms): the
// answer `{"stall": ms, "answers": [...]}` is the longest stall of a process doing the import's
// work with nothing of the product around it, and each statement's first row (for the bench to
// check a sample of what was built).
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { pipeline } from 'node:stream/promises';

const [target, database, statements, settings] = process.argv.slice(2);
const stalls = monitorEventLoopDelay({ resolution: 10 });

/** DuckDB alone builds its file from the one that arrived, as the bench's own floor does. */
async function importAlone() {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  await rm(database, { force: true });
  await rm(`${database}.wal`, { force: true });
  const instance = await DuckDBInstance.create(database, JSON.parse(settings));
  const c = await instance.connect();
  const answers = [];
  for (const sql of JSON.parse(statements)) answers.push((await c.runAndReadAll(sql)).getRowsJS()[0] ?? null);
  c.closeSync();
  instance.closeSync();
  return answers;
}

const server = createServer((req, res) => {
  const importing = req.url === '/import';
  if (importing) {
    stalls.reset();
    stalls.enable();
  }
  pipeline(req, createWriteStream(target))
    .then(() => (importing ? importAlone() : undefined))
    .then(
      (answers) => {
        stalls.disable();
        // DuckDB answers counts as BigInt.
        const said = JSON.stringify(answers, (_k, v) => (typeof v === 'bigint' ? Number(v) : v));
        res.end(importing ? `{"stall":${stalls.max / 1e6},"answers":${said}}` : '{}');
      },
      (e) => {
        stalls.disable();
        res.statusCode = 500;
        res.end(JSON.stringify({ error: String(e) }));
      },
    );
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => {
  if (m.cmd === 'close') server.close(() => process.exit(0));
});
