import type JSZip from 'jszip';
import { badInput } from '../../core/errors.js';

// A template is hostile input until proven otherwise: a zip may be a bomb, an XML part may declare
// entities, an Office file may carry macros, OLE objects or links to other files. Every template
// passes here before anything reads it, at upload and again at each fill.

export type TemplateFormat = 'docx' | 'xlsx' | 'pptx' | 'html';

export const TEMPLATE_LIMITS = {
  /** The largest template file taken. */
  fileBytes: 25 * 1024 * 1024,
  /** Parts in one Office file. */
  entries: 2000,
  /** Tags in one template (a report's data fills each; a file with more is refused by its count). */
  tags: 20_000,
  /** One part, unpacked. */
  entryBytes: 40 * 1024 * 1024,
  /** All parts, unpacked. */
  totalBytes: 200 * 1024 * 1024,
  /** Unpacked to packed, for parts over 1 MiB unpacked (XML compresses well, not this well). */
  ratio: 200,
} as const;

const MAIN_PART: Record<Exclude<TemplateFormat, 'html'>, string> = {
  docx: 'word/document.xml',
  xlsx: 'xl/workbook.xml',
  pptx: 'ppt/presentation.xml',
};
const MACRO_TYPES = /macroEnabled|vbaProject|\.macro/i;

const refuse = (message: string) => badInput(message, [{ field: 'templateFile', message }]);

/** The format of a template by its bytes (a zip's main part, or HTML text), checked against its name's extension. */
export function templateFormatOf(fileName: string): TemplateFormat | null {
  const ext = fileName.toLowerCase().match(/\.([a-z]+)$/)?.[1];
  if (ext === 'docx' || ext === 'xlsx' || ext === 'pptx') return ext;
  if (ext === 'html' || ext === 'htm') return 'html';
  if (ext === 'docm' || ext === 'xlsm' || ext === 'pptm' || ext === 'dotm' || ext === 'xltm' || ext === 'potm')
    throw refuse(
      `"${fileName}" is a macro-enabled file; macros are not accepted. Save it as .${ext.slice(0, 3)}x and upload that`,
    );
  return null;
}

/** Unpacks one part, stopping as soon as it grows past what its header declared or the limit. */
async function readPart(file: JSZip.JSZipObject, declared: number): Promise<Buffer> {
  const limit = Math.min(declared, TEMPLATE_LIMITS.entryBytes);
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    // jszip's internal stream (typed only on the object's prototype) unpacks chunk by chunk, so a liar stops early.
    const stream = (
      file as unknown as {
        internalStream(type: 'uint8array'): {
          on(event: string, fn: (x: never) => void): void;
          pause(): void;
          resume(): void;
        };
      }
    ).internalStream('uint8array');
    stream.on('data', (chunk: Uint8Array) => {
      size += chunk.length;
      if (size > limit) {
        stream.pause();
        reject(
          refuse(
            `The part ${file.name} unpacks to more than it declares or than ${TEMPLATE_LIMITS.entryBytes / 1024 / 1024} MiB`,
          ),
        );
        return;
      }
      chunks.push(chunk);
    });
    stream.on('error', (e: Error) => reject(refuse(`The part ${file.name} cannot be read: ${e.message}`)));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.resume();
  });
}

/** An Office template opened: its parts as text (XML) or bytes, read once, all within the limits. */
export interface OfficePackage {
  format: Exclude<TemplateFormat, 'html'>;
  /** Every part by its path, unpacked. */
  parts: Map<string, Buffer>;
  /** The file as opened: packing again takes the parts left as they were still compressed from it. */
  bytes?: Buffer;
}

export const partText = (pkg: OfficePackage, path: string) => pkg.parts.get(path)?.toString('utf8');

/**
 * Opens an Office template within the limits and refuses what it must not carry: macros, ActiveX,
 * embedded OLE objects, links to external workbooks or files, and XML with a DOCTYPE (entities).
 */
export async function openOfficePackage(
  bytes: Buffer,
  format: Exclude<TemplateFormat, 'html'>,
): Promise<OfficePackage> {
  if (bytes.length > TEMPLATE_LIMITS.fileBytes)
    throw refuse(
      `The template is ${(bytes.length / 1024 / 1024).toFixed(1)} MiB; the largest taken is ${TEMPLATE_LIMITS.fileBytes / 1024 / 1024} MiB`,
    );
  let zip: JSZip;
  try {
    zip = await (await import('jszip')).default.loadAsync(bytes, { checkCRC32: false });
  } catch {
    throw refuse(`The file is not a ${format} file (it is no Office package)`);
  }
  const files = Object.values(zip.files).filter((f) => !f.dir);
  if (files.length > TEMPLATE_LIMITS.entries)
    throw refuse(`The template has ${files.length} parts; at most ${TEMPLATE_LIMITS.entries} are taken`);
  let total = 0;
  const parts = new Map<string, Buffer>();
  for (const f of files) {
    // jszip keeps each entry's sizes from the central directory on the (undocumented) _data.
    const sizes = (f as unknown as { _data?: { compressedSize?: number; uncompressedSize?: number } })._data ?? {};
    const declared = sizes.uncompressedSize ?? TEMPLATE_LIMITS.entryBytes;
    const packed = Math.max(1, sizes.compressedSize ?? 1);
    if (declared > TEMPLATE_LIMITS.entryBytes)
      throw refuse(
        `The part ${f.name} unpacks to ${(declared / 1024 / 1024).toFixed(0)} MiB; at most ${TEMPLATE_LIMITS.entryBytes / 1024 / 1024} MiB a part are taken`,
      );
    if (declared > 1024 * 1024 && declared / packed > TEMPLATE_LIMITS.ratio)
      throw refuse(
        `The part ${f.name} is packed ${Math.round(declared / packed)} to 1, like a zip bomb; it is not taken`,
      );
    total += declared;
    if (total > TEMPLATE_LIMITS.totalBytes)
      throw refuse(`The template unpacks to more than ${TEMPLATE_LIMITS.totalBytes / 1024 / 1024} MiB`);
    parts.set(f.name, await readPart(f, declared));
  }
  if (!parts.has(MAIN_PART[format])) throw refuse(`The file is not a ${format} file (it has no ${MAIN_PART[format]})`);
  refuseHostileParts(parts);
  return { format, parts, bytes };
}

function refuseHostileParts(parts: Map<string, Buffer>) {
  const found = new Set<string>();
  for (const [path, data] of parts) {
    const lower = path.toLowerCase();
    if (lower.endsWith('vbaproject.bin') || lower.endsWith('vbadata.xml')) found.add('macros (a VBA project)');
    if (lower.includes('/activex/')) found.add('ActiveX controls');
    if (lower.includes('/externallinks/')) found.add('links to other workbooks');
    if (lower.includes('/embeddings/') && (lower.endsWith('.bin') || lower.includes('oleobject')))
      found.add('embedded OLE objects');
    if (!/\.(xml|rels|vml)$/.test(lower)) continue;
    const text = data.toString('utf8');
    if (/<!DOCTYPE|<!ENTITY/i.test(text)) found.add(`an XML declaration of entities (in ${path})`);
    // Word fields that fetch or run something when the document is opened or updated.
    const instructions = [
      ...[...text.matchAll(/<w:instrText\b[^>]*>([^<]*)<\/w:instrText>/g)].map((m) => m[1]),
      ...[...text.matchAll(/\bw:instr="([^"]*)"/g)].map((m) => m[1]),
    ].join('');
    const field = /\b(INCLUDEPICTURE|INCLUDETEXT|LINK|DDEAUTO|DDE|IMPORT)\b/.exec(instructions)?.[1];
    if (field) found.add(`a ${field} field, which loads from elsewhere (in ${path})`);
    if (lower === '[content_types].xml' && MACRO_TYPES.test(text)) found.add('macros (a macro-enabled content type)');
    if (lower.endsWith('.rels')) {
      for (const m of text.matchAll(/<Relationship\b[^>]*>/g)) {
        const rel = m[0];
        const type = rel.match(/Type="([^"]*)"/)?.[1] ?? '';
        if (/oleObject|\/package"/i.test(type)) found.add('embedded OLE objects');
        if (/TargetMode="External"/i.test(rel) && !/\/hyperlink"?$/i.test(type.replace(/"$/, '')))
          found.add(`a link to an outside file (${type.split('/').pop()} in ${path})`);
      }
    }
  }
  if (found.size)
    throw refuse(
      `The template carries ${[...found].join(', ')}; remove ${found.size > 1 ? 'them' : 'it'} and upload the file again`,
    );
}

/** Packs parts back into an Office file; [Content_Types].xml first, as readers expect. */
export async function packOffice(
  parts: Map<string, Buffer | string>,
  compression: 'DEFLATE' | 'STORE' = 'DEFLATE',
  from?: OfficePackage,
): Promise<Buffer> {
  const { default: JSZip } = await import('jszip');
  // A part left as it was (the very buffer the template gave) keeps its compressed bytes from the
  // template: deflating a file's styles, theme and fonts again was most of a small fill's time.
  if (from?.bytes) {
    const zip = await JSZip.loadAsync(from.bytes, { checkCRC32: false });
    for (const name of Object.keys(zip.files)) if (!zip.files[name].dir && !parts.has(name)) zip.remove(name);
    for (const [path, data] of parts) if (data !== from.parts.get(path)) zip.file(path, data, { compression });
    return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } });
  }
  const zip = new JSZip();
  const ordered = [...parts.keys()].sort((a, b) =>
    a === '[Content_Types].xml' ? -1 : b === '[Content_Types].xml' ? 1 : 0,
  );
  for (const path of ordered) zip.file(path, parts.get(path)!);
  return zip.generateAsync({ type: 'nodebuffer', compression, compressionOptions: { level: 6 } });
}
