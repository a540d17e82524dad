// Reading generated files back, as independent tools would: poppler for PDF, exceljs for XLSX,
// the OOXML parts for DOCX and PPTX.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import ExcelJS from 'exceljs';

/** Writes the bytes to a file of a fresh folder for a command-line reader, and removes the folder after. */
function withFile<T>(name: string, data: Buffer, read: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'bs-read-'));
  try {
    const file = join(dir, name);
    writeFileSync(file, data);
    return read(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The text of each page (pdftotext; pages split on form feeds). */
export function pdfPages(data: Buffer, password?: string): string[] {
  const text = withFile('f.pdf', data, (f) =>
    execFileSync('pdftotext', [...(password ? ['-upw', password] : []), '-layout', f, '-'], { encoding: 'utf8' }),
  );
  return text.split('\f').filter((p, i, all) => p.trim() || i < all.length - 1);
}

export function pdfOpensWithoutPassword(data: Buffer): boolean {
  return withFile('f.pdf', data, (f) => spawnSync('pdftotext', [f, '-'], { encoding: 'utf8' }).status === 0);
}

export function qpdfCheck(data: Buffer, password?: string): string {
  const r = withFile('f.pdf', data, (f) =>
    spawnSync('qpdf', [...(password ? [`--password=${password}`] : []), '--check', f], { encoding: 'utf8' }),
  );
  return r.stdout + r.stderr;
}

export async function xlsxWorkbook(data: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as never);
  return wb;
}

/** All text of the XML parts whose names match, tags stripped. */
export async function ooxmlText(data: Buffer, part: RegExp): Promise<string> {
  const zip = await JSZip.loadAsync(data);
  const names = Object.keys(zip.files)
    .filter((n) => !zip.files[n].dir && part.test(n))
    .sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const texts = await Promise.all(names.map((n) => zip.file(n)!.async('string')));
  return texts
    .map((x) =>
      x
        .replace(/<\/w:p>|<\/a:p>/g, '\n')
        .replace(/<[^>]+>/g, '')
        .replace(/&amp;/g, '&')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&apos;/g, "'"),
    )
    .join('\n');
}

export async function zipEntries(data: Buffer): Promise<Map<string, Buffer>> {
  const zip = await JSZip.loadAsync(data);
  const out = new Map<string, Buffer>();
  for (const name of Object.keys(zip.files))
    if (!zip.files[name].dir) out.set(name, await zip.file(name)!.async('nodebuffer'));
  return out;
}

export function pngSize(data: Buffer): { width: number; height: number } {
  if (data.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

export function qpdfEncryption(data: Buffer, password?: string): string {
  const r = withFile('f.pdf', data, (f) =>
    spawnSync('qpdf', [...(password ? [`--password=${password}`] : []), '--show-encryption', f], { encoding: 'utf8' }),
  );
  return r.stdout + r.stderr;
}
