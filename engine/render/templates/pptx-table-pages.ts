import { own, tagKey, tagsIn, type TemplateTag } from './tags.js';
import type { TableValue, TemplateScope } from './template-data.js';
import type { OfficePackage } from './template-package.js';
import { relationshipsOf } from './office-parts.js';
import { ancestorNamed, descendants, kid, parseXml, textOf, type Document, type Element } from './xml.js';

// Tables on slides paginate: a table whose rows repeat per data row (or a {{table:…}} row) and
// would run past the slide's bottom continues on a copy of the slide, as NPrinting's pages do. A
// row is counted at the height the template gives it (`a:tr h`; PowerPoint grows a row whose text
// wraps, which is not known before it lays the slide out), and the table may reach down to the
// slide's height less a margin of 5 %.

const BOTTOM_MARGIN = 0.05;
/** The height PowerPoint gives a slide when the presentation says none (7.5 in, in EMU). */
const DEFAULT_SLIDE_HEIGHT = 6_858_000;

/** What a table row becomes: removed, a table's header and data lines, or repeated per data row or value. */
export type RowSource =
  | { kind: 'delete' }
  | { kind: 'table'; value: TableValue | undefined }
  | { kind: 'repeat'; key: string; count: number }
  | null;

/** The tags of a table row, and what it becomes in these scopes. */
function rowSource(tr: Element, scopes: TemplateScope[]): RowSource {
  const tags = tagsIn(
    descendants(tr, 't')
      .map((t) => textOf(t))
      .join(''),
  )
    .map((t) => t.tag)
    .filter((t): t is TemplateTag => !!t);
  const last = <T>(pick: (s: TemplateScope) => Record<string, T>, key: string) =>
    scopes
      .map((s) => own(pick(s), key))
      .filter(Boolean)
      .at(-1);
  if (tags.some((t) => t.kind === 'deleterow')) return { kind: 'delete' };
  const table = tags.find((t) => t.kind === 'table');
  if (table) return { kind: 'table', value: last((s) => s.tables, tagKey(table)) };
  const source = tags.find((t) => t.kind === 'column') ?? tags.find((t) => t.kind === 'field');
  if (!source) return null;
  const key = tagKey(source);
  const count =
    source.kind === 'column'
      ? (last((s) => s.tables, key)?.rows.length ?? 0)
      : (last((s) => s.fields, key)?.length ?? 0);
  return { kind: 'repeat', key, count: Math.max(1, count) };
}

/** The height of the presentation's slides, in EMU. */
export function slideHeight(pkg: OfficePackage): number {
  const main = relationshipsOf(pkg, '').find((r) => r.type.endsWith('/officeDocument'))?.path ?? 'ppt/presentation.xml';
  const pres = parseXml(pkg.parts.get(main)!.toString('utf8'), main);
  return Number(descendants(pres, 'sldSz')[0]?.getAttribute('cy')) || DEFAULT_SLIDE_HEIGHT;
}

const rowHeight = (tr: Element) => Number(tr.getAttribute('h')) || 0;

/** A slide's table rows, what each becomes, and for those that grow how many lines fit on a slide. */
export interface SlideRows {
  rows: Element[];
  sources: RowSource[];
  /** By a row's place among `rows`: its data lines, and how many fit on one slide below what else its table holds. */
  growing: Map<number, { lines: number; perSlide: number }>;
}

/** Reads a slide's table rows once: what each becomes in these scopes, and how the growing ones page. */
export function slideRows(doc: Document, scopes: TemplateScope[], height: number): SlideRows {
  const growing = new Map<number, { lines: number; perSlide: number }>();
  const rows = descendants(doc, 'tr');
  const sources = rows.map((tr) => rowSource(tr, scopes));
  const sourceOf = new Map(rows.map((tr, i) => [tr, sources[i]]));
  rows.forEach((tr, i) => {
    const source = sources[i];
    if (source?.kind !== 'table' && source?.kind !== 'repeat') return;
    const tbl = ancestorNamed(tr, 'tbl');
    const frame = tbl && ancestorNamed(tbl, 'graphicFrame');
    const top = Number(frame && descendants(kid(frame, 'xfrm') ?? frame, 'off')[0]?.getAttribute('y')) || 0;
    // The rows that stay as they are (a header, a total) take their own height on every slide.
    const fixed = tbl
      ? descendants(tbl, 'tr').reduce((sum, other) => {
          const s = sourceOf.get(other);
          return s ? sum + (s.kind === 'table' && other === tr ? rowHeight(other) : 0) : sum + rowHeight(other);
        }, 0)
      : 0;
    const each = rowHeight(tr);
    const room = height * (1 - BOTTOM_MARGIN) - top - fixed;
    const perSlide = each > 0 ? Math.max(1, Math.floor(room / each)) : Number.MAX_SAFE_INTEGER;
    const lines = source.kind === 'repeat' ? source.count : (source.value?.display.length ?? 0);
    growing.set(i, { lines, perSlide });
  });
  return { rows, sources, growing };
}

/** How many copies of a slide its growing tables need. */
export function slidePages(doc: Document, scopes: TemplateScope[], height: number): number {
  let pages = 1;
  for (const { lines, perSlide } of slideRows(doc, scopes, height).growing.values())
    pages = Math.max(pages, Math.ceil(lines / perSlide));
  return pages;
}
