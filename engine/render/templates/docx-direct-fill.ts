import { fillParagraph } from './paragraph-fill.js';
import { own, tagKey, tagsIn, type TemplateTag } from './tags.js';
import { tagValueText, type RepeatedRow, type TemplateData } from './template-data.js';
import { descendants, escapeXml, serializeXml, textOf, xmlSafe, type Document, type Element } from './xml.js';

// A Word part whose tags are values and repeated table rows alone — the common letter or list —
// filled here in one pass, without easy-template-x: the repeated row is written once as XML with a
// marker where each tag stood, and copied per data row as text. easy-template-x builds a node tree
// per copy and serializes it again (a 500-row table took it 1.3× docxtemplater's time); levels,
// pictures, tables and native charts still go through it, as they need its loops.

/** The tags a part may hold to be filled here; anything else (a level, a picture, a table) needs easy-template-x. */
const DIRECT_KINDS = new Set<TemplateTag['kind']>(['variable', 'expression', 'field', 'column', 'deleterow']);

/** Whether every tag of these parts can be filled here (unreadable `{{…}}` text included: it fills as nothing). */
export function fillsDirectly(docs: Document[]): boolean {
  return docs.every((doc) =>
    descendants(doc, 'p').every((p) =>
      tagsIn(paragraphText(p)).every((t) => t.tag === null || DIRECT_KINDS.has(t.tag.kind)),
    ),
  );
}

const paragraphText = (el: Element) =>
  descendants(el, 't')
    .map((t) => textOf(t))
    .join('');

/**
 * What a table row repeats over: the chart of its first column tag, else the field of its first
 * field tag; null for a row that does not repeat. A row holding `{{deleterow}}` is removed here.
 */
export function repeatedRowSource(tr: Element): TemplateTag | null {
  const tags = tagsIn(paragraphText(tr))
    .map((t) => t.tag)
    .filter((t): t is TemplateTag => !!t);
  if (tags.some((t) => t.kind === 'deleterow')) {
    tr.parentNode?.removeChild(tr);
    return null;
  }
  return tags.find((t) => t.kind === 'column') ?? tags.find((t) => t.kind === 'field') ?? null;
}

/** Marks a tag's place in the XML written once; private-use characters never occur in Word text. */
const mark = (i: number) => `\uE000${i}\uE001`;
const MARKS = /\uE000(\d+)\uE001/g;
const HAS_MARK = /\uE000\d+\uE001/;
const WORD_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** The tags of a part, each where its marker stands, with the row it repeats in (if it does). */
class Marked {
  readonly tags: { tag: TemplateTag | null; row: number | null }[] = [];
  /** Marks each tag of the paragraphs under `el`, keeping every run's text and format around it. */
  markUnder(el: Element, row: number | null) {
    for (const p of descendants(el, 'p'))
      fillParagraph(p, (tag) => {
        this.tags.push({ tag, row });
        return mark(this.tags.length - 1);
      });
    // A value's spaces are kept as they are, whatever text replaces the marker.
    for (const t of descendants(el, 't'))
      if (t.namespaceURI === WORD_NS && HAS_MARK.test(textOf(t))) t.setAttribute('xml:space', 'preserve');
  }
}

/** A repeated row: the key of the chart or field it repeats over, and how many copies. */
interface Repeated {
  key: string;
  count: number;
}

/**
 * Fills a part's tags and repeats its rows; answers its XML as UTF-8. The copies are written
 * straight into one buffer, not joined into one string first: a 500-row body is a few hundred KB,
 * and a string that large is a heap object of its own, mapped afresh for each fill (about 100 page
 * faults) and then flattened and encoded again by the zip writer.
 */
export function fillPartDirectly(doc: Document, data: TemplateData): Buffer {
  const scopes = [data.root];
  const marked = new Marked();
  const rows: Repeated[] = [];
  for (const tr of descendants(doc, 'tr')) {
    const source = repeatedRowSource(tr);
    if (!source) continue;
    const key = tagKey(source);
    const count =
      source.kind === 'column'
        ? (own(data.root.tables, key)?.display.length ?? 0)
        : (own(data.root.fields, key)?.length ?? 0);
    // As a loop over no rows keeps one empty row (the table keeps its shape).
    rows.push({ key, count: Math.max(1, count) });
    marked.markUnder(tr, rows.length - 1);
    tr.parentNode!.insertBefore(doc.createComment(`bs-row-${rows.length - 1}`), tr);
    tr.parentNode!.insertBefore(doc.createComment(`/bs-row-${rows.length - 1}`), tr.nextSibling);
  }
  marked.markUnder(doc.documentElement!, null);
  const valueAt = (i: string, row?: RepeatedRow) => {
    const { tag } = marked.tags[Number(i)];
    return wordXml(tagValueText(tag, scopes, row));
  };
  const xml = serializeXml(doc).replace(MARKS, (m, i: string) =>
    marked.tags[Number(i)].row === null ? valueAt(i) : m,
  );
  // Each repeated row in the order the part holds them, its copies between the text around them.
  // Rows never nest: a row is marked whole as it is found, so a table in its cells has no tag left
  // for its own rows to repeat over.
  const pieces: string[] = [];
  let at = 0;
  for (const [n, row] of rows.entries()) {
    const open = `<!--bs-row-${n}-->`;
    const close = `<!--/bs-row-${n}-->`;
    const from = xml.indexOf(open, at);
    const to = xml.indexOf(close, from);
    pieces.push(xml.slice(at, from));
    const once = xml.slice(from + open.length, to);
    for (let k = 0; k < row.count; k++)
      pieces.push(once.replace(MARKS, (_, i: string) => valueAt(i, { key: row.key, k })));
    at = to + close.length;
  }
  pieces.push(xml.slice(at));
  return utf8Joined(pieces);
}

/** Pieces of text as one UTF-8 buffer, each written where it goes. */
function utf8Joined(pieces: string[]): Buffer {
  let size = 0;
  for (const piece of pieces) size += Buffer.byteLength(piece);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) at += out.write(piece, at);
  return out;
}

/** A value as the text of a run, escaped; its line breaks as Word's (a break between two texts), as easy-template-x writes them. */
const wordXml = (value: string) =>
  escapeXml(xmlSafe(value)).replace(/\r?\n/g, '</w:t><w:br/><w:t xml:space="preserve">');
