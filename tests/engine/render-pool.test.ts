// The render threads: one that cannot load (a module missing from an installation) fails each call
// that needs it, and never leaves later calls waiting for good.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RenderPool } from '../../engine/render/render-pool.js';

let dir: string;
let broken: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bs-render-pool-'));
  broken = join(dir, 'broken-worker.cjs');
  await writeFile(
    broken,
    "require('./a-module-this-installation-lacks');\nmodule.exports = { scan: async () => ({}) };\n",
  );
});
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
});
