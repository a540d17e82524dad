import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
// @ts-expect-error: a plain ES module of the build scripts, without types.
import { WORKERS } from '../../scripts/build-outputs.mjs';
// electron-builder's own configuration loader and schema validator, used offline.
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import { DebugLogger } from 'builder-util';

const root = join(__dirname, '..', '..');

describe('electron-builder configuration', () => {
  it("passes electron-builder's own schema and targets NSIS, DMG, AppImage and deb without rebuilding sqlite3", async () => {
    const config = await getConfig(root, join(root, 'electron-builder.yml'), null);
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    const targets = (c: { target?: unknown } | null | undefined) => JSON.stringify(c?.target);
    expect(targets(config.win)).toContain('nsis');
    expect(targets(config.mac)).toContain('dmg');
    expect(targets(config.linux)).toContain('AppImage');
    expect(targets(config.linux)).toContain('deb');
    expect(config.npmRebuild).toBe(false);
  });

  it("flips Electron's fuses: no run-as-Node, no Node options or inspector flags, encrypted cookies, app only from the asar", async () => {
    const config = await getConfig(root, join(root, 'electron-builder.yml'), null);
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableCookieEncryption: true,
      onlyLoadAppFromAsar: true,
    });
    // Workers read real files: each is unpacked beside the archive.
    expect(config.asarUnpack).toEqual(expect.arrayContaining(WORKERS));
  });

  it('is a real check: a misspelt option is refused', async () => {
    const config = await getConfig(root, join(root, 'electron-builder.yml'), { npmRebuilt: false } as never);
    await expect(validateConfiguration(config, new DebugLogger(false))).rejects.toThrow(/npmRebuilt/);
  });

  it('packages files the build produced: main, preload, renderer and every worker thread', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    for (const file of [pkg.main, 'dist/preload/preload.cjs', 'dist/renderer/index.html', ...WORKERS])
      expect(existsSync(join(root, file)), file).toBe(true);
  });
});
