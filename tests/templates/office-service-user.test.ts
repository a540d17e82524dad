// Issue 40: LibreOffice conversions by a service user do not depend on the system's shared
// extension cache (`/var/spool/libreoffice/uno_packages` on Debian), which a conversion once run as
// root with a strict umask leaves root-only; before, every PDF from a template then failed with
// "DeploymentException … Signal 6". The conversion runs here as `nobody` with that cache root-only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pdfPages } from '../support/read-back.js';

const SHARED_CACHE = '/var/spool/libreoffice/uno_packages/cache';
const ROOT_ONLY = join(SHARED_CACHE, 'uno_packages');
const NOBODY = 65534;
const asRoot = process.getuid?.() === 0;

let dir: string;
let modeBefore: number | null = null;

/** Whether `nobody` can read this checkout (a clone in a folder only root may enter cannot be run as them). */
const nobodyReads = () =>
  asRoot &&
  spawnSync('runuser', ['-u', 'nobody', '--', 'test', '-r', join(__dirname, '..', '..', 'package.json')]).status === 0;

beforeAll(() => {
  // The test run's own temporary folder is root's alone: the service user must pass through it (as
  // the PostgreSQL tests' server does).
  // Only the run's own scratch folder (npm test's): a shared /tmp is left as it is (anyone passes it).
  if (asRoot && basename(tmpdir()).startsWith('broadsheet-tests-')) chmodSync(tmpdir(), 0o711);
  dir = mkdtempSync(join(tmpdir(), 'bs-office-user-'));
  chownSync(dir, NOBODY, NOBODY);
  if (!asRoot || !existsSync(SHARED_CACHE)) return;
  // As a root conversion under umask 077 leaves it.
  if (existsSync(ROOT_ONLY)) modeBefore = statSync(ROOT_ONLY).mode & 0o777;
  else mkdirSync(ROOT_ONLY);
  chmodSync(ROOT_ONLY, 0o700);
});
afterAll(() => {
  if (modeBefore !== null) chmodSync(ROOT_ONLY, modeBefore);
  rmSync(dir, { recursive: true, force: true });
});

describe('PDF from a template by a service user', () => {
  // Needs root (to act as `nobody`), Debian's LibreOffice and a checkout `nobody` may read.
  it.runIf(asRoot && existsSync(SHARED_CACHE) && nobodyReads())(
    'converts though the shared extension cache is root-only',
    () => {
      const input = join(dir, 'letter.html');
      writeFileSync(input, '<html><body><h1>Quarterly letter</h1><p>Sales rose.</p></body></html>');
      chownSync(input, NOBODY, NOBODY);
      const child = spawnSync(process.execPath, ['--import', 'tsx', 'tests/support/office-convert-child.mts', input], {
        uid: NOBODY,
        gid: NOBODY,
        env: { ...process.env, HOME: dir, TMPDIR: dir },
        encoding: 'utf8',
        timeout: 300_000,
      });
      expect(child.stdout.trim()).toBe('converted');
      expect(pdfPages(readFileSync(`${input}.pdf`)).join(' ')).toMatch(/Sales rose/);
    },
    300_000,
  );
});
