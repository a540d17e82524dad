// What a complete build leaves in dist/: `scripts/build.mjs` builds when one is missing.
export const BUILD_OUTPUTS = [
  'dist/engine/serve.cjs',
  'dist/engine/serve-bundle.cjs',
  'dist/engine/render-worker.cjs',
  'dist/engine/import-worker.cjs',
  'dist/main/main.cjs',
  'dist/preload/preload.cjs',
  'dist/renderer/index.html',
];
