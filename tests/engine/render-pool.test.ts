// The render threads: one that cannot load (a module missing from an installation) fails each call
// that needs it, and never leaves later calls waiting for good.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RENDER_NICE, RenderPool } from '../../engine/render/render-pool.js';
import { readFileSync } from 'node:fs';

let dir: string;
let broken: string;
let telling: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bs-render-pool-'));
  broken = join(dir, 'broken-worker.cjs');
  await writeFile(
    broken,
    "require('./a-module-this-installation-lacks');\nmodule.exports = { scan: async () => ({}) };\n",
  );
  // A thread that answers every scan with its own nice value, read from Linux's view of that thread.
  telling = join(dir, 'telling-worker.cjs');
  await writeFile(
    telling,
    `const { readFileSync } = require('node:fs');
const niceOf = (stat) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
module.exports = { scan: async () => ({ ok: false, status: 400, message: 'nice ' + niceOf(readFileSync('/proc/thread-self/stat', 'utf8')), details: null }) };
`,
  );
});
const niceOf = (stat: string) => Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('render threads', () => {
  it('refuses every call when its thread cannot load, instead of queueing the second for good', async () => {
    const pool = new RenderPool(1, broken);
    try {
      for (let i = 0; i < 3; i++)
        await expect(pool.scanTemplate(Buffer.from('x'), 'a.docx'), `call ${i + 1}`).rejects.toThrow(
          /a-module-this-installation-lacks|Terminat/,
        );
    } finally {
      await pool.close();
    }
  });

  // Rendering and checks are background work: a call to the main thread comes first on a busy machine.
  it.runIf(process.platform === 'linux')('runs its threads at a lower priority than the main thread', async () => {
    const pool = new RenderPool(1, telling);
    try {
      const main = niceOf(readFileSync('/proc/thread-self/stat', 'utf8'));
      await expect(pool.scanTemplate(Buffer.from('x'), 'a.docx')).rejects.toThrow(
        `nice ${Math.min(19, main + RENDER_NICE)}`,
      );
    } finally {
      await pool.close();
    }
  });
});
