import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    // Room for a busy machine (`npm run test:loaded` keeps both cores loaded): a test that waits on
    // events passes slowly there rather than failing on a deadline meant for an idle one.
    testTimeout: 180_000,
    hookTimeout: 240_000,
    pool: 'forks',
    // Two cores: files run two at a time; Chromium tests are in their own files.
    maxWorkers: 2,
    // UI waits (a debounced preview, a download) take longer than expect.poll's one-second default.
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
