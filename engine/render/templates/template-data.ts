import type { Cell, ResolvedBlock } from '../document.js';
import { tagKey, tagText, type TemplateTag } from './tags.js';

// What a template is filled with: plain values resolved on the main thread, so they cross into the
// render threads as they are, and the fill there runs no query.

export interface ScalarValue {
  /** The value as the app answers it (a number stays a number for Excel). */
  raw: Cell;
  /** The value as text, with the report's separators. */
  text: string;
}
export interface TableValue {
  columns: { label: string; numeric: boolean }[];
  rows: Cell[][];
  display: string[][];
}
export type ChartValue = Extract<ResolvedBlock, { type: 'chart' }>;

/** The same chart with the same data: drawn once as a picture, written once as a native chart part. */
export const chartId = (chart: ChartValue) => JSON.stringify(chart);

/** The data of one scope: the whole file, or one value of a level (with that value selected). */
export interface TemplateScope {
  /** Variables and expressions, by tag key. */
  scalars: Record<string, ScalarValue>;
  /** A field's values under the scope's selections, by tag key. */
  fields: Record<string, ScalarValue[]>;
  /** A chart's data (for tables, columns and pictures), by tag key. */
  tables: Record<string, TableValue>;
  charts: Record<string, ChartValue>;
  /** The values of each level's field, each with the scope of its content. */
  levels: Record<string, { value: string; scope: TemplateScope }[]>;
  /**
   * Expressions and variables of a row repeated per value of a field, computed with that value
   * selected: by the field's tag key, one map (by tag key) per value, in the order of `fields`.
   */
  rowScalars?: Record<string, Record<string, ScalarValue>[]>;
}

export interface TemplateData {
  title: string;
  decimalSeparator: string;
  groupSeparator: string;
  root: TemplateScope;
}

export const emptyScope = (): TemplateScope => ({ scalars: {}, fields: {}, tables: {}, charts: {}, levels: {} });

/** Which tags a scope needs, and the levels inside it with what each of their values needs. */
export interface TagTree {
  tags: TemplateTag[];
  levels: Map<string, { field: string; tree: TagTree }>;
  /** The expressions and variables in rows repeated per value of a field, by the field's tag key. */
  rows?: Map<string, { field: string; tags: TemplateTag[] }>;
}
const emptyTree = (): TagTree => ({ tags: [], levels: new Map(), rows: new Map() });

/** A tag found in a template and where: "word/document.xml, paragraph 4", "Sheet1!B4", "slide 2". */
export interface TagOccurrence {
  tag: TemplateTag | null;
  raw: string;
  where: string;
  /** The repeating row it sits in (a table row, a sheet row), when the format says. */
  rowId?: string;
}

export interface TemplateProblem {
  where: string;
  tag: string;
  message: string;
}

/**
 * The tag tree of a template from its tags in reading order: what lies between `{{#level:F}}` and
 * `{{/level:F}}` is the level's. Opens and closes that do not pair are problems, each where it is.
 */
export function tagTree(occurrences: TagOccurrence[]): { tree: TagTree; problems: TemplateProblem[] } {
  const problems: TemplateProblem[] = [];
  const root = emptyTree();
  const stack: { field: string; tree: TagTree; where: string; raw: string }[] = [];
  const current = () => stack.at(-1)?.tree ?? root;
  // Rows repeated per value of a field: their expressions are computed once per value.
  const rowField = new Map<string, TemplateTag & { kind: 'field' }>();
  for (const o of occurrences)
    if (o.rowId && o.tag?.kind === 'field' && !rowField.has(o.rowId))
      rowField.set(o.rowId, o.tag as TemplateTag & { kind: 'field' });
  const columnRows = new Set(occurrences.flatMap((o) => (o.rowId && o.tag?.kind === 'column' ? [o.rowId] : [])));
  for (const o of occurrences) {
    const tag = o.tag;
    if (!tag) continue;
    if (tag.kind === 'levelOpen') {
      const key = tagKey(tag);
      const parent = current();
      const level = parent.levels.get(key) ?? { field: tag.field, tree: emptyTree() };
      parent.levels.set(key, level);
      stack.push({ field: tag.field, tree: level.tree, where: o.where, raw: o.raw });
    } else if (tag.kind === 'levelClose') {
      const open = stack.at(-1);
      if (!open) problems.push({ where: o.where, tag: o.raw, message: 'closes a level that was not opened' });
      else if (open.field.toLowerCase() !== tag.field.toLowerCase())
        problems.push({
          where: o.where,
          tag: o.raw,
          message: `closes "${tag.field}" while "${open.field}" (opened at ${open.where}) is still open`,
        });
      else stack.pop();
    } else if (tag.kind !== 'deleterow' && tag.kind !== 'sheet' && tag.kind !== 'slide') {
      // A sheet's or slide's tag is its level (the scanner wraps the sheet or slide in one).
      const tree = current();
      if (!tree.tags.some((t) => tagText(t) === tagText(tag))) tree.tags.push(tag);
      // A row repeated over a chart's rows takes its columns; one over a field's values, its expressions too.
      const field = o.rowId && !columnRows.has(o.rowId) ? rowField.get(o.rowId) : undefined;
      if (field && (tag.kind === 'expression' || tag.kind === 'variable')) {
        const rows = (tree.rows ??= new Map<string, { field: string; tags: TemplateTag[] }>());
        const key = tagKey(field);
        const row = rows.get(key) ?? { field: field.field, tags: [] };
        rows.set(key, row);
        if (!row.tags.some((t) => tagText(t) === tagText(tag))) row.tags.push(tag);
      }
    }
  }
  for (const open of stack)
    problems.push({
      where: open.where,
      tag: open.raw,
      message: `opens a level that is never closed (add {{/level:${open.field}}})`,
    });
  return { tree: root, problems };
}

/** A row being repeated: the key of the chart or field it repeats over, and which copy it is. */
export interface RepeatedRow {
  key: string;
  k: number;
}

/** A tag's data in a chain of scopes (outermost first): the innermost scope that has it. */
export function inScopes<T>(
  scopes: TemplateScope[],
  pick: (s: TemplateScope) => Record<string, T>,
  key: string,
): T | undefined {
  for (let i = scopes.length - 1; i >= 0; i--) {
    const map = pick(scopes[i]);
    if (Object.hasOwn(map, key)) return map[key];
  }
  return undefined;
}

/** An expression's value in a row repeated per field value: computed with that value selected. */
export function rowScalar(scopes: TemplateScope[], key: string, row?: RepeatedRow): ScalarValue | undefined {
  if (!row) return undefined;
  const perValue = inScopes(scopes, (s) => s.rowScalars ?? {}, row.key)?.[row.k];
  return perValue && Object.hasOwn(perValue, key) ? perValue[key] : undefined;
}

/**
 * The text a value tag stands for (variables, expressions, a field's values, a column's cell in a
 * repeated row); '' for tags that are not text (tables, pictures, levels) and for unknown ones.
 */
export function tagValueText(tag: TemplateTag | null, scopes: TemplateScope[], row?: RepeatedRow): string {
  if (!tag) return '';
  const key = tagKey(tag);
  switch (tag.kind) {
    case 'variable':
    case 'expression':
      return (rowScalar(scopes, key, row) ?? inScopes(scopes, (s) => s.scalars, key))?.text ?? '';
    case 'field': {
      const values = inScopes(scopes, (s) => s.fields, key) ?? [];
      return row?.key === key ? (values[row.k]?.text ?? '') : values.map((v) => v.text).join(', ');
    }
    case 'column': {
      const table = inScopes(scopes, (s) => s.tables, key);
      const j = table?.columns.findIndex((c) => c.label.toLowerCase() === tag.column.toLowerCase()) ?? -1;
      return table && j >= 0 && row?.key === key ? (table.display[row.k]?.[j] ?? '') : '';
    }
    default:
      return '';
  }
}
