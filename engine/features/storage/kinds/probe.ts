import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A test that writes a small file through `open`'s client and removes it (signing in alone proves
 * no right to write); a failure is said by `refused`.
 */
export async function probeWrite(
  open: () => Promise<{
    put(local: string, path: string): Promise<void>;
    remove(path: string): Promise<void>;
    base: string;
  }>,
  refused: (e: unknown) => Error,
) {
  const probe = `.broadsheet-test-${randomUUID()}.txt`;
  const local = join(tmpdir(), probe);
  await writeFile(local, 'Broadsheet checks it may write here; this file is removed at once.\n');
  try {
    const client = await open();
    await client.put(local, probe);
    await client.remove(probe);
    return { ok: true, message: `Wrote and removed a test file in ${client.base}` };
  } catch (e) {
    throw refused(e);
  } finally {
    await rm(local, { force: true });
  }
}
