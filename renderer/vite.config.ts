import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { META_CONTENT_SECURITY_POLICY } from '../engine/http/security-headers';

// The renderer builds to dist/renderer with relative asset paths, so the same build loads from
// file:// under Electron and from `npm run serve` over HTTP.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  // The page's own policy is the engine's, written in at build time so the two cannot drift apart.
  plugins: [
    react(),
    {
      name: 'broadsheet-csp',
      transformIndexHtml: (html) => html.replace('%BROADSHEET_CSP%', META_CONTENT_SECURITY_POLICY),
    },
  ],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    target: 'es2022',
  },
  server: { proxy: { '/api': 'http://127.0.0.1:5123' } },
});
