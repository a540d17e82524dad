// Lint, including the layer rules: engine/ never reaches up to Electron or the UI, and the renderer
// takes only types from the engine (its values would drag Node into the sandboxed page).
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const ENGINE_BASE = [
  { group: ['electron'], message: 'engine/ must run under plain Node: no electron' },
  {
    group: ['**/main/**', '**/preload/**', '**/renderer/**'],
    message: 'engine/ may not import upward (main, preload, renderer)',
  },
];
const COMPOSITION = ['**/http/**', '**/catalogue.js', '**/engine.js', '**/entities.js', '**/serve.js'];
const ABOVE_RENDER = [...COMPOSITION, '**/ops/**', '**/features/**'];
// Outside engine/analytics the embedded engine is reached through its door (analytics/embedded-analytics).
const EMBEDDED = {
  group: ['**/analytics/embedded/**'],
  message:
    'only engine/analytics sees the embedded engine: use the provider port (analytics/port) or analytics/embedded-analytics',
};

/** One layer's import rule (flat config replaces a rule per file, so each carries the base patterns). */
function engineLayer(files, patterns) {
  return {
    files,
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [...ENGINE_BASE, ...patterns] }] },
  };
}

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'release/**', 'tests/artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Code stays within 140 columns (Prettier wraps it at 120); a sentence said to a person, a URL,
      // a pattern or SQL in a string may run on, as breaking it would make it harder to read or find.
      'max-len': [
        'error',
        {
          code: 140,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreComments: false,
          ignoreUrls: true,
          ignoreRegExpLiterals: true,
        },
      ],
      'no-restricted-exports': [
        'error',
        {
          restrictDefaultExports: {
            direct: true,
            named: true,
            defaultFrom: true,
            namedFrom: true,
            namespaceFrom: true,
          },
        },
      ],
    },
  },
  // The engine's layers, lowest first: core (the ground floor) ← analytics ← render ← model (the
  // entities) ← access and ops (who may do what, and the operation machinery: the dispatcher asks
  // access, access reads the operation's context) ← features ← http and the composition root
  // (engine.ts, catalogue.ts, entities.ts). Each layer imports only from below.
  engineLayer(['engine/**/*.ts'], [EMBEDDED]),
  engineLayer(
    ['engine/core/**/*.ts', 'engine/migrations/**/*.ts'],
    [{ group: ['../**'], message: 'engine/core is the ground floor: it imports nothing else of the engine' }],
  ),
  engineLayer(
    ['engine/analytics/**/*.ts'],
    [
      {
        group: [...ABOVE_RENDER, '**/render/**'],
        message: 'engine/analytics sits on core alone: no render, ops, features, http or composition root',
      },
    ],
  ),
  engineLayer(
    ['engine/render/**/*.ts'],
    [
      EMBEDDED,
      {
        group: ABOVE_RENDER,
        message: 'engine/render sits on core and analytics: no ops, features, http or composition root',
      },
    ],
  ),
  engineLayer(
    ['engine/model/**/*.ts'],
    [
      EMBEDDED,
      {
        group: [...ABOVE_RENDER, '**/access/**'],
        message: 'engine/model sits on core, analytics and render: no access, ops, features, http or composition root',
      },
    ],
  ),
  engineLayer(
    ['engine/ops/**/*.ts', 'engine/access/**/*.ts'],
    [
      EMBEDDED,
      {
        group: [...COMPOSITION, '**/features/**'],
        message: 'engine/ops and engine/access sit below the features: they read the model, never a feature',
      },
    ],
  ),
  engineLayer(
    ['engine/features/**/*.ts'],
    [
      EMBEDDED,
      {
        group: COMPOSITION,
        message: 'features are composed by the root (engine.ts, catalogue.ts) and served by http: they import neither',
      },
    ],
  ),
  {
    files: ['renderer/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      // The renderer is typed from the engine's catalogue end to end: no way around it.
      '@typescript-eslint/no-explicit-any': 'error',
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            // The wire contract is shared by both sides (it holds constants and types only); the rest of
            // engine/ gives the renderer types alone, as its values would drag Node into the page.
            {
              regex: '/engine/(?!wire$)',
              message: 'the renderer imports only types from engine/ (values only from engine/wire)',
              allowTypeImports: true,
            },
            {
              group: ['node:*', 'fs', 'path', 'child_process', 'electron'],
              message: 'the renderer is a sandboxed page: no Node, no Electron',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['main/**/*.ts', 'preload/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/renderer/**'], message: 'main/ and preload/ do not import the renderer' }],
        },
      ],
    },
  },
  // Config files of tools that require a default export.
  {
    files: ['**/vite.config.ts', 'vitest.config.ts', 'eslint.config.mjs', 'eslint.promises.config.mjs'],
    rules: { 'no-restricted-exports': 'off' },
  },
);
