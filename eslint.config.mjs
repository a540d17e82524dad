// Lint, including the layer rules: engine/ never reaches up to Electron or the UI, and the renderer
// takes only types from the engine (its values would drag Node into the sandboxed page).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'release/**', 'tests/artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-exports': ['error', { restrictDefaultExports: { direct: true, named: true, defaultFrom: true, namedFrom: true, namespaceFrom: true } }],
    },
  },
  {
    files: ['engine/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { group: ['electron'], message: 'engine/ must run under plain Node: no electron' },
          { group: ['**/main/**', '**/preload/**', '**/renderer/**'], message: 'engine/ may not import upward (main, preload, renderer)' },
        ],
      }],
    },
  },
  {
    files: ['renderer/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/engine/**'], message: 'the renderer imports only types from engine/', allowTypeImports: true },
          { group: ['node:*', 'fs', 'path', 'child_process', 'electron'], message: 'the renderer is a sandboxed page: no Node, no Electron' },
        ],
      }],
    },
  },
  {
    files: ['main/**/*.ts', 'preload/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['**/renderer/**'], message: 'main/ and preload/ do not import the renderer' }],
      }],
    },
  },
  // Config files of tools that require a default export.
  { files: ['**/vite.config.ts', 'vitest.config.ts', 'eslint.config.mjs'], rules: { 'no-restricted-exports': 'off' } },
);
