// A client generated from the served API document alone (openapi-typescript) compiles, and a short
// script using only it signs in with a key, lists users, creates a group, runs a task, waits for it
// and downloads its file, against a started server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';

let s: TestServer;
let dir = '';
const root = process.cwd();
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
// Asynchronous: the server under test runs in this process and must answer the child meanwhile.
const run = async (file: string, args: string[], env: NodeJS.ProcessEnv = process.env) => {
  try {
    return (await promisify(execFile)(file, args, { encoding: 'utf8', env })).stdout;
  } catch (e) {
    const failed = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${failed.message}\n${failed.stdout ?? ''}${failed.stderr ?? ''}`.slice(0, 3000));
  }
};

beforeAll(async () => {
  s = await startTestServer({ demo: true });
  dir = mkdtempSync(join(tmpdir(), 'bs-client-'));
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  copyFileSync(join(root, 'scripts', 'api-client', 'example.ts'), join(dir, 'example.ts'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        lib: ['ES2023', 'DOM'],
      },
      include: ['*.ts'],
    }),
  );
}, 120_000);
afterAll(async () => {
  await s.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe(
  covers(
    'a client generated from the API document',
    'v1.users.list',
    'v1.groups.create',
    'v2.requests.run',
    'app.onDemand.result',
  ),
  () => {
    it('generates types from the served document, compiles a script that uses only them, and runs it', async () => {
      await run('node', [
        join(root, 'scripts', 'api-client', 'generate.mjs'),
        `${s.url}/api/openapi.json`,
        join(dir, 'broadsheet-api.d.ts'),
      ]);
      // The script compiles against the generated types alone (a renamed path or field would fail here).
      await run(bin('tsc'), ['-p', join(dir, 'tsconfig.json')]);
      const out = await run(bin('tsx'), [join(dir, 'example.ts')], {
        ...process.env,
        BROADSHEET_URL: s.url,
        BROADSHEET_KEY: s.ownerKey,
      });
      expect(out).toMatch(/^users: .+@/m);
      expect(out).toMatch(/^group: Analysts \d+ \([0-9a-f-]{36}\), 0 users$/m);
      expect(out).toMatch(/^run: completed$/m);
      expect(out).toMatch(/^file: application\/zip \d+ bytes$/m);
    }, 180_000);
  },
);
