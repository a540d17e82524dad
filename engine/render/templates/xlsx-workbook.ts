import { relationshipsOf, relsOfType, partXml } from './office-parts.js';
import { tagsIn, type TemplateTag } from './tags.js';
import type { OfficePackage } from './template-package.js';
import type { TagOccurrence } from './template-data.js';
import { columnLetters, offsetFormula, parseCellRef } from './xlsx-refs.js';
import { descendants, kid, kids, textOf, type Document, type Element } from './xml.js';

// A workbook template read into rows and cells: what the scanner checks and the fill lays out.

export interface TemplateCell {
  el: Element;
  col: number;
  /** The cell's text when it holds a string (shared or inline); null for numbers, formulas and blanks. */
  text: string | null;
  formula: string | null;
}
export interface TemplateRowModel {
  el: Element;
  cells: TemplateCell[];
}
export interface SheetModel {
  name: string;
  path: string;
  doc: Document;
  sheetData: Element;
  rows: Map<number, TemplateRowModel>;
  maxRow: number;
  maxCol: number;
  /** The field whose values repeat this sheet ({{sheet:F}} in a cell), if any. */
  repeat?: TemplateTag & { kind: 'sheet' };
}
export interface WorkbookModel {
  workbookPath: string;
  workbook: Document;
  sheets: SheetModel[];
  sharedStrings: string[];
}

function sharedStringsOf(pkg: OfficePackage, workbookPath: string): string[] {
  const rel = relsOfType(pkg, workbookPath, 'sharedStrings')[0];
  const doc = rel ? partXml(pkg, rel.path) : null;
  if (!doc) return [];
  // A rich-text string is several runs; its text is their texts joined (phonetic runs left out).
  return kids(doc.documentElement!, 'si').map((si) =>
    [...kids(si, 't'), ...kids(si, 'r').flatMap((r) => kids(r, 't'))].map((t) => textOf(t)).join(''),
  );
}

/**
 * Shared formulas (Excel writes one when a formula is filled down) become each cell's own formula,
 * so a row can be copied or moved on its own.
 */
function unshareFormulas(cells: { el: Element; col: number; row: number }[]) {
  const masters = new Map<string, { formula: string; row: number; col: number }>();
  for (const c of cells) {
    const f = kid(c.el, 'f');
    if (f?.getAttribute('t') === 'shared' && f.getAttribute('ref') && textOf(f))
      masters.set(f.getAttribute('si') ?? '', { formula: textOf(f), row: c.row, col: c.col });
  }
  for (const c of cells) {
    const f = kid(c.el, 'f');
    if (f?.getAttribute('t') !== 'shared') continue;
    const master = masters.get(f.getAttribute('si') ?? '');
    const text = master ? offsetFormula(master.formula, c.row - master.row, c.col - master.col) : textOf(f);
    for (const a of ['t', 'si', 'ref']) f.removeAttribute(a);
    while (f.firstChild) f.removeChild(f.firstChild);
    f.appendChild(f.ownerDocument!.createTextNode(text));
  }
}

export function readSheet(pkg: OfficePackage, name: string, path: string, shared: string[]): SheetModel {
  const doc = partXml(pkg, path);
  if (!doc) throw new Error(`The workbook names a sheet part ${path} it does not have`);
  const sheetData = descendants(doc, 'sheetData')[0];
  const rows = new Map<number, TemplateRowModel>();
  const all: { el: Element; col: number; row: number }[] = [];
  let maxRow = 0;
  let maxCol = 1;
  let lastRow = 0;
  for (const rowEl of sheetData ? kids(sheetData, 'row') : []) {
    const r = Number(rowEl.getAttribute('r')) || lastRow + 1;
    lastRow = r;
    let lastCol = 0;
    const cells: TemplateCell[] = [];
    for (const c of kids(rowEl, 'c')) {
      const col = parseCellRef(c.getAttribute('r') ?? '')?.col ?? lastCol + 1;
      lastCol = col;
      const type = c.getAttribute('t');
      const text =
        type === 's' ? (shared[Number(textOf(kid(c, 'v')))] ?? '') : type === 'inlineStr' ? textOf(kid(c, 'is')) : null;
      cells.push({ el: c, col, text, formula: null });
      all.push({ el: c, col, row: r });
      maxCol = Math.max(maxCol, col);
    }
    rows.set(r, { el: rowEl, cells });
    maxRow = Math.max(maxRow, r);
  }
  unshareFormulas(all);
  const repeat = [...rows.values()]
    .flatMap((row) => row.cells.flatMap((c) => (c.text ? tagsIn(c.text).map((t) => t.tag) : [])))
    .find((t) => t?.kind === 'sheet') as (TemplateTag & { kind: 'sheet' }) | undefined;
  for (const row of rows.values())
    for (const c of row.cells) c.formula = kid(c.el, 'f') ? textOf(kid(c.el, 'f')) : null;
  return { name, path, doc, sheetData: sheetData!, rows, maxRow, maxCol, repeat };
}

/** Reads the workbook's sheets in order, with their rows and cells. */
export function readWorkbook(pkg: OfficePackage): WorkbookModel {
  const officeDoc = relationshipsOf(pkg, '').find((r) => r.type.endsWith('/officeDocument'));
  const workbookPath = officeDoc?.path ?? 'xl/workbook.xml';
  const workbook = partXml(pkg, workbookPath)!;
  const targets = new Map(relationshipsOf(pkg, workbookPath).map((r) => [r.id, r.path]));
  const shared = sharedStringsOf(pkg, workbookPath);
  const sheets = descendants(workbook, 'sheet')
    .map((s) => ({ name: s.getAttribute('name') ?? '', path: targets.get(s.getAttribute('r:id') ?? '') }))
    .filter((s): s is { name: string; path: string } => !!s.path && s.path.includes('worksheets/'))
    .map((s) => readSheet(pkg, s.name, s.path, shared));
  return { workbookPath, workbook, sheets, sharedStrings: shared };
}

/** The tags of a workbook in reading order (sheet by sheet, row by row), each at its cell. */
export function workbookTags(book: WorkbookModel): (TagOccurrence & { sheet: string; row: number; col: number })[] {
  const out: (TagOccurrence & { sheet: string; row: number; col: number })[] = [];
  for (const sheet of book.sheets)
    for (const [r, row] of [...sheet.rows.entries()].sort((a, b) => a[0] - b[0]))
      for (const c of row.cells)
        if (c.text)
          for (const t of tagsIn(c.text))
            out.push({
              tag: t.tag,
              raw: t.raw,
              where: `${sheet.name}!${columnLetters(c.col)}${r}`,
              rowId: `${sheet.name}!${r}`,
              sheet: sheet.name,
              row: r,
              col: c.col,
            });
  return out;
}
