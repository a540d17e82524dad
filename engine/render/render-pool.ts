import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { Piscina } from 'piscina';
import type { RenderTask } from './render-worker.js';

/** Where the bundled worker lives: dist/engine/render-worker.cjs, found from wherever the engine runs. */
export function findRenderWorker(start = __dirname): string {
  if (process.env.BROADSHEET_RENDER_WORKER) return process.env.BROADSHEET_RENDER_WORKER;
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, 'dist', 'engine', 'render-worker.cjs');
    // Packaged, the worker is unpacked beside the asar archive (worker threads read real files).
    if (existsSync(candidate)) return candidate.replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');
    const sibling = join(dir, 'engine', 'render-worker.cjs');
    if (existsSync(sibling)) return sibling;
    if (dirname(dir) === dir) throw new Error('The render worker (dist/engine/render-worker.cjs) is missing: run npm run build');
  }
}

/** A pool of worker threads, one per core, that renders files from resolved reports. */
export class RenderPool {
  private pool: Piscina | null = null;

  constructor(private readonly threads = Math.max(1, availableParallelism())) {}

  private get piscina(): Piscina {
    this.pool ??= new Piscina({ filename: findRenderWorker(), minThreads: 1, maxThreads: this.threads, idleTimeout: 60_000 });
    return this.pool;
  }

  async render(task: RenderTask): Promise<Buffer> {
    const bytes = (await this.piscina.run(task, { name: 'render' })) as Uint8Array;
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async close() {
    await this.pool?.destroy();
    this.pool = null;
  }
}
