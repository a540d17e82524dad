// `npm run check:clean-install`: the README's first command on a machine with only Node. The
// project's files (as git tracks them, with this checkout's changes) are copied into an empty
// folder; there `npm ci --omit=optional` installs without the optional native modules (kerberos,
// whose build needs libkrb5-dev or C++ build tools), `npm run build` builds, and the built server
// starts on an empty data folder and answers the setup and the app's page. Started first without
// DuckDB's binary (an optional package too), it must name what is missing; then, with the binary npm
// installs prebuilt, the first start's demo report must render. CI runs it (.ci/run) before the tests.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');

function run(cmd, args, cwd) {
  const started = performance.now();
  const r = spawnSync(cmd, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' },
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in the clean folder (exit ${r.status})`);
  return ((performance.now() - started) / 1000).toFixed(0);
}

/** Starts the built server on an empty folder; its address once it says it serves. */
function startServer(cwd, dataDir) {
  const child = spawn(process.execPath, ['dist/engine/serve.cjs', '--port', '0', '--data-dir', dataDir], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const said = { output: '' };
  const url = new Promise((resolveUrl, reject) => {
    const onData = (b) => {
      said.output += b.toString();
      const m = /is serving (http:\/\/[\d.:]+)/.exec(said.output);
      if (m) resolveUrl(m[1]);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the server exited (${code}) before serving:\n${said.output}`)));
  });
  return { child, url, said };
}

async function stop(child) {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/**
 * Reports on the clean install: the demo's report as HTML (charts as vectors) renders; as Word its
 * charts are pictures, drawn by resvg, whose platform binary is an optional package: where it was
 * left out, the answer says so in words (never a crash of the renderer or a 500 without a cause).
 */
async function reportsWithoutOptionals(base, dataDir) {
  const key = readFileSync(join(dataDir, 'owner-api-key'), 'utf8').trim();
  const call = async (method, path, query = '') =>
    fetch(`${base}${path}${query}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: method === 'POST' ? '{}' : undefined,
    });
  // The first start's demo is made in the background: looked for until it is there.
  let report;
  for (let i = 0; i < 600 && !report; i++) {
    const list = await (await call('GET', '/api/v1/reports', '?name[equals]=Regional%20sales%20review')).json();
    report = list.data?.[0];
    if (!report) await new Promise((r) => setTimeout(r, 100));
  }
  if (!report) throw new Error("the first start's demo report did not appear within a minute");
  const html = await call('POST', `/api/v2/reports/${report.id}/generate`, '?outputFormat=Html');
  if (html.status !== 200)
    throw new Error(`the demo report as HTML answered ${html.status}: ${(await html.text()).slice(0, 300)}`);
  const word = await call('POST', `/api/v2/reports/${report.id}/generate`, '?outputFormat=Docx');
  const said = await word.text();
  if (word.status === 200) return 'the demo report rendered as HTML and as Word';
  if (!said.includes("Charts as pictures need resvg's binary for this platform"))
    throw new Error(
      `the demo report as Word answered ${word.status} without saying what is missing: ${said.slice(0, 300)}`,
    );
  return `the demo report rendered as HTML; as Word it answered ${word.status} naming resvg's missing binary`;
}

/**
 * Without DuckDB's binary (left out with the other optional packages) the server still starts and
 * answers, and the first start's demo says in the log what is missing instead of a module path.
 */
async function startsWithoutColumnarStore(folder) {
  const { child, url, said } = startServer(folder, join(folder, 'data-without-duckdb'));
  try {
    const base = await url;
    const setup = await (await fetch(`${base}/api/app/setup`)).json();
    if (setup.isSuccess !== true) throw new Error(`without DuckDB the setup answered ${JSON.stringify(setup)}`);
    for (let i = 0; i < 600 && !said.output.includes("DuckDB's binary for this platform"); i++)
      await new Promise((r) => setTimeout(r, 100));
    if (!said.output.includes("DuckDB's binary for this platform"))
      throw new Error(`without DuckDB's binary the log did not name it within a minute:\n${said.output.slice(-1500)}`);
    return "without DuckDB's binary it started and its log named the missing package";
  } finally {
    await stop(child);
  }
}

async function main() {
  const folder = mkdtempSync(join(tmpdir(), 'broadsheet-clean-install-'));
  try {
    const tracked = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (tracked.status !== 0) throw new Error('git ls-files failed: the check copies the files git knows');
    const files = tracked.stdout.split('\0').filter((f) => f && existsSync(join(ROOT, f)));
    for (const f of files) {
      mkdirSync(dirname(join(folder, f)), { recursive: true });
      cpSync(join(ROOT, f), join(folder, f));
    }
    console.log(`Clean install: ${files.length} files copied to ${folder}`);
    const installSeconds = run('npm', ['ci', '--omit=optional', '--no-audit', '--no-fund', '--prefer-offline'], folder);
    if (existsSync(join(folder, 'node_modules', 'kerberos')))
      throw new Error('npm ci --omit=optional installed kerberos: the check would prove nothing');
    const buildSeconds = run('npm', ['run', 'build'], folder);
    const withoutStore = await startsWithoutColumnarStore(folder);
    // DuckDB's binary is a prebuilt package per platform, which npm installs without build tools on
    // every desktop the product ships for: brought back by name, as `npm install` would have it.
    const bindings = `@duckdb/node-bindings-${process.platform}-${process.arch}`;
    const version = JSON.parse(
      readFileSync(join(folder, 'node_modules/@duckdb/node-bindings/package.json'), 'utf8'),
    ).version;
    run(
      'npm',
      [
        'install',
        '--no-save',
        '--omit=optional',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        `${bindings}@${version}`,
      ],
      folder,
    );
    const dataDir = join(folder, 'data');
    const { child, url } = startServer(folder, dataDir);
    try {
      const base = await url;
      const setup = await (await fetch(`${base}/api/app/setup`)).json();
      if (setup.isSuccess !== true) throw new Error(`the first start's setup answered ${JSON.stringify(setup)}`);
      const page = await fetch(`${base}/`);
      const html = await page.text();
      if (page.status !== 200 || !html.includes('<div id="root">'))
        throw new Error(`the app's page answered ${page.status}: ${html.slice(0, 200)}`);
      const rendered = await reportsWithoutOptionals(base, dataDir);
      console.log(
        `Clean install passed: npm ci --omit=optional ${installSeconds} s, build ${buildSeconds} s, the server started without kerberos and served the setup and the app; ${withoutStore}; ${rendered}`,
      );
    } finally {
      await stop(child);
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(`The clean install check failed: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
});
