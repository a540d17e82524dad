import { realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep, win32 } from 'node:path';

// A data connection reads files and a folder storage writes them on this machine. Neither may reach
// the installation itself (its database holds every organization's users, password hashes and
// sealed secrets; its key opens them) nor the system's own folders: a connection pointing there
// would hand them to anyone who may preview a source. The rule, said in the refusal: not inside the
// data folder, the secrets key's folder or a system folder, and not a folder that holds one of them.

/** System folders on every platform this runs on (Windows compared without regard to case). */
const SYSTEM_POSIX = [
  '/etc',
  '/proc',
  '/sys',
  '/dev',
  '/boot',
  '/root',
  '/run',
  '/var/run',
  '/var/lib',
  '/var/log',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/System',
  '/Library',
  '/private/etc',
  '/private/var/db',
];
const SYSTEM_WINDOWS = ['C:\\Windows', 'C:\\Program Files', 'C:\\Program Files (x86)', 'C:\\ProgramData'];

/** A path as the disk has it (links followed) where it exists; as written where it does not yet. */
function real(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : resolve(real(parent), relative(parent, path));
  }
}

const within = (folder: string, path: string, windows: boolean) => {
  const rel = windows ? win32.relative(folder.toLowerCase(), path.toLowerCase()) : relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/**
 * Why a path may not be used by a data connection or a storage, or null when it may: `house` are the
 * installation's own folders (the data folder, the secrets key's folder).
 */
export function houseFolderProblem(path: string, house: readonly string[], platform = process.platform): string | null {
  const windows = platform === 'win32';
  const target = windows ? path : real(path);
  for (const folder of house.map((f) => (windows ? f : real(f)))) {
    if (within(folder, target, windows))
      return `must not be inside Broadsheet's own data (${folder}): it holds every organization's people and passwords`;
    if (within(target, folder, windows))
      return `must not hold Broadsheet's own data (${folder}): choose a folder of its own`;
  }
  for (const folder of windows ? SYSTEM_WINDOWS : SYSTEM_POSIX) {
    if (within(folder, target, windows)) return `must not be inside the system folder ${folder}`;
  }
  if (target === sep || (windows && /^[a-z]:\\?$/i.test(target))) return 'must not be the whole disk: choose a folder';
  return null;
}
