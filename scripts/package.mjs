// `npm run package`: the installers of this machine's OS into dist/installers/, from the build, with
// electron-builder (electron-builder.yml says what goes in them). On Linux the .deb is made here
// with Debian's dpkg-deb (electron-builder's own needs fpm, downloaded from GitHub).
//
// `npm run package:check` does the same where Electron's binary could not be downloaded (as in CI):
// a stand-in folder takes its place (`electronDist`), carrying a fuse wire as Electron's binary does,
// so the fuses are flipped and read back for real; it builds the unpacked app, a .tar.gz (with the
// 7-Zip of npm's 7zip-bin) and a .deb, then checks what a user would get (scripts/package-check.mjs).
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { checkInstallers } from './package-check.mjs';

const require = createRequire(import.meta.url);
const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'dist', 'installers');
const check = process.argv.includes('--check');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** Runs a command, failing the packaging with its output when it fails. */
function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

/** Electron's unpacked distribution as npm's electron package downloaded it, when it did. */
function downloadedElectron() {
  const dist = join(ROOT, 'node_modules', 'electron', 'dist');
  const binary = { win32: 'electron.exe', darwin: 'Electron.app' }[process.platform] ?? 'electron';
  return existsSync(join(dist, binary)) ? dist : null;
}

/**
 * A stand-in for Electron's unpacked distribution: an executable that says what it is, holding the
 * fuse wire Electron's binary holds (its sentinel, wire version 1, eight fuses in Electron's own
 * defaults), so @electron/fuses flips it as it would the real one.
 */
function standInElectron(dir) {
  const { SENTINEL, FuseState } = require('@electron/fuses/dist/constants.js');
  const { E, D } = { E: String.fromCharCode(FuseState.ENABLE), D: String.fromCharCode(FuseState.DISABLE) };
  // RunAsNode, CookieEncryption, NodeOptions, CliInspect, AsarIntegrity, OnlyAsar, V8Snapshot, FileProtocol.
  const wire = `${SENTINEL}\x01\x08${E}${D}${E}${E}${D}${D}${D}${E}`;
  mkdirSync(join(dir, 'resources'), { recursive: true });
  mkdirSync(join(dir, 'locales'), { recursive: true });
  writeFileSync(
    join(dir, 'electron'),
    `#!/bin/sh\n# ${wire}\necho "A stand-in for Electron ${pkg.devDependencies.electron}: the packaging check's, not an app"\n`,
  );
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'version'), pkg.devDependencies.electron.replace(/^[^\d]*/, ''));
  writeFileSync(join(dir, 'LICENSE'), 'Stand-in for the packaging check.\n');
  writeFileSync(join(dir, 'LICENSES.chromium.html'), '<p>Stand-in for the packaging check.</p>\n');
  return dir;
}

/** The lines of Debian's control file. */
function debControl(config, installedKb) {
  const depends = [
    // Electron's own needs (what electron-builder's deb target lists), then the configuration's.
    ...['libgtk-3-0', 'libnotify4', 'libnss3', 'libxss1', 'libxtst6', 'xdg-utils', 'libatspi2.0-0', 'libuuid1'],
    ...(config.deb?.depends ?? []),
  ];
  return [
    `Package: ${pkg.name}`,
    `Version: ${pkg.version}`,
    'Section: office',
    'Priority: optional',
    'Architecture: amd64',
    `Maintainer: ${config.linux.maintainer}`,
    `Installed-Size: ${installedKb}`,
    `Depends: ${[...new Set(depends)].join(', ')}`,
    `Homepage: https://broadsheet.invalid`,
    `Description: ${config.productName}: report generation and distribution`,
    ` ${pkg.description}. Builds reports from analytics data and Office templates, runs them on`,
    ' schedules and on demand, and delivers them by e-mail, to folders, FTP/SFTP and the hub.',
    '',
  ].join('\n');
}

/** The desktop entry menus and launchers read. */
const desktopEntry = (config) =>
  [
    '[Desktop Entry]',
    `Name=${config.productName}`,
    'Comment=Report generation and distribution',
    `Exec=/opt/${config.productName}/${pkg.name} %U`,
    `Icon=${pkg.name}`,
    'Terminal=false',
    'Type=Application',
    `Categories=${config.linux.category};`,
    `StartupWMClass=${config.productName}`,
    '',
  ].join('\n');

/** A .deb of the unpacked app, made with dpkg-deb: /opt/<product>, a command, a menu entry and an icon. */
function buildDeb(config, unpacked) {
  const stage = mkdtempSync(join(tmpdir(), 'broadsheet-deb-'));
  try {
    const appDir = join(stage, 'opt', config.productName);
    cpSync(unpacked, appDir, { recursive: true, verbatimSymlinks: true });
    mkdirSync(join(stage, 'usr', 'bin'), { recursive: true });
    run('ln', ['-s', `/opt/${config.productName}/${pkg.name}`, join(stage, 'usr', 'bin', pkg.name)]);
    mkdirSync(join(stage, 'usr', 'share', 'applications'), { recursive: true });
    writeFileSync(join(stage, 'usr', 'share', 'applications', `${pkg.name}.desktop`), desktopEntry(config));
    const icons = join(stage, 'usr', 'share', 'icons', 'hicolor', '512x512', 'apps');
    mkdirSync(icons, { recursive: true });
    cpSync(join(ROOT, 'build', 'icon.png'), join(icons, `${pkg.name}.png`));
    const du = spawnSync('du', ['-sk', stage], { encoding: 'utf8' });
    mkdirSync(join(stage, 'DEBIAN'));
    writeFileSync(join(stage, 'DEBIAN', 'control'), debControl(config, Number(du.stdout.split('\t')[0])));
    // Chromium's sandbox helper must be setuid root where user namespaces are off (Electron's own .deb does the same).
    writeFileSync(
      join(stage, 'DEBIAN', 'postinst'),
      `#!/bin/sh\nset -e\nif [ -f '/opt/${config.productName}/chrome-sandbox' ]; then chmod 4755 '/opt/${config.productName}/chrome-sandbox'; fi\n`,
    );
    chmodSync(join(stage, 'DEBIAN', 'postinst'), 0o755);
    const deb = join(OUT, `${pkg.name}_${pkg.version}_amd64.deb`);
    // The check reads what is inside; a release compresses as Debian's own packages do.
    run('dpkg-deb', ['--root-owner-group', ...(check ? ['-Zgzip', '-z1'] : ['-Zxz']), '--build', stage, deb]);
    return deb;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

async function main() {
  const { build, Platform, Arch } = require('electron-builder');
  const { getConfig } = require('app-builder-lib/out/util/config/config.js');
  const config = await getConfig(ROOT, join(ROOT, 'electron-builder.yml'), null);
  rmSync(OUT, { recursive: true, force: true });
  // 7-Zip from npm (electron-builder would download it from GitHub).
  if (!process.env.ELECTRON_BUILDER_7ZIP_PATH) {
    const { path7za } = require('7zip-bin');
    // npm unpacks it without its executable bit.
    if (process.platform !== 'win32') chmodSync(path7za, 0o755);
    process.env.ELECTRON_BUILDER_7ZIP_PATH = path7za;
  }
  const real = downloadedElectron();
  if (!real && !check)
    throw new Error("Electron's binary is not downloaded: run `npm ci` with the internet, or `npm run package:check`");
  const standIn = real ? null : mkdtempSync(join(tmpdir(), 'broadsheet-electron-'));
  try {
    const overrides = {
      directories: { output: OUT },
      ...(standIn ? { electronDist: standInElectron(standIn) } : {}),
      // The check's archive is read, not shipped: stored, not compressed (minutes on two cores).
      ...(check ? { compression: 'store' } : {}),
    };
    const linux = process.platform === 'linux';
    // The check builds what this machine can without downloads; a release builds the configured targets
    // (on Linux all but the .deb, made below).
    const targets = linux
      ? Platform.LINUX.createTarget(
          check
            ? ['dir', 'tar.gz']
            : ['dir', 'tar.gz', ...config.linux.target.map((t) => t.target).filter((t) => t !== 'deb')],
          Arch.x64,
        )
      : (process.platform === 'darwin' ? Platform.MAC : Platform.WINDOWS).createTarget();
    await build({ targets, config: overrides, publish: 'never' });
    const deb = linux ? buildDeb(config, join(OUT, 'linux-unpacked')) : null;
    console.log(`Installers in ${OUT}${standIn ? ' (with a stand-in for Electron: not for users)' : ''}`);
    if (check) {
      const report = await checkInstallers({ root: ROOT, out: OUT, config, pkg, deb });
      for (const line of report) console.log(`  ✓ ${line}`);
      console.log(`The packaging check passed: ${report.length} checks`);
    }
  } finally {
    if (standIn) rmSync(standIn, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(`Packaging failed: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
});
