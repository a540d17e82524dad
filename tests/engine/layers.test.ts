// The layer rules are enforced by the linter; this proves the rules bite where they should.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';

const root = join(__dirname, '..', '..');
const eslint = new ESLint({ cwd: root });
const lint = async (file: string, code: string) =>
  (await eslint.lintText(code, { filePath: join(root, file) }))[0].messages.map((m) => m.message);

describe('layers', () => {
  it('refuses electron and upward imports in engine/', async () => {
    expect(await lint('engine/features/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toEqual([
      expect.stringMatching(/plain Node/),
    ]);
    expect(
      await lint(
        'engine/features/x.ts',
        "import { Shell } from '../../renderer/src/screens/shell/Shell';\nexport const s = Shell;\n",
      ),
    ).toEqual([expect.stringMatching(/upward/)]);
  });

  it('keeps each engine layer to the layers below it', async () => {
    const imp = (spec: string) => `import { x } from '${spec}';\nexport const y = x;\n`;
    // core is the ground floor.
    expect(await lint('engine/core/x.ts', imp('../model/users.entity.js'))).toEqual([
      expect.stringMatching(/ground floor/),
    ]);
    expect(await lint('engine/core/x.ts', imp('../ops/context.js'))).toEqual([expect.stringMatching(/ground floor/)]);
    expect(await lint('engine/core/x.ts', imp('./errors.js'))).toEqual([]);
    // analytics on core; render on core and analytics.
    expect(await lint('engine/analytics/embedded/x.ts', imp('../../render/document.js'))).toEqual([
      expect.stringMatching(/analytics sits on core/),
    ]);
    expect(await lint('engine/analytics/embedded/x.ts', imp('../../core/errors.js'))).toEqual([]);
    expect(await lint('engine/render/x.ts', imp('../features/reports/reports.rules.js'))).toEqual([
      expect.stringMatching(/render sits on core and analytics/),
    ]);
    expect(await lint('engine/render/x.ts', imp('../analytics/model.js'))).toEqual([]);
    // The model (the entities) sits on render; ops and access read the model and never a feature.
    expect(await lint('engine/model/x.ts', imp('../ops/context.js'))).toEqual([expect.stringMatching(/model sits/)]);
    expect(await lint('engine/model/x.ts', imp('../access/member-access.js'))).toEqual([
      expect.stringMatching(/model sits/),
    ]);
    expect(await lint('engine/model/x.ts', imp('../render/formats.js'))).toEqual([]);
    expect(await lint('engine/ops/x.ts', imp('../features/users/users.rules.js'))).toEqual([
      expect.stringMatching(/never a feature/),
    ]);
    expect(await lint('engine/access/x.ts', imp('../features/reports/reports.rules.js'))).toEqual([
      expect.stringMatching(/never a feature/),
    ]);
    expect(await lint('engine/ops/x.ts', imp('../model/users.entity.js'))).toEqual([]);
    expect(await lint('engine/access/x.ts', imp('../ops/context.js'))).toEqual([]);
    // features never reach the composition root or the transport.
    expect(await lint('engine/features/users/x.ts', imp('../../catalogue.js'))).toEqual([
      expect.stringMatching(/composed by the root/),
    ]);
    expect(await lint('engine/features/users/x.ts', imp('../../http/server.js'))).toEqual([
      expect.stringMatching(/composed by the root/),
    ]);
    expect(await lint('engine/features/users/x.ts', imp('../../ops/op.js'))).toEqual([]);
    // Only engine/analytics sees the embedded engine; the rest holds the provider port.
    expect(await lint('engine/features/reports/x.ts', imp('../../analytics/embedded/embedded-provider.js'))).toEqual([
      expect.stringMatching(/only engine\/analytics sees the embedded engine/),
    ]);
    expect(await lint('engine/render/x.ts', imp('../analytics/embedded/sqlite-file.js'))).toEqual([
      expect.stringMatching(/only engine\/analytics sees the embedded engine/),
    ]);
    expect(await lint('engine/engine.ts', imp('./analytics/embedded/embedded-provider.js'))).toEqual([
      expect.stringMatching(/only engine\/analytics sees the embedded engine/),
    ]);
    expect(await lint('engine/features/reports/x.ts', imp('../../analytics/port.js'))).toEqual([]);
    expect(await lint('engine/analytics/x.ts', imp('./embedded/embedded-provider.js'))).toEqual([]);
    // The base rule still holds in every layer.
    expect(await lint('engine/core/x.ts', imp('electron'))).toEqual([expect.stringMatching(/plain Node/)]);
  });

  it('lets the renderer import engine types only, and no Node', async () => {
    expect(
      await lint('renderer/src/x.ts', "import type { OpId } from '../../engine/catalogue';\nexport type X = OpId;\n"),
    ).toEqual([]);
    expect(
      await lint(
        'renderer/src/x.ts',
        "import { OPERATIONS } from '../../engine/catalogue';\nexport const o = OPERATIONS;\n",
      ),
    ).toEqual([expect.stringMatching(/only types/)]);
    // The wire contract is the one module both sides take values from.
    expect(
      await lint(
        'renderer/src/x.ts',
        "import { SESSION_HEADER } from '../../engine/wire';\nexport const h = SESSION_HEADER;\n",
      ),
    ).toEqual([]);
    expect(
      await lint('renderer/src/x.ts', "import { readFileSync } from 'node:fs';\nexport const r = readFileSync;\n"),
    ).toEqual([expect.stringMatching(/sandboxed/)]);
  });

  it('keeps the whole tree clean', async () => {
    const results = await eslint.lintFiles(['engine', 'main', 'preload', 'renderer/src', 'tests', 'scripts']);
    const errors = results.flatMap((r) =>
      r.messages.filter((m) => m.severity === 2).map((m) => `${r.filePath}:${m.line} ${m.message}`),
    );
    expect(errors).toEqual([]);
  });

  it('has no import cycle between files (scripts/import-cycles.mjs, also printed by npm run lint)', () => {
    const run = spawnSync(process.execPath, [join(root, 'scripts', 'import-cycles.mjs')], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.stdout).toContain('Import cycles between files: 0');
    expect(run.stdout).toContain('Feature folders in a cycle: 0 of');
    expect(run.status).toBe(0);
  });

  it('builds the engine whole in its composition root: no member is a placeholder filled in later', () => {
    const root_ = readFileSync(join(root, 'engine', 'engine.ts'), 'utf8');
    expect(root_).not.toMatch(/null as unknown as|as unknown as EngineServices/);
    expect(root_).not.toMatch(/services\.\w+ = /);
    // The areas' workers are listed once, started in that order and stopped in the reverse.
    expect(root_).toMatch(/const workers: WorkerModule\[\] = \[[^\]]+\]/);
    expect(root_).not.toMatch(/\b(runner|outbox|directorySyncs|reloads|scheduler|backups)\.(start|close|stop)\(/);
  });

  it('fails when two feature folders import each other, so the untied knot cannot grow back', () => {
    const tree = mkdtempSync(join(tmpdir(), 'bs-cycles-'));
    try {
      for (const [from, to] of [
        ['alpha', 'beta'],
        ['beta', 'alpha'],
      ]) {
        mkdirSync(join(tree, 'engine', 'features', from), { recursive: true });
        writeFileSync(
          join(tree, 'engine', 'features', from, `${from}.ts`),
          `import { x } from '../${to}/${to}.js';\nexport const y = x;\n`,
        );
      }
      const run = spawnSync(process.execPath, [join(root, 'scripts', 'import-cycles.mjs')], {
        cwd: tree,
        encoding: 'utf8',
      });
      expect(run.stdout).toContain('Feature folders in a cycle: 2 of 2');
      expect(run.status).toBe(1);
    } finally {
      rmSync(tree, { recursive: true, force: true });
    }
  });

  it('keeps every file formatted by Prettier (120 columns), as `npm run format` writes it', () => {
    const check = spawnSync(
      process.execPath,
      [join(root, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--list-different', '.'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(check.stdout.split('\n').filter(Boolean)).toEqual([]);
  });
});
