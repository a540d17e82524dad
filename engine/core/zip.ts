import { uniqueName } from './file-result.js';

/** A file to put in a zip: its name, and its bytes read when the zip takes it (one at a time). */
export interface ZipEntry {
  name: string;
  read: () => Promise<Buffer>;
}

/** Files zipped under unique safe names ("a.pdf", "a (2).pdf"); jszip is loaded on the first zip, not at start. */
export async function zipFiles(entries: ZipEntry[]): Promise<Buffer> {
  const { default: JSZip } = await import('jszip');
  const zip = new JSZip();
  const used = new Set<string>();
  for (const e of entries) zip.file(uniqueName(used, e.name), await e.read());
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}
