// What `npm run package:check` looks at in dist/installers/, as a user would get it: the app's
// files in the asar, every native module unpacked beside it, loadable, with every library it links
// to found; the fuses as electron-builder.yml sets them; the .tar.gz's files; the .deb's metadata,
// dependencies, command, menu entry and icon. Each check throws with what it found; the lines
// returned say what passed.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { WORKERS } from './build-outputs.mjs';

const require = createRequire(import.meta.url);

function must(condition, message) {
  if (!condition) throw new Error(message);
}

const output = (cmd, args, options = {}) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 << 20, ...options });
  must(r.status === 0, `${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
};

/** The fuses electron-builder.yml asks for, checked in the packaged binary. */
async function checkFuses(binary, wanted) {
  const { getCurrentFuseWire, FuseV1Options } = require('@electron/fuses');
  const { FuseState } = require('@electron/fuses/dist/constants.js');
  const wire = await getCurrentFuseWire(binary);
  const names = Object.keys(wanted);
  for (const name of names) {
    const index = FuseV1Options[name[0].toUpperCase() + name.slice(1)];
    must(index !== undefined, `electron-builder.yml names a fuse @electron/fuses does not know: ${name}`);
    const expected = wanted[name] ? FuseState.ENABLE : FuseState.DISABLE;
    must(wire[index] === expected, `the fuse ${name} is ${wire[index] === FuseState.ENABLE} in the packaged binary`);
  }
  return `${names.length} fuses as configured in the packaged binary (${names.map((n) => `${n}=${wanted[n]}`).join(', ')})`;
}

/** The packages npm installed for production: what the app needs at run time. */
function productionPackages(root) {
  const tree = JSON.parse(output('npm', ['ls', '--omit=dev', '--all', '--json'], { cwd: root }));
  const names = new Set();
  const walk = (deps = {}) => {
    for (const [name, d] of Object.entries(deps)) {
      if (d.missing || names.has(name)) continue;
      names.add(name);
      walk(d.dependencies);
    }
  };
  walk(tree.dependencies);
  return names;
}

/** A native module loads in Node (its ABI, as npmRebuild is off) and every library it links to is found. */
function checkNative(file) {
  const missing = output('ldd', [file])
    .split('\n')
    .filter((l) => /not found/.test(l));
  must(!missing.length, `${file} links to libraries not found: ${missing.join('; ')}`);
  const r = spawnSync(
    process.execPath,
    [
      '-e',
      `const m = { exports: {} }; process.dlopen(m, ${JSON.stringify(file)}); console.log(Object.getOwnPropertyNames(m.exports).length)`,
    ],
    { encoding: 'utf8' },
  );
  must(r.status === 0 && Number(r.stdout) > 0, `${file} does not load: ${r.stderr.split('\n')[0]}`);
}

function checkApp({ root, out, pkg }) {
  const lines = [];
  const app = join(out, 'linux-unpacked');
  const binary = join(app, pkg.name);
  must(existsSync(binary) && (statSync(binary).mode & 0o111) !== 0, `no executable ${binary}`);
  const asarPath = join(app, 'resources', 'app.asar');
  must(existsSync(asarPath), `no ${asarPath}`);
  const asar = require('@electron/asar');
  const files = new Set(asar.listPackage(asarPath, { isPack: false }).map((f) => f.replace(/\\/g, '/')));
  for (const f of ['/package.json', `/${pkg.main}`, '/dist/preload/preload.cjs', '/dist/renderer/index.html'])
    must(files.has(f), `the asar lacks ${f}`);
  // The packaged main process is the one the desktop tests (tests/main) run, with its sandboxed window.
  for (const f of [pkg.main, 'dist/preload/preload.cjs'])
    must(asar.extractFile(asarPath, f).equals(readFileSync(join(root, f))), `the asar's ${f} is not the build's`);
  must(![...files].some((f) => f.endsWith('.map')), 'the asar holds source maps');
  lines.push(`the asar holds the build's main, preload and renderer (${files.size} entries, no source maps)`);

  // Installed here (npm skips optional packages of other platforms), found in the asar at any depth;
  // our own development packages (react, peers of react-aria-components) are in the renderer's build.
  const production = productionPackages(root);
  const prod = new Set(
    [...production].filter((n) => existsSync(join(root, 'node_modules', n)) && !pkg.devDependencies[n]),
  );
  const packaged = new Set(
    [...files].map(
      (f) =>
        /^(?:\/node_modules\/(?:@[^/]+\/)?[^/]+)*\/node_modules\/((?:@[^/]+\/)?[^/]+)\/package\.json$/.exec(f)?.[1],
    ),
  );
  const inAsar = (name) => packaged.has(name);
  const lacking = [...prod].filter((n) => !inAsar(n));
  must(!lacking.length, `production packages missing from the asar: ${lacking.slice(0, 10).join(', ')}`);
  const dev = Object.keys(pkg.devDependencies).filter((n) => !production.has(n) && inAsar(n));
  must(!dev.length, `development packages in the asar: ${dev.join(', ')}`);
  lines.push(`every production package (${prod.size}) is in the asar, and no development package`);

  const unpacked = join(app, 'resources', 'app.asar.unpacked');
  for (const worker of WORKERS)
    must(existsSync(join(unpacked, worker)), `${worker} is not unpacked (worker threads read real files)`);
  const natives = [...files].filter((f) => f.endsWith('.node'));
  for (const f of natives) {
    const real = join(unpacked, f);
    must(existsSync(real), `${f} is inside the asar, where no native module can load: add it to asarUnpack`);
    checkNative(real);
  }
  // The app's own native modules, each found among them when npm installed it.
  for (const name of ['sqlite3', 'kerberos', '@resvg/resvg-js-linux-x64-gnu', '@duckdb/node-bindings-linux-x64'])
    if (existsSync(join(root, 'node_modules', name)))
      must(
        natives.some((f) => f.startsWith(`/node_modules/${name}/`)),
        `the native module ${name} is not in the package`,
      );
  lines.push(
    `${natives.length} native modules unpacked beside the asar, each loading and finding every library it links to: ${natives.map((f) => f.split('/').pop()).join(', ')}`,
  );
  lines.push('every worker thread entry unpacked as a real file (render, chart, import, source reader)');
  return lines;
}

function checkTarGz({ out, pkg }) {
  const tar = join(out, `${pkg.name}-${pkg.version}.tar.gz`);
  must(existsSync(tar), `no ${tar}`);
  const listed = output('tar', ['-tzf', tar]).split('\n');
  const top = `${pkg.name}-${pkg.version}`;
  for (const f of [`${top}/${pkg.name}`, `${top}/resources/app.asar`])
    must(listed.includes(f), `the .tar.gz lacks ${f}`);
  must(
    listed.some((f) => f.endsWith('/node_sqlite3.node')),
    'the .tar.gz lacks sqlite3 unpacked',
  );
  return [`the .tar.gz (${(statSync(tar).size / 2 ** 20).toFixed(0)} MB) holds the app, its asar and sqlite3 unpacked`];
}

function checkDeb({ deb, config, pkg }) {
  const info = output('dpkg-deb', ['--info', deb]);
  const field = (name) => new RegExp(`^ ${name}: (.*)$`, 'm').exec(info)?.[1];
  must(field('Package') === pkg.name, `the .deb's Package is ${field('Package')}`);
  must(field('Version') === pkg.version, `the .deb's Version is ${field('Version')}`);
  must(field('Architecture') === 'amd64', `the .deb's Architecture is ${field('Architecture')}`);
  const depends = (field('Depends') ?? '').split(/,\s*/);
  for (const d of [...(config.deb?.depends ?? []), 'libgtk-3-0', 'libnss3'])
    must(depends.includes(d), `the .deb does not depend on ${d}`);
  const contents = output('dpkg-deb', ['--contents', deb]);
  const root = `./opt/${config.productName}`;
  for (const f of [
    `${root}/${pkg.name}`,
    `${root}/resources/app.asar`,
    `./usr/share/applications/${pkg.name}.desktop`,
    `./usr/share/icons/hicolor/512x512/apps/${pkg.name}.png`,
  ])
    must(contents.includes(` ${f}\n`) || contents.includes(` ${f} `), `the .deb lacks ${f}`);
  must(contents.includes(`./usr/bin/${pkg.name} -> /opt/${config.productName}/${pkg.name}`), 'the .deb has no command');
  must(
    /^-rwxr-xr-x root\/root .* \.\/opt\/\S+\/broadsheet$/m.test(contents),
    'the .deb does not install the app as root, executable',
  );

  const extract = (f) =>
    spawnSync('sh', ['-c', `dpkg-deb --fsys-tarfile "$1" | tar -xOf - "$2"`, 'sh', deb, f], { maxBuffer: 64 << 20 })
      .stdout;
  const entry = extract(`./usr/share/applications/${pkg.name}.desktop`).toString('utf8');
  const key = (k) => new RegExp(`^${k}=(.*)$`, 'm').exec(entry)?.[1];
  must(entry.startsWith('[Desktop Entry]'), 'the desktop entry has no [Desktop Entry] group');
  must(key('Type') === 'Application' && key('Name') === config.productName, 'the desktop entry names no application');
  must(
    key('Exec')?.split(' ')[0] === `/opt/${config.productName}/${pkg.name}`,
    `the desktop entry runs ${key('Exec')}`,
  );
  must(key('Icon') === pkg.name, `the desktop entry's icon is ${key('Icon')}`);
  must((key('Categories') ?? '').split(';').includes(config.linux.category), 'the desktop entry has no category');
  const icon = extract(`./usr/share/icons/hicolor/512x512/apps/${pkg.name}.png`);
  must(icon.subarray(1, 4).toString() === 'PNG', 'the icon is not a PNG');
  must(icon.readUInt32BE(16) === 512 && icon.readUInt32BE(20) === 512, 'the icon is not 512×512');
  const postinst = spawnSync('sh', ['-c', 'dpkg-deb --ctrl-tarfile "$1" | tar -xOf - ./postinst', 'sh', deb]).stdout;
  must(
    /chmod 4755 .*chrome-sandbox/.test(postinst.toString()),
    "the .deb does not make Chromium's sandbox helper setuid",
  );
  return [
    `the .deb: ${pkg.name} ${pkg.version} amd64, depends on ${depends.length} packages (${(config.deb?.depends ?? []).join(', ')} among them)`,
    `the .deb installs /opt/${config.productName}, the command ${pkg.name}, a desktop entry (Exec, Icon, ${config.linux.category}) and a 512×512 icon`,
  ];
}

export async function checkInstallers({ root, out, config, pkg, deb }) {
  const app = join(out, 'linux-unpacked');
  return [
    await checkFuses(join(app, pkg.name), config.electronFuses),
    ...checkApp({ root, out, pkg }),
    ...checkTarGz({ out, pkg }),
    ...(deb ? checkDeb({ deb, config, pkg }) : []),
  ];
}
