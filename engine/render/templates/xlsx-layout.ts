import { own, tagKey, tagsIn, type TemplateTag } from './tags.js';
import type { TemplateScope } from './template-data.js';
import type { RowPlacement } from './xlsx-refs.js';
import type { SheetModel } from './xlsx-workbook.js';

// Where each row of a sheet template goes: a plain row once, an expanding row once per data row,
// a level's rows once per value, a {{deleterow}} row nowhere. The result is the output rows in
// order, and for every template row the output rows it became (formulas and ranges follow those).

/** One level instance: the template rows of its block, and what each became in this instance. */
export interface LevelInstance {
  from: number;
  to: number;
  produced: Map<number, number[]>;
}

export type RowMode =
  | { kind: 'plain' }
  /** An expanding row's k-th copy: data row k of a chart's table, or value k of a field (`source`: its tag key). */
  | { kind: 'expand'; k: number; count: number; source: string }
  /** A table tag's header row (with the row's other cells) and its data rows. */
  | { kind: 'tableHeader' }
  | { kind: 'tableData'; k: number };

export interface OutputRow {
  /** The template row it comes from (its number; rows the template lacks are empty). */
  templateRow: number;
  scope: TemplateScope;
  mode: RowMode;
  /** The level instances it lies in, innermost first. */
  chain: LevelInstance[];
}

type RowRole =
  | { kind: 'plain' }
  | { kind: 'delete' }
  | { kind: 'open'; key: string }
  | { kind: 'close'; key: string }
  | { kind: 'expand'; source: TemplateTag }
  | { kind: 'table'; source: TemplateTag };

/** What a template row does, from the tags in its cells. */
export function rowRole(sheet: SheetModel, r: number): RowRole {
  const row = sheet.rows.get(r);
  if (!row) return { kind: 'plain' };
  const tags = row.cells
    .flatMap((c) => (c.text ? tagsIn(c.text).map((t) => t.tag) : []))
    .filter((t): t is TemplateTag => !!t);
  if (tags.some((t) => t.kind === 'deleterow')) return { kind: 'delete' };
  const open = tags.find((t) => t.kind === 'levelOpen');
  if (open) return { kind: 'open', key: tagKey(open) };
  const close = tags.find((t) => t.kind === 'levelClose');
  if (close) return { kind: 'close', key: tagKey(close) };
  const table = tags.find((t) => t.kind === 'table');
  if (table) return { kind: 'table', source: table };
  const expanding = tags.find((t) => t.kind === 'column' || t.kind === 'field');
  if (expanding) return { kind: 'expand', source: expanding };
  return { kind: 'plain' };
}

/**
 * The columns of an expanding row that repeat: its tagged cells and the cells joined to them without
 * a gap (a formula of the row, a note merged beside it). A cell past a column with no cell at all
 * (a side table beside the repeated block) stays once, in the first copy.
 */
export function repeatingBlock(sheet: SheetModel, r: number): { from: number; to: number } | null {
  const row = sheet.rows.get(r);
  if (!row) return null;
  const tagged = row.cells.filter((c) =>
    c.text ? tagsIn(c.text).some((t) => t.tag?.kind === 'column' || t.tag?.kind === 'field') : false,
  );
  if (!tagged.length) return null;
  const present = new Set(row.cells.map((c) => c.col));
  let from = Math.min(...tagged.map((c) => c.col));
  let to = Math.max(...tagged.map((c) => c.col));
  while (present.has(from - 1)) from--;
  while (present.has(to + 1)) to++;
  return { from, to };
}

/** How many copies an expanding row makes in a scope (at least one: an empty table keeps its row). */
function copiesOf(source: TemplateTag, scope: TemplateScope): number {
  const key = tagKey(source);
  const n =
    source.kind === 'field' ? (own(scope.fields, key)?.length ?? 0) : (own(scope.tables, key)?.rows.length ?? 0);
  return Math.max(1, n);
}

/** The row closing the level opened at `open`, within [open, to]; levels of the same field may nest. */
function closingRow(sheet: SheetModel, open: number, to: number, key: string): number {
  let depth = 0;
  for (let r = open; r <= to; r++) {
    const role = rowRole(sheet, r);
    if (role.kind === 'open' && role.key === key) depth++;
    if (role.kind === 'close' && role.key === key && --depth === 0) return r;
  }
  return to;
}

export interface SheetLayout {
  rows: OutputRow[];
  placement: RowPlacement;
}

/** Lays out a sheet's rows under the root scope. */
export function layoutSheet(sheet: SheetModel, root: TemplateScope): SheetLayout {
  const rows: OutputRow[] = [];
  const produced = new Map<number, number[]>();
  const emit = (templateRow: number, scope: TemplateScope, mode: RowMode, chain: LevelInstance[]) => {
    rows.push({ templateRow, scope, mode, chain });
    const o = rows.length;
    for (const map of [produced, ...chain.map((c) => c.produced)])
      map.set(templateRow, [...(map.get(templateRow) ?? []), o]);
  };
  const walk = (from: number, to: number, scope: TemplateScope, chain: LevelInstance[]) => {
    for (let r = from; r <= to; r++) {
      const role = rowRole(sheet, r);
      if (role.kind === 'delete' || role.kind === 'close') continue;
      if (role.kind === 'open') {
        const end = closingRow(sheet, r, to, role.key);
        for (const instance of own(scope.levels, role.key) ?? []) {
          const level: LevelInstance = { from: r + 1, to: end - 1, produced: new Map() };
          walk(r + 1, end - 1, instance.scope, [level, ...chain]);
        }
        r = end;
      } else if (role.kind === 'expand') {
        const count = copiesOf(role.source, scope);
        const source = tagKey(role.source);
        for (let k = 0; k < count; k++) emit(r, scope, { kind: 'expand', k, count, source }, chain);
      } else if (role.kind === 'table') {
        emit(r, scope, { kind: 'tableHeader' }, chain);
        const n = own(scope.tables, tagKey(role.source))?.rows.length ?? 0;
        for (let k = 0; k < n; k++) emit(r, scope, { kind: 'tableData', k }, chain);
      } else emit(r, scope, { kind: 'plain' }, chain);
    }
  };
  walk(1, sheet.maxRow, root, []);
  return { rows, placement: placementOf(produced, 1, sheet.maxRow, rows.length) };
}

/**
 * First and last output rows of template rows, from what each became. Rows past the template's
 * last keep their distance from it; a row that became nothing answers with its neighbours.
 */
export function placementOf(
  produced: Map<number, number[]>,
  from: number,
  to: number,
  outputCount: number,
  outer?: RowPlacement,
): RowPlacement {
  const shiftPast = outputCount - to;
  return {
    first(row) {
      if (row > to) return outer ? outer.first(row) : row + shiftPast;
      for (let r = Math.max(row, from); r <= to; r++) {
        const out = produced.get(r);
        if (out?.length) return out[0];
      }
      return outer ? outer.first(row) : outputCount + 1;
    },
    last(row) {
      if (row > to) return outer ? outer.last(row) : row + shiftPast;
      for (let r = Math.min(row, to); r >= from; r--) {
        const out = produced.get(r);
        if (out?.length) return out[out.length - 1];
      }
      return outer ? outer.last(row) : Math.max(1, from - 1);
    },
  };
}

/** The placement a formula written inside level instances sees: its own instance's rows first. */
export function placementWithin(chain: LevelInstance[], global: RowPlacement, outputCount: number): RowPlacement {
  return chain.reduceRight<RowPlacement>((outer, level) => {
    const inner = placementOf(level.produced, level.from, level.to, outputCount, outer);
    return {
      first: (row) => (row >= level.from && row <= level.to ? inner.first(row) : outer.first(row)),
      last: (row) => (row >= level.from && row <= level.to ? inner.last(row) : outer.last(row)),
    };
  }, global);
}
