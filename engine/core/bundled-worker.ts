import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Where a bundled worker-thread entry lives (dist/engine/NAME), found from wherever the engine
 * runs: the source tree under tests, dist/ under serve, the asar archive when packaged.
 */
export function findBundledWorker(fileName: string, start = __dirname): string {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, 'dist', 'engine', fileName);
    // Packaged, workers are unpacked beside the asar archive (worker threads read real files).
    if (existsSync(candidate)) return candidate.replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');
    const sibling = join(dir, 'engine', fileName);
    if (existsSync(sibling)) return sibling;
    if (dirname(dir) === dir) throw new Error(`The worker dist/engine/${fileName} is missing: run npm run build`);
  }
}
