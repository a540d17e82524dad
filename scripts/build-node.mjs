// Bundles the Node side (engine server, Electron main and preload, benchmarks) with esbuild.
// Packages stay external: sqlite3 is native and TypeORM loads drivers dynamically.
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  packages: 'external',
  logLevel: 'warning',
};
await Promise.all([
  build({ ...common, entryPoints: ['engine/serve.ts'], outfile: 'dist/engine/serve.cjs' }),
  build({ ...common, entryPoints: ['engine/render/render-worker.ts'], outfile: 'dist/engine/render-worker.cjs' }),
  build({
    ...common,
    entryPoints: ['engine/analytics/embedded/import-worker.ts'],
    outfile: 'dist/engine/import-worker.cjs',
  }),
  build({ ...common, entryPoints: ['main/main.ts'], outfile: 'dist/main/main.cjs', external: ['electron'] }),
  build({
    ...common,
    entryPoints: ['preload/preload.ts'],
    outfile: 'dist/preload/preload.cjs',
    external: ['electron'],
  }),
  build({ ...common, entryPoints: ['tests/bench/bench.ts'], outfile: 'dist/bench/bench.cjs' }),
]);
