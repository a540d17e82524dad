import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { EngineError } from '../../core/errors.js';
import type { ProtectionOptions } from '../formats.js';
import { WarmOffice } from './warm-office.js';

// PDF from a filled template goes through LibreOffice headless, which lays out Word, Excel,
// PowerPoint and HTML as their own applications would. Each conversion has its own folder, removed
// when it ends; LibreOffice itself is kept warm, one per render thread (warm-office.ts).

const CANDIDATES = [
  '/usr/bin/soffice',
  '/usr/lib/libreoffice/program/soffice',
  '/opt/libreoffice/program/soffice',
  '/Applications/LibreOffice.app/Contents/MacOS/soffice',
  'C:\\Program Files\\LibreOffice\\program\\soffice.exe',
  'C:\\Program Files (x86)\\LibreOffice\\program\\soffice.exe',
];

/** LibreOffice's program, from BROADSHEET_SOFFICE, the PATH or where installers put it; null when absent. */
export function findSoffice(): string | null {
  const configured = process.env.BROADSHEET_SOFFICE;
  if (configured) return existsSync(configured) ? configured : null;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    for (const name of ['soffice', 'soffice.exe']) if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return CANDIDATES.find((p) => existsSync(p)) ?? null;
}

export const LIBREOFFICE_MISSING =
  "PDF from a template needs LibreOffice, and it is not installed on this machine. Install it (Debian and Ubuntu: apt-get install libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui; Windows and macOS: libreoffice.org) and run again, or choose the template's own format";

/** LibreOffice's export filter for a PDF from each kind of file, with the PDF's passwords when asked. */
function pdfFilter(extension: string, protection?: ProtectionOptions): string {
  const filter =
    { docx: 'writer_pdf_Export', xlsx: 'calc_pdf_Export', pptx: 'impress_pdf_Export', html: 'writer_web_pdf_Export' }[
      extension
    ] ?? 'writer_pdf_Export';
  const options: Record<string, { type: string; value: string }> = {};
  if (protection?.openPassword)
    Object.assign(options, {
      EncryptFile: { type: 'boolean', value: 'true' },
      DocumentOpenPassword: { type: 'string', value: protection.openPassword },
    });
  if (protection?.writePassword)
    Object.assign(options, {
      RestrictPermissions: { type: 'boolean', value: 'true' },
      PermissionPassword: { type: 'string', value: protection.writePassword },
      Changes: { type: 'long', value: '0' },
    });
  return Object.keys(options).length ? `pdf:${filter}:${JSON.stringify(options)}` : `pdf:${filter}`;
}

/** How long one conversion may take before its LibreOffice is taken as hung and ended. */
const CONVERT_MS = 180_000;

/** This thread's warm LibreOffice (one per render thread, each with its own profile). */
let warm: WarmOffice | null = null;
function warmOffice(soffice: string): WarmOffice {
  if (warm?.soffice !== soffice) {
    warm?.stop();
    warm = new WarmOffice(soffice);
  }
  return warm;
}

/** Ends this thread's warm LibreOffice (the bench starts from none; a closing render thread lets it go). */
export function endWarmOffice() {
  warm?.stop();
  warm = null;
}

/**
 * A conversion by a LibreOffice of its own, started for it and ended with it (BROADSHEET_OFFICE_WARM=0):
 * everything it writes stays in the conversion's own folder.
 */
function coldConvert(soffice: string, dir: string, input: string, convertTo: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    execFile(
      soffice,
      [
        '--headless',
        '--norestore',
        '--nolockcheck',
        '--nodefault',
        // Its profile, and its cache of shared extensions, which by default lives under the system's
        // spool folder and, once a conversion run as root has made it root-only, makes every
        // conversion by a service user abort (DeploymentException, signal 6).
        `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
        `-env:UNO_SHARED_PACKAGES_CACHE=${pathToFileURL(join(dir, 'shared-packages')).href}`,
        '--convert-to',
        convertTo,
        '--outdir',
        join(dir, 'out'),
        input,
      ],
      { timeout: CONVERT_MS, windowsHide: true, env: { ...process.env, HOME: dir, TMPDIR: dir } },
      (error, _stdout, stderr) =>
        error
          ? reject(
              new Error(
                String(stderr || error.message)
                  .trim()
                  .slice(0, 300),
              ),
            )
          : resolve(),
    );
  });
}

/**
 * Converts an Office or HTML file to PDF (or a workbook's first sheet to CSV, or a workbook to itself
 * with every formula computed, for the preview); refuses with what to install when LibreOffice is absent.
 */
export async function officeConvert(
  bytes: Buffer,
  extension: 'docx' | 'xlsx' | 'pptx' | 'html',
  to: 'pdf' | 'csv' | 'xlsx',
  protection?: ProtectionOptions,
): Promise<Buffer> {
  const soffice = findSoffice();
  if (!soffice)
    throw new EngineError(400, LIBREOFFICE_MISSING, [
      { field: 'outputFormat', message: 'Pdf from a template needs LibreOffice installed' },
    ]);
  const dir = await mkdtemp(join(tmpdir(), 'broadsheet-pdf-'));
  try {
    const input = join(dir, `report.${extension}`);
    await writeFile(input, bytes);
    const convertTo =
      to === 'pdf'
        ? pdfFilter(extension, protection)
        : to === 'xlsx'
          ? 'xlsx:Calc MS Excel 2007 XML'
          : 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false';
    try {
      if (process.env.BROADSHEET_OFFICE_WARM === '0') await coldConvert(soffice, dir, input, convertTo);
      else await warmOffice(soffice).convert(input, join(dir, 'out'), convertTo, CONVERT_MS);
    } catch (e) {
      throw new Error(
        `LibreOffice could not make the ${to.toUpperCase()}: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
    const out = join(dir, 'out', `report.${to}`);
    if (!existsSync(out)) throw new Error(`LibreOffice made no ${to.toUpperCase()} from the filled template`);
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
