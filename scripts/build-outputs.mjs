// What a complete build leaves in dist/: `scripts/build.mjs` builds when one is missing.

/** The worker threads' entries: each is unpacked beside the asar archive (threads read real files). */
export const WORKERS = [
  'dist/engine/render-worker.cjs',
  'dist/engine/chart-worker.cjs',
  'dist/engine/import-worker.cjs',
  'dist/engine/source-reader.cjs',
];

export const BUILD_OUTPUTS = [
  'dist/engine/serve.cjs',
  'dist/engine/serve-bundle.cjs',
  ...WORKERS,
  'dist/main/main.cjs',
  'dist/preload/preload.cjs',
  'dist/renderer/index.html',
];
