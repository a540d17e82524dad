// A1 references in formulas, ranges and chart series, and how rows move when a template's rows
// expand. Only rows move: columns never expand.

/** `B` → 2, `AA` → 27. */
export function columnNumber(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}
/** 2 → `B`, 27 → `AA`. */
export function columnLetters(n: number): string {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
}
/** `B4` → { col: 2, row: 4 }. */
export function parseCellRef(ref: string): { col: number; row: number } | null {
  const m = /^\$?([A-Z]{1,3})\$?(\d+)$/.exec(ref.trim().toUpperCase());
  return m ? { col: columnNumber(m[1]), row: Number(m[2]) } : null;
}

/** Where a template row's content went: the output rows it became, in order. */
export interface RowPlacement {
  /** The first output row at or after the template row (a row that became nothing answers with the next). */
  first(row: number): number;
  /** The last output row at or before the template row. */
  last(row: number): number;
}

/** How one reference is moved: the sheet it names (or the formula's own), its row, and where it is written. */
export interface MoveContext {
  /** The sheet holding the formula (unqualified references are to it); null for defined names. */
  ownSheet: string | null;
  /** The placement of each sheet's rows; a sheet not here did not change. */
  placement: (sheet: string, row: number) => RowPlacement | null;
  /** For a formula copied into an expanded row: its template row and the output row it is written in. */
  copy?: { templateRow: number; outputRow: number };
}

const SHEET = String.raw`(?:'(?:[^']|'')+'|[A-Za-z_\u00a0-\uffff][\w.\u00a0-\uffff]*)!`;
const CELL = String.raw`(\$?)([A-Z]{1,3})(\$?)(\d{1,7})`;
// A cell or a range, optionally sheet-qualified, not inside a longer name or before a "(" (LOG10( is a function).
const REF = new RegExp(String.raw`(?<![\w.$'])(${SHEET})?${CELL}(?::${CELL})?(?![\w(!])`, 'g');

export const unquoteSheet = (prefix: string) => {
  const name = prefix.replace(/!$/, '');
  return name.startsWith("'") ? name.slice(1, -1).replace(/''/g, "'") : name;
};

function moveRow(ctx: MoveContext, sheet: string, row: number, absolute: boolean, end: 'first' | 'last'): number {
  if (ctx.copy && !absolute && sheet === ctx.ownSheet && row === ctx.copy.templateRow) return ctx.copy.outputRow;
  const placement = ctx.placement(sheet, row);
  if (!placement) return row;
  return end === 'first' ? placement.first(row) : placement.last(row);
}

const SHEET_PREFIX = new RegExp(`(?<![\\w.$'])${SHEET}`, 'g');

/** A formula whose references to sheet `from` now name sheet `to` (a repeated sheet's copy); strings left alone. */
export function renameSheetRefs(formula: string, from: string, to: string): string {
  const quoted = `'${to.replace(/'/g, "''")}'!`;
  return formula
    .split(/("(?:[^"]|"")*")/)
    .map((part, i) =>
      i % 2 === 1 ? part : part.replace(SHEET_PREFIX, (prefix) => (unquoteSheet(prefix) === from ? quoted : prefix)),
    )
    .join('');
}

/** Moves every reference of a formula (strings in quotes left alone). */
export function moveFormula(formula: string, ctx: MoveContext): string {
  // Split on string literals: "a""b" is one literal; references are only outside them.
  return formula
    .split(/("(?:[^"]|"")*")/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(
            REF,
            (
              whole,
              prefix: string | undefined,
              c1: string,
              col1: string,
              r1abs: string,
              row1: string,
              c2?: string,
              col2?: string,
              r2abs?: string,
              row2?: string,
            ) => {
              const sheet = prefix ? unquoteSheet(prefix) : ctx.ownSheet;
              if (!sheet) return whole;
              const single = row2 === undefined;
              const a = moveRow(ctx, sheet, Number(row1), r1abs === '$', 'first');
              const b = single ? a : moveRow(ctx, sheet, Number(row2), r2abs === '$', 'last');
              const first = `${c1}${col1}${r1abs}${a}`;
              return `${prefix ?? ''}${first}${single ? '' : `:${c2}${col2}${r2abs}${Math.max(a, b)}`}`;
            },
          ),
    )
    .join('');
}

/** Moves a space-separated list of ranges (`sqref`) of one sheet. */
export function moveSqref(sqref: string, sheet: string, ctx: MoveContext): string {
  return sqref
    .split(/\s+/)
    .filter(Boolean)
    .map((range) => moveFormula(range, { ...ctx, ownSheet: sheet, copy: undefined }))
    .join(' ');
}

/**
 * Offsets the relative references of a formula by rows and columns, as Excel fills a shared formula
 * from its first cell to the others.
 */
export function offsetFormula(formula: string, dRow: number, dCol: number): string {
  if (!dRow && !dCol) return formula;
  const cell = (cAbs: string, col: string, rAbs: string, row: string) =>
    `${cAbs}${cAbs ? col : columnLetters(columnNumber(col) + dCol)}${rAbs}${rAbs ? row : Number(row) + dRow}`;
  return formula
    .split(/("(?:[^"]|"")*")/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part.replace(
            REF,
            (
              _w,
              prefix: string | undefined,
              c1: string,
              col1: string,
              r1: string,
              row1: string,
              c2?: string,
              col2?: string,
              r2?: string,
              row2?: string,
            ) =>
              `${prefix ?? ''}${cell(c1, col1, r1, row1)}${row2 === undefined ? '' : `:${cell(c2!, col2!, r2!, row2)}`}`,
          ),
    )
    .join('');
}
