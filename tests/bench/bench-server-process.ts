// Starts bench-server.ts (built as dist/bench/bench-server.cjs) in a process of its own on a data
// folder of the bench's, with the flags `npm run serve` gives Node: the import and reload benches
// read its memory from outside.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { SERVER_NODE_FLAGS } from '../../engine/core/heap-flags.js';

const ROOT = join(__dirname, '..', '..');

export function startBenchServer(dataDir: string, nodeId: string): Promise<ServerProcess> {
  const key = randomBytes(32);
  return startServerProcess({
    dataDir,
    database: '',
    nodeId,
    key,
    program: {
      args: [...SERVER_NODE_FLAGS, join(ROOT, 'dist', 'bench', 'bench-server.cjs')],
      env: { BENCH_DATA: dataDir, BENCH_KEY: key.toString('hex') },
    },
  });
}
