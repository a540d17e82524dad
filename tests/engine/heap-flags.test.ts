// The server's heaps (engine/core/heap-flags.ts): `npm run serve` starts Node with the server's
// flags, and a thread started once the engine has set its own keeps a young generation of its own
// size, not the main thread's larger one (an import of 2,000,000 rows would otherwise add ~130 MiB).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS } from '../../engine/core/heap-flags.js';

const ROOT = join(__dirname, '..', '..');

/** Allocates objects that live a while, as a large read does, and answers the largest new space seen. */
const GROW = `((v8) => {
  const keep = [];
  let most = 0;
  for (let round = 0; round < 30; round++) {
    const made = [];
    for (let i = 0; i < 300000; i++) made.push({ i, s: 'x' + i });
    keep.push(made);
    if (keep.length > 3) keep.shift();
    most = Math.max(most, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
  }
  return most / 1024 / 1024;
})`;

describe('the server heap flags', () => {
  it('are the ones npm run serve starts Node with', () => {
    const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts.serve).toContain(`node ${SERVER_NODE_FLAGS.join(' ')} dist/engine/serve.cjs`);
  });

  it("gives the main thread the larger young generation, and a thread started after the engine's flags its own", () => {
    const child = `
      // tsx loads the module as CommonJS (the package's own kind): its exports are the default.
      const flags = await import(${JSON.stringify(join(ROOT, 'engine', 'core', 'heap-flags.ts'))});
      const { keepCollectionsOnTheirThreads } = flags.default ?? flags;
      const main = ${GROW}(await import('node:v8'));
      keepCollectionsOnTheirThreads();
      const { Worker } = await import('node:worker_threads');
      const thread = await new Promise((resolve, reject) => {
        // The thread's code is a module, as the eval'd program is (--input-type is handed down).
        const w = new Worker('import { parentPort } from "node:worker_threads"; import v8 from "node:v8"; parentPort.postMessage(' + ${JSON.stringify(GROW)} + '(v8))', { eval: true });
        w.once('message', (m) => { resolve(m); void w.terminate(); });
        w.once('error', reject);
      });
      console.log(JSON.stringify({ main, thread }));
    `;
    const run = spawnSync(
      process.execPath,
      [...SERVER_NODE_FLAGS, '--import', 'tsx', '--input-type=module', '-e', child],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    const { main, thread } = JSON.parse(run.stdout.trim().split('\n').pop()!) as { main: number; thread: number };
    // Two semi-spaces: 64 MiB each on the main thread; V8's default (16 MiB each) on the thread.
    expect(main).toBeGreaterThan(64);
    expect(thread).toBeLessThanOrEqual(32);
  });

  it("lets Node's own modules keep their compiled code once the server's entry has set its flags", () => {
    // V8 signs compiled code with this tag (its version and a hash of its flags); Node's own
    // modules carry code compiled under plain Node's, and each is compiled from source otherwise.
    const tag = (flags: string[], before: string) => {
      const r = spawnSync(
        process.execPath,
        [
          ...flags,
          '--import',
          'tsx',
          '--input-type=module',
          '-e',
          `${before}; const v8 = await import('node:v8'); console.log(v8.cachedDataVersionTag());`,
        ],
        { cwd: ROOT, encoding: 'utf8' },
      );
      expect(r.status, r.stderr).toBe(0);
      return r.stdout.trim();
    };
    const plain = tag([], '');
    expect(tag([...SERVER_NODE_FLAGS], '')).not.toBe(plain);
    expect(tag([...SERVER_NODE_FLAGS], `await import(${JSON.stringify(join(ROOT, 'engine', 'serve-flags.ts'))})`)).toBe(
      plain,
    );
    // ...and the entry sets them before its other imports load any of Node's modules.
    const entry = readFileSync(join(ROOT, 'engine', 'serve-entry.ts'), 'utf8');
    expect(entry.match(/^import .*$/m)?.[0]).toBe("import './serve-flags.js';");
  });

  it('keeps the compiled code of one start for the next, under the flags the entry set', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bs-heap-flags-'));
    try {
      const bundle = join(dir, 'bundle.cjs');
      writeFileSync(bundle, 'module.exports = (a, b) => a + b;\n');
      const cache = join(dir, 'cache');
      // A start as the server's: the entry's flags set, its bundle run with its code kept, then the
      // engine starting sets them again.
      const start = `
        const load = async (name) => { const m = await import(${JSON.stringify(join(ROOT, 'engine'))} + name); return m.default ?? m; };
        await load('/serve-flags.ts');
        const { runBundle } = await load('/code-cache.ts');
        const { keepCollectionsOnTheirThreads } = await load('/core/heap-flags.ts');
        const { mkdirSync } = await import('node:fs');
        mkdirSync(${JSON.stringify(cache)}, { recursive: true, mode: 0o700 });
        runBundle(${JSON.stringify(bundle)}, ${JSON.stringify(cache)});
        keepCollectionsOnTheirThreads();
      `;
      const run = () => {
        const r = spawnSync(
          process.execPath,
          [...SERVER_NODE_FLAGS, '--import', 'tsx', '--input-type=module', '-e', start],
          {
            cwd: ROOT,
            encoding: 'utf8',
          },
        );
        expect(r.status, r.stderr).toBe(0);
        const [kept] = readdirSync(cache);
        return { name: kept, written: statSync(join(cache, kept)).mtimeMs };
      };
      const first = run();
      const second = run();
      // Refused, the code is compiled again and the cache written anew at every start.
      expect(second).toEqual(first);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
