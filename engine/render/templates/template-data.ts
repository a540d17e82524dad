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
}
const emptyTree = (): TagTree => ({ tags: [], levels: new Map() });

/** A tag found in a template and where: "word/document.xml, paragraph 4", "Sheet1!B4", "slide 2". */
export interface TagOccurrence {
  tag: TemplateTag | null;
  raw: string;
  where: string;
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
      return inScopes(scopes, (s) => s.scalars, key)?.text ?? '';
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
