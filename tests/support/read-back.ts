// Reading generated files back, as independent tools would: poppler for PDF, exceljs for XLSX,
// the OOXML parts for DOCX and PPTX.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import JSZip from 'jszip';
import ExcelJS from 'exceljs';

const tmp = (name: string, data: Buffer) => {
  const file = join(mkdtempSync(join(tmpdir(), 'bs-read-')), name);
  writeFileSync(file, data);
  return file;
};

/** The text of each page (pdftotext; pages split on form feeds). */
export function pdfPages(data: Buffer, password?: string): string[] {
  const args = [...(password ? ['-upw', password] : []), '-layout', tmp('f.pdf', data), '-'];
  return execFileSync('pdftotext', args, { encoding: 'utf8' }).split('\f').filter((p, i, all) => p.trim() || i < all.length - 1);
}

export function pdfOpensWithoutPassword(data: Buffer): boolean {
  return spawnSync('pdftotext', [tmp('f.pdf', data), '-'], { encoding: 'utf8' }).status === 0;
}

export function qpdfCheck(data: Buffer, password?: string): string {
  const r = spawnSync('qpdf', [...(password ? [`--password=${password}`] : []), '--check', tmp('f.pdf', data)], { encoding: 'utf8' });
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
  const names = Object.keys(zip.files).filter((n) => !zip.files[n].dir && part.test(n)).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const texts = await Promise.all(names.map((n) => zip.file(n)!.async('string')));
  return texts.map((x) => x.replace(/<\/w:p>|<\/a:p>/g, '\n').replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'")).join('\n');
}

export async function zipEntries(data: Buffer): Promise<Map<string, Buffer>> {
  const zip = await JSZip.loadAsync(data);
  const out = new Map<string, Buffer>();
  for (const name of Object.keys(zip.files)) if (!zip.files[name].dir) out.set(name, await zip.file(name)!.async('nodebuffer'));
  return out;
}

export function pngSize(data: Buffer): { width: number; height: number } {
  if (data.subarray(0, 8).toString('hex') !== '89504e470d0a1a0a') throw new Error('not a PNG');
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

export function qpdfEncryption(data: Buffer, password?: string): string {
  const r = spawnSync('qpdf', [...(password ? [`--password=${password}`] : []), '--show-encryption', tmp('f.pdf', data)], { encoding: 'utf8' });
  return r.stdout + r.stderr;
}
