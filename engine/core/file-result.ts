/** A handler's answer that is a file, not JSON: HTTP sends the bytes, IPC sends them as base64. */
export class FileResult {
  constructor(
    readonly fileName: string,
    readonly mime: string,
    readonly data: Buffer,
  ) {}
}

/** A file name safe on every OS and in a Content-Disposition header: no separators, controls or quotes. */
export function safeFileName(name: string, fallback = 'report'): string {
  const cleaned = name
    .replace(/[\u0000-\u001f\u007f"*/:<>?\\|]/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/^[.\s-]+|[.\s]+$/g, '')
    .slice(0, 150);
  return cleaned || fallback;
}

/** `attachment; filename="ascii"; filename*=UTF-8''encoded` (RFC 6266). */
export function contentDisposition(fileName: string): string {
  const safe = safeFileName(fileName);
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(safe)}`;
}

/** A safe name not yet in `used` (compared ignoring case): "Sales.pdf", then "Sales (2).pdf". */
export function uniqueName(used: Set<string>, wanted: string): string {
  const clean = safeFileName(wanted);
  let name = clean;
  for (let n = 2; used.has(name.toLowerCase()); n++) name = clean.replace(/(\.\w+)?$/, (ext) => ` (${n})${ext}`);
  used.add(name.toLowerCase());
  return name;
}
