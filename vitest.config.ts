import { defineConfig } from 'vitest/config';

/**
 * The suites that run a second time on PostgreSQL (issue 26), each server on a database of its own
 * in one cluster the project starts: conformance (every operation's answers), distribution (runs,
 * mail, folders, FTP/SFTP, hub, two engines sharing work, crashes mid-run and mid-send) and the
 * store's users, members, tasks, schedules and sign-in throttling. Three servers as processes of their own are tests/scale (a cluster of
 * their own). BROADSHEET_PG_TESTS=a,b (globs) runs others there while looking into one.
 */
const ON_POSTGRES = process.env.BROADSHEET_PG_TESTS?.split(',').filter(Boolean) ?? [
  'tests/http/conformance.test.ts',
  'tests/mail/*.test.ts',
  'tests/storage/*.test.ts',
  'tests/hub/*.test.ts',
  'tests/requests/*.test.ts',
  'tests/members/*.test.ts',
  'tests/users/*.test.ts',
  'tests/tasks/*.test.ts',
  'tests/scheduler/scheduler-clock.test.ts',
  'tests/scheduler/scheduler-reload.test.ts',
  'tests/security/throttling.test.ts',
  'tests/store/claims.contract.test.ts',
];

export default defineConfig({
  test: {
    // Room for a busy machine (`npm run test:loaded` keeps both cores loaded): a test that waits on
    // events passes slowly there rather than failing on a deadline meant for an idle one.
    testTimeout: 180_000,
    hookTimeout: 240_000,
    pool: 'forks',
    // Two cores: files run two at a time; Chromium tests are in their own files.
    maxWorkers: 2,
    // UI waits (a debounced preview, a download) take longer than expect.poll's one-second default.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['tests/**/*.test.ts'] } },
      {
        extends: true,
        test: { name: 'postgres', include: ON_POSTGRES, globalSetup: ['tests/support/postgres-global.ts'] },
      },
    ],
  },
});
