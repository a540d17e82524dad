// The layer rules are enforced by the linter; this proves the rules bite where they should.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const eslint = new ESLint({ cwd: root });
const lint = async (file: string, code: string) => (await eslint.lintText(code, { filePath: join(root, file) }))[0].messages.map((m) => m.message);

describe('layers', () => {
  it('refuses electron and upward imports in engine/', async () => {
    expect(await lint('engine/features/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toEqual([expect.stringMatching(/plain Node/)]);
    expect(await lint('engine/features/x.ts', "import { Shell } from '../../renderer/src/screens/shell/Shell';\nexport const s = Shell;\n")).toEqual([expect.stringMatching(/upward/)]);
  });

  it('lets the renderer import engine types only, and no Node', async () => {
    expect(await lint('renderer/src/x.ts', "import type { OpId } from '../../engine/catalogue';\nexport type X = OpId;\n")).toEqual([]);
    expect(await lint('renderer/src/x.ts', "import { OPERATIONS } from '../../engine/catalogue';\nexport const o = OPERATIONS;\n")).toEqual([expect.stringMatching(/only types/)]);
    expect(await lint('renderer/src/x.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n")).toEqual([expect.stringMatching(/sandboxed/)]);
  });

  it('keeps the whole tree clean', async () => {
    const results = await eslint.lintFiles(['engine', 'main', 'preload', 'renderer/src', 'tests', 'scripts']);
    const errors = results.flatMap((r) => r.messages.filter((m) => m.severity === 2).map((m) => `${r.filePath}:${m.line} ${m.message}`));
    expect(errors).toEqual([]);
  });
});
