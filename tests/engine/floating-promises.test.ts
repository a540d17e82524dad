// Issue 40: a promise no one waits for, if it fails, is an unhandled rejection that ends the server.
// The engine has none: every promise is awaited or handles its own failure (eslint.promises.config.mjs).
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const eslint = new ESLint({ cwd: root, overrideConfigFile: join(root, 'eslint.promises.config.mjs') });

describe('promises in the engine', () => {
  it('flags a promise left floating, voided or not, and passes one that handles its failure', async () => {
    const [r] = await eslint.lintFiles([join(root, 'tests/engine/fixtures/floating-promise.ts')]);
    expect(r.messages.map((m) => [m.line, m.ruleId])).toEqual([
      [7, '@typescript-eslint/no-floating-promises'],
      [8, '@typescript-eslint/no-floating-promises'],
    ]);
  });

  it('leaves none floating in engine/', async () => {
    const results = await eslint.lintFiles([join(root, 'engine/**/*.ts')]);
    const found = results.flatMap((r) =>
      r.messages.map((m) => `${r.filePath.slice(root.length + 1)}:${m.line} ${m.message}`),
    );
    expect(results.length).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });
});
