import ExcelJS from 'exceljs';
import { format as formatNumber } from 'numfmt';
import { findSoffice, officeConvert } from './office-pdf.js';
import { docxTextParts } from './docx-fill.js';
import { relationshipsOf } from './office-parts.js';
import { slidePaths } from './pptx-fill.js';
import { openOfficePackage, type OfficePackage, type TemplateFormat } from './template-package.js';
import { descendants, kids, parseXml, textOf, type Element } from './xml.js';
import { REPORT_STYLE, REPORT_STYLE_HASH } from '../report-style.js';

// A look at a filled template in the designer, without Office: the text, tables and pictures of a
// Word file in order, each sheet's cells of a workbook as Excel shows them (formulas computed by
// LibreOffice where it is installed, values in their number formats), each slide's text and pictures. The file
// itself is one click away (download); this is for checking the data went where it should.

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
// The report style and page of Broadsheet's own HTML: the designer's preview (under the app's strict
// CSP, which allows exactly that style) shows a template's filled file with the same rules.
const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src '${REPORT_STYLE_HASH}'; img-src data:"><title>${esc(title)}</title><style>${REPORT_STYLE}</style></head><body><div class="report-page">${body}</div></body></html>`;

/** Pictures of a part as data URLs, by relationship id. */
function pictures(pkg: OfficePackage, part: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of relationshipsOf(pkg, part)) {
    if (rel.external || !rel.type.endsWith('/image')) continue;
    const bytes = pkg.parts.get(rel.path);
    const mime = /\.jpe?g$/i.test(rel.path) ? 'image/jpeg' : /\.gif$/i.test(rel.path) ? 'image/gif' : 'image/png';
    if (bytes) out.set(rel.id, `data:${mime};base64,${bytes.toString('base64')}`);
  }
  return out;
}

const paragraphText = (p: Element) =>
  descendants(p, 't')
    .map((t) => textOf(t))
    .join('');

function imagesIn(el: Element, pics: Map<string, string>): string {
  return descendants(el, 'blip')
    .map((b) => pics.get(b.getAttribute('r:embed') ?? ''))
    .filter(Boolean)
    .map((src) => `<img alt="" src="${src}">`)
    .join('');
}

function docxPreview(pkg: OfficePackage): string {
  const main = docxTextParts(pkg)[0].path;
  const doc = parseXml(pkg.parts.get(main)!.toString('utf8'), main);
  const pics = pictures(pkg, main);
  const body = descendants(doc, 'body')[0];
  const block = (el: Element): string => {
    if (el.localName === 'p') {
      const style = descendants(el, 'pStyle')[0]?.getAttribute('w:val') ?? '';
      const tag = /^(Heading|Title)/i.test(style) ? 'h2' : 'p';
      return `<${tag}>${esc(paragraphText(el))}${imagesIn(el, pics)}</${tag}>`;
    }
    if (el.localName === 'tbl')
      return `<table>${kids(el, 'tr')
        .map(
          (tr) =>
            `<tr>${kids(tr, 'tc')
              .map((tc) => `<td>${kids(tc, 'p').map(block).join('')}</td>`)
              .join('')}</tr>`,
        )
        .join('')}</table>`;
    return '';
  };
  if (!body) return '';
  const out: string[] = [];
  for (let n = body.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(block(n as Element));
  return out.join('');
}

/**
 * A cell as Excel shows it: a formula's result (when the workbook was computed), numbers and dates in
 * the cell's own number format (numfmt reads Excel's format codes).
 */
function cellText(cell: ExcelJS.Cell, computed: boolean): { text: string; numeric: boolean } {
  let v: unknown = cell.value;
  if (v === null || v === undefined) return { text: '', numeric: false };
  if (cell.type === ExcelJS.ValueType.Formula) {
    const result = cell.result as unknown;
    if (!computed || result === undefined || result === null) return { text: `=${cell.formula}`, numeric: false };
    v = result;
  }
  if (typeof v === 'object' && v !== null && !(v instanceof Date)) {
    if ('error' in v) return { text: String((v as { error: string }).error), numeric: false };
    if ('richText' in v)
      return { text: (v as { richText: { text: string }[] }).richText.map((t) => t.text).join(''), numeric: false };
    return { text: String((v as { text?: string }).text ?? ''), numeric: false };
  }
  if (typeof v === 'number' || v instanceof Date) {
    const pattern = cell.numFmt || 'General';
    // A date cell comes as a Date at UTC midnight: formatted as the serial date it was in the file.
    return { text: formatNumber(pattern, v, { throws: false, ignoreTimezone: true }), numeric: typeof v === 'number' };
  }
  return { text: String(v), numeric: false };
}

/** The workbook with every formula computed by LibreOffice, or as it was (and why) when that cannot be. */
async function computedWorkbook(filled: Buffer): Promise<{ bytes: Buffer; note: string }> {
  if (!findSoffice())
    return {
      bytes: filled,
      note: 'Formulas are shown as written: the preview computes them with LibreOffice, which is not installed on this machine.',
    };
  try {
    return { bytes: await officeConvert(filled, 'xlsx', 'xlsx'), note: '' };
  } catch {
    return {
      bytes: filled,
      note: 'Formulas are shown as written: LibreOffice could not compute them for the preview.',
    };
  }
}

async function xlsxPreview(filled: Buffer): Promise<string> {
  const { bytes, note } = await computedWorkbook(filled);
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const sheets = book.worksheets
    .map((sheet) => {
      const rows: string[] = [];
      const width = Math.min(sheet.columnCount, 30);
      sheet.eachRow({ includeEmpty: true }, (row, r) => {
        if (r > 300) return;
        const cells = Array.from({ length: width }, (_, i) => {
          const { text, numeric } = cellText(row.getCell(i + 1), !note);
          return `<td${numeric ? ' class="n"' : ''}>${esc(text)}</td>`;
        });
        rows.push(`<tr>${cells.join('')}</tr>`);
      });
      return `<h2>${esc(sheet.name)}</h2><table>${rows.join('')}</table>`;
    })
    .join('');
  return `${note ? `<p>${esc(note)}</p>` : ''}${sheets}`;
}

function pptxPreview(pkg: OfficePackage): string {
  return slidePaths(pkg)
    .map((path, i) => {
      const doc = parseXml(pkg.parts.get(path)!.toString('utf8'), path);
      const pics = pictures(pkg, path);
      const texts = descendants(doc, 'p')
        .filter((p) => p.namespaceURI?.includes('drawingml'))
        .map(paragraphText)
        .filter(Boolean)
        .map((t) => `<p>${esc(t)}</p>`)
        .join('');
      return `<h3>Slide ${i + 1}</h3>${texts}${imagesIn(doc.documentElement!, pics)}`;
    })
    .join('<hr class="break">');
}

/** The body of a filled HTML template (its own styles stay in the file; the preview uses the report style). */
function htmlBody(html: string): string {
  const body = /<body\b[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  return body.replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, '');
}

/** An HTML look at a filled template (HTML templates are their own preview). */
export async function templatePreviewHtml(kind: TemplateFormat, filled: Buffer, title: string): Promise<string> {
  if (kind === 'html') return page(title, htmlBody(filled.toString('utf8')));
  if (kind === 'xlsx') return page(title, await xlsxPreview(filled));
  const pkg = await openOfficePackage(filled, kind);
  return page(title, kind === 'docx' ? docxPreview(pkg) : pptxPreview(pkg));
}
