import type { Cell } from '../document.js';
import { own, tagKey, tagsIn, type TemplateTag } from './tags.js';
import type { TemplateData, TemplateScope } from './template-data.js';
import { packOffice, type OfficePackage } from './template-package.js';
import { relsOfType, relsPathOf, partXml } from './office-parts.js';
import { layoutSheet, placementWithin, repeatingBlock, type OutputRow, type SheetLayout } from './xlsx-layout.js';
import {
  columnLetters,
  columnNumber,
  moveFormula,
  parseCellRef,
  unquoteSheet,
  type MoveContext,
  type RowPlacement,
} from './xlsx-refs.js';
import { readSheet, readWorkbook, type SheetModel, type TemplateCell } from './xlsx-workbook.js';
import { addOverride, ownSheetParts } from './xlsx-sheet-copy.js';
import { drawPictures, placePictures, type CellPicture } from './xlsx-pictures.js';
import { copiedCell, copiedValue, formulaCell, rowOpen, valueCell } from './xlsx-row-xml.js';
import { badInput } from '../../core/errors.js';
import {
  descendants,
  descendantsNS,
  kid,
  kids,
  serializeXml,
  sibling,
  textOf,
  xmlSafe,
  type Document,
  type Element,
} from './xml.js';

// Fills an Excel template and keeps it Excel: rows expand in place, and every formula, merged
// cell, conditional format, data validation, table, defined name, drawing anchor and chart series
// moves with them; charts get cached values for what they now cover, and Excel recalculates
// formulas on open (their old cached results are dropped).

type Values = Map<string, Cell>;

/** Excel 2010's spreadsheet extensions, and the namespace of their ranges and formulas (xm:sqref, xm:f). */
const X14 = 'http://schemas.microsoft.com/office/spreadsheetml/2009/9/main';
const XM = 'http://schemas.microsoft.com/office/excel/2006/main';
const RELS_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The value a cell's single tag stands for in an output row, or the text with every tag filled. */
/** A template cell's tags, read once: a row repeated 500 times reads them 500 times otherwise. */
const cellTags = new WeakMap<TemplateCell, ReturnType<typeof tagsIn>>();
function tagsOfCell(cell: TemplateCell): ReturnType<typeof tagsIn> {
  let found = cellTags.get(cell);
  if (!found) cellTags.set(cell, (found = cell.text ? tagsIn(cell.text) : []));
  return found;
}

/** The image tag a cell is made of, alone: the cell becomes a picture of the chart. */
function pictureTag(cell: TemplateCell): TemplateTag | undefined {
  const found = tagsOfCell(cell);
  return found.length === 1 && found[0].tag?.kind === 'image' && found[0].raw === (cell.text ?? '').trim()
    ? found[0].tag
    : undefined;
}

function cellContent(cell: TemplateCell, row: OutputRow, root: TemplateScope): { value: Cell } | null {
  const found = tagsOfCell(cell);
  if (!found.length) return null;
  const scope = row.scope;
  const none = { raw: null, text: '' };
  const one = (tag: TemplateTag | null): { raw: Cell; text: string } => {
    if (!tag) return none;
    const key = tagKey(tag);
    switch (tag.kind) {
      case 'variable':
      case 'expression': {
        // In a row repeated per value of a field, computed with that row's value selected.
        const perRow =
          row.mode.kind === 'expand' ? own(scope.rowScalars ?? {}, row.mode.source)?.[row.mode.k] : undefined;
        return (perRow && own(perRow, key)) ?? own(scope.scalars, key) ?? own(root.scalars, key) ?? none;
      }
      case 'field': {
        const values = own(scope.fields, key) ?? [];
        if (row.mode.kind === 'expand') return values[row.mode.k] ?? none;
        const joined = values.map((v) => v.text).join(', ');
        return { raw: joined, text: joined };
      }
      case 'column': {
        const table = own(scope.tables, key);
        const j = table?.columns.findIndex((c) => c.label.toLowerCase() === tag.column.toLowerCase()) ?? -1;
        if (!table || j < 0 || row.mode.kind !== 'expand') return none;
        return { raw: table.rows[row.mode.k]?.[j] ?? null, text: table.display[row.mode.k]?.[j] ?? '' };
      }
      default:
        return none;
    }
  };
  // A cell that is one tag takes the value itself (a number stays a number, in the cell's format);
  // tags within text are filled with their text.
  if (found.length === 1 && found[0].raw === (cell.text ?? '').trim()) return { value: one(found[0].tag).raw };
  let text = '';
  let last = 0;
  for (const f of found) {
    text += cell.text!.slice(last, f.start) + one(f.tag).text;
    last = f.end;
  }
  return { value: text + cell.text!.slice(last) };
}

interface FillContext {
  layouts: Map<string, SheetLayout>;
  data: TemplateData;
  values: Map<string, Values>;
  sharedStrings: string[];
  /** Charts to place as pictures, by sheet: where their {{image:…}} cells went. */
  pictures: Map<string, CellPicture[]>;
  /** Each sheet's filled rows as XML, and the widest of them (its last column). */
  rows: Map<string, { xml: string; widest: number }>;
}

const placementOf = (ctx: FillContext) => (sheet: string) => ctx.layouts.get(sheet)?.placement ?? null;

function moveContext(ctx: FillContext, ownSheet: string | null, extra: Partial<MoveContext> = {}): MoveContext {
  const find = placementOf(ctx);
  return { ownSheet, placement: (sheet) => find(sheet), ...extra };
}

/** Stands in `sheetData` for the filled rows until the sheet is written (see `sheetXml`). */
const ROWS_MARK = 'bs-rows';

/**
 * The sheet's new rows: each output row from its template row, cells filled, formulas moved,
 * written as XML text (xlsx-row-xml) that `sheetXml` puts in place.
 */
function fillSheetRows(sheet: SheetModel, ctx: FillContext) {
  const layout = ctx.layouts.get(sheet.name)!;
  const values: Values = new Map();
  ctx.values.set(sheet.name, values);
  for (const el of kids(sheet.sheetData, 'row')) sheet.sheetData.removeChild(el);
  sheet.sheetData.appendChild(sheet.doc.createComment(ROWS_MARK));
  const blocks = new Map<number, ReturnType<typeof repeatingBlock>>();
  const blockOf = (r: number) => {
    if (!blocks.has(r)) blocks.set(r, repeatingBlock(sheet, r));
    return blocks.get(r)!;
  };
  const out: string[] = [];
  let widest = 1;
  layout.rows.forEach((row, i) => {
    const o = i + 1;
    const template = sheet.rows.get(row.templateRow);
    if (!template) return;
    const local = placementWithin(row.chain, layout.placement, layout.rows.length);
    const move = moveContext(ctx, sheet.name, {
      placement: (s) => (s === sheet.name ? local : (ctx.layouts.get(s)?.placement ?? null)),
      copy: { templateRow: row.templateRow, outputRow: o },
    } as Partial<MoveContext>);
    /** Each output cell by column: its XML and what a chart reading it sees. */
    const cells = new Map<number, { xml: (ref: string) => string; value?: Cell }>();
    // Cells beside an expanding row's block (a side table) are written once, in its first copy.
    const block = row.mode.kind === 'expand' && row.mode.k > 0 ? blockOf(row.templateRow) : null;
    for (const cell of template.cells) {
      if (block && (cell.col < block.from || cell.col > block.to)) continue;
      const tableTag = tagsOfCell(cell).find((t) => t.tag?.kind === 'table')?.tag;
      if (tableTag) {
        const table = own(row.scope.tables, tagKey(tableTag));
        const line: Cell[] =
          row.mode.kind === 'tableData' ? (table?.rows[row.mode.k] ?? []) : (table?.columns.map((c) => c.label) ?? []);
        line.forEach((v, j) =>
          cells.set(cell.col + j, { xml: (ref) => valueCell(cell.el, ref, v, false), value: written(v) }),
        );
        if (!line.length) cells.set(cell.col, { xml: (ref) => copiedCell(cell.el, ref, false) });
        continue;
      }
      if (row.mode.kind === 'tableData') continue;
      if (cells.has(cell.col)) continue;
      const image = pictureTag(cell);
      if (image) {
        // The cell stays, empty; the chart is placed over it once the sheet's rows are final.
        const chart = own(row.scope.charts, tagKey(image)) ?? own(ctx.data.root.charts, tagKey(image));
        if (chart)
          ctx.pictures.set(sheet.name, [...(ctx.pictures.get(sheet.name) ?? []), { row: o, col: cell.col, chart }]);
        cells.set(cell.col, { xml: (ref) => valueCell(cell.el, ref, null, false) });
        continue;
      }
      const content = cellContent(cell, row, ctx.data.root);
      if (content) {
        const value = content.value;
        cells.set(cell.col, { xml: (ref) => valueCell(cell.el, ref, value, true), value: written(value) });
      } else if (cell.formula !== null) {
        const formula = moveFormula(cell.formula, move);
        const shared = kid(cell.el, 'f')!.getAttribute('ref');
        const sharedRef = shared ? moveFormula(shared, move) : null;
        cells.set(cell.col, { xml: (ref) => formulaCell(cell.el, ref, formula, sharedRef) });
      } else
        cells.set(cell.col, {
          xml: (ref) => copiedCell(cell.el, ref, true),
          value: copiedValue(cell.el, ctx.sharedStrings),
        });
    }
    let xml = rowOpen(template.el, o);
    for (const col of [...cells.keys()].sort((a, b) => a - b)) {
      const { xml: cellXml, value } = cells.get(col)!;
      const ref = `${columnLetters(col)}${o}`;
      xml += cellXml(ref);
      if (value !== undefined) values.set(ref, value);
      widest = Math.max(widest, col);
    }
    out.push(`${xml}</${template.el.tagName}>`);
  });
  ctx.rows.set(sheet.name, { xml: out.join(''), widest });
}

/** What a chart reads from a cell a value was written to: its text, or its number. */
const written = (value: Cell): Cell | undefined =>
  value === null || value === ''
    ? undefined
    : typeof value === 'number' && Number.isFinite(value)
      ? value
      : String(value);

/** A filled sheet's XML: its document with the rows written as text in their place. */
function sheetXml(sheet: SheetModel, ctx: FillContext): string {
  const xml = serializeXml(sheet.doc);
  const rows = ctx.rows.get(sheet.name);
  return rows ? xml.replace(`<!--${ROWS_MARK}-->`, () => rows.xml) : xml;
}

/** A range of a sheet moved as a range: a single cell becomes every row its template row became. */
/** A space-separated list of ranges of one sheet (`sqref`), each moved. */
function moveSqrefOf(ctx: FillContext, sheet: string, sqref: string): string {
  return sqref
    .split(/\s+/)
    .filter(Boolean)
    .map((r) => moveRange(ctx, sheet, r))
    .join(' ');
}

function moveRange(ctx: FillContext, sheet: string, range: string): string {
  const [a, b] = range.split(':');
  return moveFormula(`${a}:${b ?? a}`, moveContext(ctx, sheet)).replace(/^(\$?[A-Z]+\$?\d+):\1$/, '$1');
}

function moveSheetStructures(sheet: SheetModel, ctx: FillContext) {
  const layout = ctx.layouts.get(sheet.name)!;
  const doc = sheet.doc;
  // Merged cells within one row are merged again in every row it became; others move as ranges.
  for (const mergeCells of descendants(doc, 'mergeCells')) {
    for (const m of kids(mergeCells, 'mergeCell')) {
      const [a, b] = (m.getAttribute('ref') ?? '').split(':');
      const from = parseCellRef(a);
      const to = parseCellRef(b ?? a);
      if (!from || !to) continue;
      if (from.row === to.row) {
        const block = repeatingBlock(sheet, from.row);
        const beside = !!block && (to.col < block.from || from.col > block.to);
        const outs = layout.rows.flatMap((r, i) =>
          r.templateRow === from.row &&
          r.mode.kind !== 'tableData' &&
          !(beside && r.mode.kind === 'expand' && r.mode.k > 0)
            ? [i + 1]
            : [],
        );
        let previous = m;
        outs.forEach((o, i) => {
          const ref = `${columnLetters(from.col)}${o}:${columnLetters(to.col)}${o}`;
          if (i === 0) m.setAttribute('ref', ref);
          else {
            const copy = m.cloneNode(false) as Element;
            copy.setAttribute('ref', ref);
            mergeCells.insertBefore(copy, previous.nextSibling);
            previous = copy;
          }
        });
        if (!outs.length) mergeCells.removeChild(m);
      } else m.setAttribute('ref', moveRange(ctx, sheet.name, `${a}:${b}`));
    }
    mergeCells.setAttribute('count', String(kids(mergeCells, 'mergeCell').length));
  }
  // The 2006 elements hold ranges in `sqref` attributes and formulas in their own children; the Excel
  // 2010 extensions of the same names (x14:conditionalFormatting, x14:dataValidation) hold them in
  // xm:sqref and xm:f elements instead, moved below: told apart by namespace, not by local name.
  const base = (els: Element[]) => els.filter((el) => el.namespaceURI !== X14);
  for (const el of base([
    ...descendants(doc, 'conditionalFormatting'),
    ...descendants(doc, 'dataValidation'),
    ...descendants(doc, 'protectedRange'),
  ])) {
    const sqref = el.getAttribute('sqref');
    if (sqref) el.setAttribute('sqref', moveSqrefOf(ctx, sheet.name, sqref));
  }
  for (const f of [
    ...base(descendants(doc, 'cfRule')).flatMap((r) => kids(r, 'formula')),
    ...base(descendants(doc, 'dataValidation')).flatMap((d) => [...kids(d, 'formula1'), ...kids(d, 'formula2')]),
  ])
    setText(f, moveFormula(textOf(f), moveContext(ctx, sheet.name)));
  // Excel 2010 extensions (data bars, icon sets, list validations, sparklines): every xm:sqref and xm:f.
  for (const el of descendantsNS(doc, XM, 'sqref')) setText(el, moveSqrefOf(ctx, sheet.name, textOf(el)));
  for (const el of descendantsNS(doc, XM, 'f')) setText(el, moveFormula(textOf(el), moveContext(ctx, sheet.name)));
  for (const el of [...descendants(doc, 'hyperlink'), ...descendants(doc, 'autoFilter')]) {
    const ref = el.getAttribute('ref');
    if (ref) el.setAttribute('ref', moveRange(ctx, sheet.name, ref));
  }
  const dimension = descendants(doc, 'dimension')[0];
  if (dimension)
    dimension.setAttribute(
      'ref',
      `A1:${columnLetters(Math.max(sheet.maxCol, ctx.rows.get(sheet.name)?.widest ?? 1))}${Math.max(1, layout.rows.length)}`,
    );
}

/** A range's cells in order, as a chart series reads them (one row or one column). */
function rangeCells(range: string): { sheet: string; refs: string[] } | null {
  const m = /^((?:'(?:[^']|'')+'|[^!]+))!\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?$/.exec(range.trim());
  if (!m) return null;
  const [c1, r1, c2, r2] = [columnNumber(m[2]), Number(m[3]), columnNumber(m[4] ?? m[2]), Number(m[5] ?? m[3])];
  const refs: string[] = [];
  for (let r = r1; r <= r2; r++) for (let c = c1; c <= c2; c++) refs.push(`${columnLetters(c)}${r}`);
  return { sheet: unquoteSheet(m[1]), refs };
}

/** Rebuilds a series cache (numbers or text) from the filled cells, so previewers show the data. */
function refreshCache(doc: Document, refEl: Element, ctx: FillContext) {
  const f = kid(refEl, 'f');
  const cache = kid(refEl, 'numCache') ?? kid(refEl, 'strCache');
  if (!f || !cache) return;
  const cells = rangeCells(textOf(f));
  const values = cells && ctx.values.get(cells.sheet);
  if (!cells || !values) return;
  const numeric = cache.localName === 'numCache';
  for (const pt of [...kids(cache, 'pt'), ...kids(cache, 'ptCount')]) cache.removeChild(pt);
  const count = sibling(cache, 'ptCount');
  count.setAttribute('val', String(cells.refs.length));
  const formatCode = kid(cache, 'formatCode');
  cache.insertBefore(count, formatCode ? formatCode.nextSibling : cache.firstChild);
  let after: Element = count;
  cells.refs.forEach((ref, idx) => {
    const v = values.get(ref);
    if (v === undefined || v === null || (numeric && typeof v !== 'number')) return;
    const pt = sibling(cache, 'pt');
    pt.setAttribute('idx', String(idx));
    const val = sibling(cache, 'v');
    val.appendChild(doc.createTextNode(xmlSafe(String(v))));
    pt.appendChild(val);
    cache.insertBefore(pt, after.nextSibling);
    after = pt;
  });
}

/**
 * A table's range as its rows went. A table beside a repeated block (its columns all outside the
 * block of its last row) stays once, as its cells do: it moves with its rows but does not grow.
 */
function moveTableRange(sheet: SheetModel, placement: RowPlacement, ctx: FillContext, ref: string): string {
  const m = /^\$?([A-Z]+)\$?(\d+):\$?([A-Z]+)\$?(\d+)$/.exec(ref);
  const block = m && repeatingBlock(sheet, Number(m[4]));
  if (!m || !block || !(block.to < columnNumber(m[1]) || block.from > columnNumber(m[3])))
    return moveRange(ctx, sheet.name, ref);
  return `${m[1]}${placement.first(Number(m[2]))}:${m[3]}${placement.first(Number(m[4]))}`;
}

/** Tables, drawings and their charts of a sheet follow its rows. */
function moveSheetParts(pkg: OfficePackage, sheet: SheetModel, ctx: FillContext, out: Map<string, Buffer | string>) {
  const layout = ctx.layouts.get(sheet.name)!;
  for (const rel of relsOfType(pkg, sheet.path, 'table')) {
    const doc = partXml(pkg, rel.path);
    if (!doc) continue;
    for (const el of [doc.documentElement!, ...descendants(doc, 'autoFilter')]) {
      const ref = el.getAttribute('ref');
      if (ref) el.setAttribute('ref', moveTableRange(sheet, layout.placement, ctx, ref));
    }
    out.set(rel.path, serializeXml(doc));
  }
  for (const rel of relsOfType(pkg, sheet.path, 'drawing')) {
    const doc = partXml(pkg, rel.path);
    if (!doc) continue;
    // Anchors count rows from 0: a picture or chart below expanded rows moves down with them.
    for (const anchor of [...descendants(doc, 'twoCellAnchor'), ...descendants(doc, 'oneCellAnchor')]) {
      const from = kid(anchor, 'from');
      const to = kid(anchor, 'to');
      const fromRow = from && kid(from, 'row');
      const toRow = to && kid(to, 'row');
      const a = fromRow ? Number(textOf(fromRow)) + 1 : null;
      const b = toRow ? Number(textOf(toRow)) + 1 : null;
      if (a !== null && fromRow) setText(fromRow, String(layout.placement.first(a) - 1));
      if (b !== null && toRow)
        setText(toRow, String(Math.max(layout.placement.first(a ?? b), layout.placement.last(b)) - 1));
    }
    out.set(rel.path, serializeXml(doc));
    moveDrawingCharts(pkg, rel.path, ctx, out);
  }
}

/** The charts of a drawing read the rows their ranges became, their cached points refreshed. */
function moveDrawingCharts(pkg: OfficePackage, drawing: string, ctx: FillContext, out: Map<string, Buffer | string>) {
  for (const chartRel of relsOfType(pkg, drawing, 'chart')) {
    const chart = partXml(pkg, chartRel.path);
    if (!chart) continue;
    for (const f of descendants(chart, 'f')) setText(f, moveFormula(textOf(f), moveContext(ctx, null)));
    for (const refEl of [...descendants(chart, 'numRef'), ...descendants(chart, 'strRef')])
      refreshCache(chart, refEl, ctx);
    out.set(chartRel.path, serializeXml(chart));
  }
}

/** A chart on a chart sheet of its own follows the rows it reads, as a chart on a worksheet does. */
function moveChartSheets(
  pkg: OfficePackage,
  book: ReturnType<typeof readWorkbook>,
  ctx: FillContext,
  out: Map<string, Buffer | string>,
) {
  for (const sheet of relsOfType(pkg, book.workbookPath, 'chartsheet'))
    for (const drawing of relsOfType(pkg, sheet.path, 'drawing')) moveDrawingCharts(pkg, drawing.path, ctx, out);
}

/**
 * Pivot tables over rows that expanded: each cache's worksheet source follows the rows (a table or
 * a named source follows by itself), its records (the old rows' values) are dropped, and the cache
 * refreshes on open, so Excel and LibreOffice show every row; a pivot's own place moves with its sheet.
 */
function movePivots(
  pkg: OfficePackage,
  book: ReturnType<typeof readWorkbook>,
  ctx: FillContext,
  out: Map<string, Buffer | string>,
) {
  for (const sheet of book.sheets)
    for (const rel of relsOfType(pkg, sheet.path, 'pivotTable')) {
      const doc = partXml(pkg, rel.path);
      const location = doc && descendants(doc, 'location')[0];
      const ref = location?.getAttribute('ref');
      if (!doc || !location || !ref) continue;
      location.setAttribute('ref', moveRange(ctx, sheet.name, ref));
      out.set(rel.path, serializeXml(doc));
    }
  for (const rel of relsOfType(pkg, book.workbookPath, 'pivotCacheDefinition')) {
    const doc = partXml(pkg, rel.path);
    if (!doc) continue;
    const root = doc.documentElement!;
    for (const source of descendants(doc, 'worksheetSource')) {
      const ref = source.getAttribute('ref');
      const sheet = source.getAttribute('sheet');
      if (ref && sheet && ctx.layouts.has(sheet)) source.setAttribute('ref', moveRange(ctx, sheet, ref));
    }
    root.setAttribute('refreshOnLoad', '1');
    for (const records of relsOfType(pkg, rel.path, 'pivotCacheRecords')) {
      dropPart(out, rel.path, records);
      root.removeAttributeNS(RELS_NS, 'id');
      root.removeAttribute('recordCount');
      root.setAttribute('saveData', '0');
    }
    out.set(rel.path, serializeXml(doc));
  }
}

function setText(el: Element, text: string) {
  while (el.firstChild) el.removeChild(el.firstChild);
  el.appendChild(el.ownerDocument!.createTextNode(text));
}

/** Defined names follow their sheets; the calculation chain (cell order of the old layout) goes. */
function fixWorkbook(
  pkg: OfficePackage,
  book: ReturnType<typeof readWorkbook>,
  ctx: FillContext,
  out: Map<string, Buffer | string>,
) {
  const wb = book.workbook;
  const sheetNames = book.sheets.map((s) => s.name);
  for (const dn of descendants(wb, 'definedName')) {
    const local = dn.getAttribute('localSheetId');
    setText(dn, moveFormula(textOf(dn), moveContext(ctx, local !== null ? (sheetNames[Number(local)] ?? null) : null)));
  }
  let calcPr = descendants(wb, 'calcPr')[0];
  if (!calcPr) {
    calcPr = wb.createElementNS(
      wb.documentElement!.namespaceURI,
      wb.documentElement!.prefix ? `${wb.documentElement!.prefix}:calcPr` : 'calcPr',
    );
    const after = descendants(wb, 'definedNames')[0] ?? descendants(wb, 'sheets')[0];
    wb.documentElement!.insertBefore(calcPr, after.nextSibling);
  }
  calcPr.setAttribute('fullCalcOnLoad', '1');
  out.set(book.workbookPath, serializeXml(wb));
  for (const rel of relsOfType(pkg, book.workbookPath, 'calcChain')) dropPart(out, book.workbookPath, rel);
}

/** Removes a part from the output package: the part, its owner's relationship to it, its content type. */
function dropPart(out: Map<string, Buffer | string>, owner: string, rel: { id: string; path: string }) {
  out.delete(rel.path);
  const relsPath = relsPathOf(owner);
  out.set(relsPath, String(out.get(relsPath)).replace(new RegExp(`<Relationship\\b[^>]*Id="${rel.id}"[^>]*/>`), ''));
  const partName = `/${rel.path}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  out.set(
    '[Content_Types].xml',
    String(out.get('[Content_Types].xml')).replace(new RegExp(`<Override\\b[^>]*PartName="${partName}"[^>]*/>`), ''),
  );
}

/** A sheet name Excel takes: no []:*?/\, at most 31 characters, unique in the workbook (compared without case). */
function sheetName(wanted: string, used: Set<string>): string {
  const base = (
    wanted
      .replace(/[[\]:*?/\\]/g, ' ')
      .replace(/^'+|'+$/g, '')
      .trim() || 'Sheet'
  ).slice(0, 31);
  let name = base;
  for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base.slice(0, 31 - String(n).length - 3)} (${n})`;
  used.add(name.toLowerCase());
  return name;
}

/**
 * Sheets with {{sheet:F}} become one sheet per value of F, each named after its value and filled
 * under it. The copies are new parts beside the original; a sheet with tables or drawings cannot be
 * copied yet (their parts would have to be copied and renamed with it), which is said plainly.
 */
function repeatSheets(
  pkg: OfficePackage,
  book: ReturnType<typeof readWorkbook>,
  data: TemplateData,
  out: Map<string, Buffer | string>,
): { sheet: SheetModel; scope: TemplateScope }[] {
  const result: { sheet: SheetModel; scope: TemplateScope }[] = [];
  const used = new Set(book.sheets.filter((s) => !s.repeat).map((s) => s.name.toLowerCase()));
  const wb = book.workbook;
  const relsPath = relsPathOf(book.workbookPath);
  const rels = partXml(pkg, relsPath)!;
  let copies = 0;
  const numbers = [...pkg.parts.keys()].map((p) => Number(/worksheets\/sheet(\d+)\.xml$/.exec(p)?.[1] ?? 0));
  const ids = descendants(wb, 'sheet').map((e) => Number(e.getAttribute('sheetId') ?? 0));
  let highest = Math.max(0, ...numbers, ...ids);
  for (const sheet of book.sheets) {
    const values = sheet.repeat ? (own(data.root.levels, tagKey(sheet.repeat)) ?? []) : [];
    if (!values.length) {
      result.push({ sheet, scope: data.root });
      continue;
    }
    if (relsOfType(pkg, sheet.path, 'pivotTable').length)
      throw badInput(
        `The sheet "${sheet.name}" repeats per value and holds a pivot table, which cannot be repeated: move the pivot table to another sheet`,
        [{ field: 'templateFile', message: `the sheet "${sheet.name}" repeats and holds a pivot table` }],
      );
    const entry = descendants(wb, 'sheet').find((e) => e.getAttribute('name') === sheet.name)!;
    const template = sheet.name;
    let lastEntry = entry;
    let first: Parameters<typeof ownSheetParts>[2] | null = null;
    values.forEach((value, i) => {
      const name = sheetName(value.value, used);
      // Its drawings, charts, tables and comments: the template's for the first, copies for the others.
      const instance = { from: template, to: name, suffix: String(i + 1) };
      if (i === 0) {
        entry.setAttribute('name', name);
        sheet.name = name;
        first = instance;
        result.push({ sheet, scope: value.scope });
        return;
      }
      // Named sheetN.xml with N unused, as Excel names them (some readers find sheets by that name).
      const number = ++highest;
      copies++;
      const path = sheet.path.replace(/[^/]+$/, `sheet${number}.xml`);
      const relId = `rIdRepeat${copies}`;
      out.set(path, pkg.parts.get(sheet.path)!);
      const ownRels = pkg.parts.get(relsPathOf(sheet.path));
      if (ownRels) out.set(relsPathOf(path), ownRels);
      ownSheetParts(out, path, instance, true);
      const copy = readSheet(
        { ...pkg, parts: new Map(pkg.parts).set(path, pkg.parts.get(sheet.path)!) },
        name,
        path,
        book.sharedStrings,
      );
      const newEntry = entry.cloneNode(false) as Element;
      newEntry.setAttribute('name', name);
      newEntry.setAttribute('sheetId', String(number));
      newEntry.setAttribute('r:id', relId);
      entry.parentNode!.insertBefore(newEntry, lastEntry.nextSibling);
      lastEntry = newEntry;
      const rel = rels.createElementNS(rels.documentElement!.namespaceURI, 'Relationship');
      rel.setAttribute('Id', relId);
      rel.setAttribute('Type', 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet');
      rel.setAttribute('Target', path.replace(/^xl\//, ''));
      rels.documentElement!.appendChild(rel);
      addOverride(out, path, 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml');
      result.push({ sheet: copy, scope: value.scope });
    });
    // The first keeps the template's parts, renamed once every copy was made from them as they were.
    if (first) ownSheetParts(out, sheet.path, first, false);
  }
  if (copies) out.set(relsPath, serializeXml(rels));
  return result;
}

/**
 * The shared strings that were tags are blanked: the filled cells no longer point at them (they hold
 * their values inline), and the file should not carry the template's tags. Indices stay as they were.
 */
function blankTagStrings(pkg: OfficePackage, book: ReturnType<typeof readWorkbook>, out: Map<string, Buffer | string>) {
  const rel = relsOfType(pkg, book.workbookPath, 'sharedStrings')[0];
  const doc = rel ? partXml(pkg, rel.path) : null;
  if (!rel || !doc) return;
  let changed = false;
  for (const si of kids(doc.documentElement!, 'si')) {
    if (!textOf(si).includes('{{')) continue;
    while (si.firstChild) si.removeChild(si.firstChild);
    si.appendChild(sibling(si, 't'));
    changed = true;
  }
  if (changed) out.set(rel.path, serializeXml(doc));
}

/** Fills an opened Excel template with resolved data. */
export async function fillXlsx(pkg: OfficePackage, data: TemplateData): Promise<Buffer> {
  const book = readWorkbook(pkg);
  const ctx: FillContext = {
    layouts: new Map(),
    data,
    values: new Map(),
    sharedStrings: book.sharedStrings,
    pictures: new Map(),
    rows: new Map(),
  };
  const out = new Map<string, Buffer | string>(pkg.parts);
  const sheets = repeatSheets(pkg, book, data, out);
  book.sheets = sheets.map((s) => s.sheet);
  // Every sheet is laid out before any formula moves: a formula may point into another sheet.
  for (const { sheet, scope } of sheets) ctx.layouts.set(sheet.name, layoutSheet(sheet, scope));
  for (const sheet of book.sheets) fillSheetRows(sheet, ctx);
  for (const sheet of book.sheets) {
    moveSheetStructures(sheet, ctx);
    out.set(sheet.path, sheetXml(sheet, ctx));
  }
  // Read from what is being written: a repeated sheet's copies have parts the template has not.
  const written: OfficePackage = { ...pkg, parts: out as Map<string, Buffer> };
  for (const sheet of book.sheets) moveSheetParts(written, sheet, ctx, out);
  moveChartSheets(written, book, ctx, out);
  movePivots(written, book, ctx, out);
  // Charts as pictures where their cells went, drawn side by side on the thread pool.
  const drawn = drawPictures([...ctx.pictures.values()].flat());
  for (const sheet of book.sheets) {
    const pictures = ctx.pictures.get(sheet.name) ?? [];
    if (!pictures.length) continue;
    await placePictures(out, sheet.path, sheet.doc, pictures, drawn);
    out.set(sheet.path, sheetXml(sheet, ctx));
  }
  blankTagStrings(pkg, book, out);
  fixWorkbook(pkg, book, ctx, out);
  return packOffice(out, 'DEFLATE', pkg);
}
