// Promises no one waits for, in the engine: each must be awaited or end in its own handling
// (`.catch`, or `.then` with a failure branch). `void` does not count: a voided promise that fails
// is an unhandled rejection, which ends a server (issue 40: `void saveProgress()` took three servers
// down when PostgreSQL restarted). Type-aware, so kept apart from the main config (whose tests lint
// snippets that are not files); `npm run lint` and tests/engine/floating-promises.test.ts run it.
import tseslint from 'typescript-eslint';

export const FLOATING_PROMISE_FILES = ['engine/**/*.ts', 'tests/engine/fixtures/floating-*.ts'];

export default [
  {
    files: FLOATING_PROMISE_FILES,
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: false }],
    },
  },
];
