import { isAbsolute, relative, resolve } from 'node:path';
import { posix } from 'node:path';

/**
 * A delivery path inside a root: relative, no `..` segment, no drive or scheme. Answers the
 * normalized path (forward slashes), or null when it would leave the root.
 */
export function confinedRelative(path: string): string | null {
  const p = path.trim().replace(/\\/g, '/');
  if (p === '' || p === '/') return '';
  if (/^[a-zA-Z]:/.test(p) || p.includes('\0') || p.split('/').some((seg) => seg === '..')) return null;
  return posix.normalize(p.replace(/^\/+/, '')).replace(/\/+$/, '').replace(/^\.$/, '');
}

/** The absolute folder under `root` for a confined relative path; null when it escapes (symlinks aside). */
export function folderUnder(root: string, rel: string): string | null {
  const target = resolve(root, rel);
  const r = relative(resolve(root), target);
  return r.startsWith('..') || isAbsolute(r) ? null : target;
}
