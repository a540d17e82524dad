import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: files run two at a time; Chromium tests are in their own files.
    maxWorkers: 2,
    // UI waits (a debounced preview, a download) take longer than expect.poll's one-second default.
    expect: { poll: { timeout: 15_000, interval: 100 } },
  },
});
