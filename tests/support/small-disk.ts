import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A real small disk for a test: a tmpfs of `sizeMb` mounted on a folder of its own (root is needed
 * to mount; CI runs as root). `mounted` is false where mounting is not allowed: the test skips.
 */
export function smallDisk(sizeMb: number) {
  const path = mkdtempSync(join(tmpdir(), 'bs-small-disk-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', path]).status === 0;
  const filler = join(path, 'filler');
  return {
    path,
    mounted,
    /** Fills the disk, leaving `room` bytes free (what the file system keeps for itself may refuse the last blocks: full too). */
    fill(room = 0) {
      const { bavail, bsize } = statfsSync(path);
      try {
        writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - room)));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOSPC') throw e;
      }
    },
    /** Frees what `fill` took. */
    free: () => rmSync(filler, { force: true }),
    /** Unmounts the disk and removes its folder. */
    remove() {
      if (mounted) spawnSync('umount', [path]);
      rmSync(path, { recursive: true, force: true });
    },
  };
}
