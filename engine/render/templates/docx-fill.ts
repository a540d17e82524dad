import {
  TemplateHandler,
  TagDisposition,
  type ScopeDataArgs,
  type Tag,
  type TemplateContent,
  type TemplateData as EtxData,
} from 'easy-template-x';
import { own, parseTag as parseTemplateTag, tagKey, tagsIn, type TemplateTag } from './tags.js';
import {
  inScopes,
  tagValueText,
  type TableValue,
  type TagOccurrence,
  type RepeatedRow,
  type TemplateData,
  type TemplateScope,
} from './template-data.js';
import { packOffice, type OfficePackage } from './template-package.js';
import { relationshipsOf } from './office-parts.js';
import { fillParagraph } from './paragraph-fill.js';
import { chartAltTags, CHART_SLOT_TAG, takeChartSlots, WordCharts, type ChartSlot } from './docx-charts.js';
import { WordPictures } from './docx-pictures.js';
import { fillPartDirectly, fillsDirectly, repeatedRowSource } from './docx-direct-fill.js';
import {
  ancestorNamed,
  descendants,
  escapeXml,
  parseXml,
  partOf,
  type PartReader,
  serializeXml,
  textOf,
  xmlSafe,
  type Document,
  type Element,
} from './xml.js';

// Word templates through easy-template-x, which evaluates nothing from the template: its tags are
// looked up by our own resolver (own properties of our data, never a path into objects). Before it
// runs, rows holding {{deleterow}} go and rows holding column or field tags get the loop tags that
// repeat them; {{table:…}} becomes a Word table and {{image:…}} a picture of the chart.

/** The loop a row expands with: `rows:<chart>` over a chart's data rows, `values:<field>` over a field's values. */
const ROW_LOOP = { rows: 'rows:', values: 'values:' } as const;
/** Tag options are not part of our syntax; easy-template-x's own marks are moved out of reach ([ ] occur in expressions). */
const OPTIONS_START = '\u27e6';
const OPTIONS_END = '\u27e7';

/**
 * Parts that take values only: notes, comments and SmartArt text (its data and the drawing Word
 * shows from). easy-template-x fills the body, headers and footers; these are filled here, in place.
 */
const VALUE_ONLY_PARTS = /\/(footnotes|endnotes|comments|diagramData|diagramDrawing)$/;

/** The parts of a Word file that hold text with tags: the body, headers, footers, notes, comments, SmartArt. */
export function docxTextParts(pkg: OfficePackage): { path: string; valuesOnly: boolean }[] {
  const main = relationshipsOf(pkg, '').find((r) => r.type.endsWith('/officeDocument'))?.path ?? 'word/document.xml';
  const related = relationshipsOf(pkg, main)
    .filter((r) => !r.external && (/\/(header|footer)$/.test(r.type) || VALUE_ONLY_PARTS.test(r.type)))
    .map((r) => ({ path: r.path, valuesOnly: VALUE_ONLY_PARTS.test(r.type) }));
  // A part related twice (a header of two sections) is read once.
  const seen = new Set<string>();
  return [{ path: main, valuesOnly: false }, ...related].filter(
    (p) => pkg.parts.has(p.path) && !seen.has(p.path) && !!seen.add(p.path),
  );
}

const paragraphText = (p: Element) =>
  descendants(p, 't')
    .map((t) => textOf(t))
    .join('');

/** A tag of a Word file: in a table row, in a part that takes values only, in a native chart's alt text. */
type WordTag = TagOccurrence & { inRow: boolean; valuesOnly: boolean; nativeChart?: true };

/** The tags of a Word file in reading order, each at its paragraph ("document, paragraph 3, in a table row"). */
export function docxTags(pkg: OfficePackage, readPart: PartReader = partOf(pkg)): WordTag[] {
  const out: WordTag[] = [];
  for (const { path: part, valuesOnly } of docxTextParts(pkg)) {
    const doc = readPart(part);
    const name = part.replace(/^word\//, '').replace(/\.xml$/, '');
    const rows = descendants(doc, 'tr');
    descendants(doc, 'p').forEach((p, i) => {
      const text = paragraphText(p);
      const tr = ancestorNamed(p, 'tr');
      const inRow = !!tr;
      for (const t of tagsIn(text))
        out.push({
          tag: t.tag,
          raw: t.raw,
          where: `${name}, paragraph ${i + 1}${inRow ? ' (in a table row)' : ''}`,
          inRow,
          valuesOnly,
          ...(tr && { rowId: `${part}#${rows.indexOf(tr)}` }),
        });
      // A native chart whose alt text names an app chart takes its data (see docx-charts).
      for (const t of chartAltTags(p))
        out.push({
          tag: t.tag,
          raw: t.raw,
          where: `${name}, paragraph ${i + 1}, chart "${t.chart}" (alt text)`,
          inRow,
          valuesOnly,
          nativeChart: true,
        });
    });
  }
  return out;
}

/** Adds text at the start or end of a cell's text (its first or last run's text). */
function addText(cell: Element, text: string, at: 'start' | 'end') {
  const texts = descendants(cell, 't');
  const t = at === 'start' ? texts[0] : texts.at(-1);
  if (!t) return;
  t.setAttribute('xml:space', 'preserve');
  const node = cell.ownerDocument!.createTextNode(text);
  if (at === 'start') t.insertBefore(node, t.firstChild);
  else t.appendChild(node);
}

/** Rows to delete go; rows with column or field tags are wrapped in the loop that repeats them. */
function prepareRows(doc: Document) {
  for (const tr of descendants(doc, 'tr')) {
    const source = repeatedRowSource(tr);
    if (!source) continue;
    const loop =
      source.kind === 'column'
        ? `${ROW_LOOP.rows}${source.chart}`
        : `${ROW_LOOP.values}${(source as { field: string }).field}`;
    const cells = descendants(tr, 'tc');
    addText(cells[0], `{{#${loop} ${OPTIONS_START}loopOver: "row"${OPTIONS_END}}}`, 'start');
    addText(cells.at(-1)!, `{{/${loop}}}`, 'end');
  }
}

/**
 * A loop cannot repeat inside a content control (easy-template-x refuses: the control would hold
 * every copy). A control around a repeating row or a level is unwrapped: its content stays in its
 * place and repeats; the control itself is not kept in the output.
 */
function unwrapControlsAroundLoops(doc: Document) {
  for (const sdt of descendants(doc, 'sdt')) {
    const content = descendants(sdt, 'sdtContent')[0];
    if (!content || !/\{\{\s*[#/]/.test(textOf(content))) continue;
    const parent = sdt.parentNode;
    if (!parent) continue;
    while (content.firstChild) parent.insertBefore(content.firstChild, sdt);
    parent.removeChild(sdt);
  }
}

function wordTable(table: TableValue): string {
  const border =
    '<w:top w:val="single" w:sz="4" w:color="BFC7D1"/><w:left w:val="single" w:sz="4" w:color="BFC7D1"/><w:bottom w:val="single" w:sz="4" w:color="BFC7D1"/><w:right w:val="single" w:sz="4" w:color="BFC7D1"/><w:insideH w:val="single" w:sz="4" w:color="BFC7D1"/><w:insideV w:val="single" w:sz="4" w:color="BFC7D1"/>';
  const cell = (text: string, right: boolean, bold: boolean) =>
    `<w:tc><w:p><w:pPr><w:spacing w:before="0" w:after="0"/>${right ? '<w:jc w:val="right"/>' : ''}</w:pPr><w:r>${bold ? '<w:rPr><w:b/></w:rPr>' : ''}<w:t xml:space="preserve">${escapeXml(xmlSafe(text))}</w:t></w:r></w:p></w:tc>`;
  const header = `<w:tr><w:trPr><w:tblHeader/></w:trPr>${table.columns.map((c) => cell(c.label, c.numeric, true)).join('')}</w:tr>`;
  const rows = table.display
    .map((r) => `<w:tr>${r.map((v, j) => cell(v, table.columns[j]?.numeric ?? false, false)).join('')}</w:tr>`)
    .join('');
  return `<w:tbl><w:tblPr><w:tblW w:w="5000" w:type="pct"/><w:tblBorders>${border}</w:tblBorders></w:tblPr><w:tblGrid>${table.columns.map(() => '<w:gridCol/>').join('')}</w:tblGrid>${header}${rows}</w:tbl>`;
}

/** What the loops of a path stand in: the scope of a level's value, or a row of a chart or a field. */
interface Frame {
  scope: TemplateScope;
  row?: RepeatedRow;
}

/** What a fill places beside its text: chart pictures and native charts. */
interface Drawings {
  pictures: WordPictures;
  charts: WordCharts;
}

/** Our resolver for easy-template-x: walks the loops of the path, then looks the tag up, innermost scope first. */
function resolver(data: TemplateData, drawings: Drawings) {
  // easy-template-x asks for every tag once per repetition (a 500-row table: a thousand asks).
  const parsed = new Map<string, TemplateTag | null>();
  const parseTag = (body: string) => {
    let tag = parsed.get(body);
    if (tag === undefined) parsed.set(body, (tag = parseTemplateTag(body)));
    return tag;
  };
  return (args: ScopeDataArgs): TemplateContent | EtxData[] => {
    const frames: Frame[] = [{ scope: data.root }];
    const path = args.path;
    for (let i = 0; i + 1 < path.length; i += 2) {
      const loop = path[i] as Tag;
      const index = path[i + 1];
      if (typeof index !== 'number') break;
      const name = loop.name.trim();
      const top = frames[frames.length - 1];
      if (name.toLowerCase().startsWith(ROW_LOOP.rows) || name.toLowerCase().startsWith(ROW_LOOP.values)) {
        const key = name.toLowerCase().startsWith(ROW_LOOP.rows)
          ? `c:${name.slice(ROW_LOOP.rows.length).trim().toLowerCase()}`
          : `f:${name.slice(ROW_LOOP.values.length).trim().toLowerCase()}`;
        frames.push({ scope: top.scope, row: { key, k: index } });
      } else {
        const tag = parseTag(`#${name}`);
        const level = tag?.kind === 'levelOpen' ? own(top.scope.levels, tagKey(tag))?.[index] : undefined;
        frames.push({ scope: level?.scope ?? top.scope });
      }
    }
    const last = path[path.length - 1] as Tag;
    const name = last.name.trim();
    const isOpen = last.disposition === TagDisposition.Open || last.disposition === TagDisposition.Close;
    const scope = frames[frames.length - 1].scope;
    if (isOpen) {
      const lower = name.toLowerCase();
      // A loop answers with one (empty) item per repetition; our frames above carry the data.
      const items = (n: number) => Array.from({ length: n }, () => ({}));
      if (lower.startsWith(ROW_LOOP.rows))
        return items(Math.max(1, own(scope.tables, `c:${lower.slice(ROW_LOOP.rows.length).trim()}`)?.rows.length ?? 0));
      if (lower.startsWith(ROW_LOOP.values))
        return items(Math.max(1, own(scope.fields, `f:${lower.slice(ROW_LOOP.values.length).trim()}`)?.length ?? 0));
      const tag = parseTag(`#${name}`);
      return tag?.kind === 'levelOpen' ? items(own(scope.levels, tagKey(tag))?.length ?? 0) : [];
    }
    if (name.startsWith(CHART_SLOT_TAG))
      return {
        _type: 'rawXml',
        xml: drawings.charts.place(
          name,
          frames.map((f) => f.scope),
        ),
        replaceParagraph: false,
      };
    const tag = parseTag(name);
    if (!tag) return '';
    const row = [...frames].reverse().find((f) => f.row)?.row;
    return contentOf(tag, frames, row, drawings);
  };
}

function contentOf(tag: TemplateTag, frames: Frame[], row: Frame['row'], drawings: Drawings): TemplateContent {
  const scopes = frames.map((f) => f.scope);
  if (tag.kind === 'table') {
    const table = inScopes(scopes, (s) => s.tables, tagKey(tag));
    return table ? { _type: 'rawXml', xml: wordTable(table), replaceParagraph: true } : '';
  }
  if (tag.kind === 'image') {
    const chart = inScopes(scopes, (s) => s.charts, tagKey(tag));
    if (!chart) return '';
    return { _type: 'rawXml', xml: drawings.pictures.place(chart), replaceParagraph: false };
  }
  return tagValueText(tag, scopes, row);
}

/**
 * Starts drawing every chart of the scopes that an image tag of the file shows, on the thread pool,
 * before the fill asks for the first (a 200-page letter book has 200, drawn while the text is filled).
 */
function startDrawing(data: TemplateData, shown: Set<string>, pictures: WordPictures) {
  const walk = (scope: TemplateScope) => {
    for (const key of shown) {
      const chart = own(scope.charts, key);
      if (chart) pictures.draw(chart);
    }
    for (const instances of Object.values(scope.levels)) for (const i of instances) walk(i.scope);
  };
  walk(data.root);
}

/** Fills a part that takes values only (notes, comments) in place; answers whether it held a tag. */
function fillValuesOnly(doc: Document, data: TemplateData): boolean {
  return descendants(doc, 'p').filter((p) => fillParagraph(p, (tag) => tagValueText(tag, [data.root]))).length > 0;
}

/**
 * Fills an opened Word template with resolved data: in one pass of our own when its tags are values
 * and repeated rows alone (docx-direct-fill), through easy-template-x when it has levels, pictures,
 * tables or native charts.
 */
export async function fillDocx(pkg: OfficePackage, data: TemplateData): Promise<Buffer> {
  const parts = new Map<string, Buffer | string>(pkg.parts);
  const slots: ChartSlot[] = [];
  // The charts shown as pictures, read from the parts as they are parsed here (not parsed again).
  const pictured = new Set<string>();
  const read = docxTextParts(pkg).map((p) => ({
    ...p,
    doc: parseXml(pkg.parts.get(p.path)!.toString('utf8'), p.path),
  }));
  const filled = read.filter((p) => !p.valuesOnly);
  if (
    fillsDirectly(filled.map((p) => p.doc)) &&
    !filled.some((p) => descendants(p.doc, 'p').some((q) => chartAltTags(q).length))
  ) {
    for (const { path: part, valuesOnly, doc } of read)
      if (!valuesOnly) parts.set(part, fillPartDirectly(doc, data));
      else if (fillValuesOnly(doc, data)) parts.set(part, serializeXml(doc));
    return packOffice(parts, 'DEFLATE', pkg);
  }
  for (const { path: part, valuesOnly, doc } of read) {
    for (const p of descendants(doc, 'p'))
      for (const t of tagsIn(paragraphText(p))) if (t.tag?.kind === 'image') pictured.add(tagKey(t.tag));
    if (valuesOnly) {
      if (fillValuesOnly(doc, data)) parts.set(part, serializeXml(doc));
      continue;
    }
    prepareRows(doc);
    unwrapControlsAroundLoops(doc);
    takeChartSlots(doc, part, pkg, slots);
    parts.set(part, serializeXml(doc));
  }
  // Every chart picture the file shows starts drawing now, side by side on the thread pool.
  const drawings: Drawings = { pictures: new WordPictures(), charts: new WordCharts(slots) };
  startDrawing(data, pictured, drawings.pictures);
  // Handed straight to easy-template-x, which unpacks it again: stored, not compressed twice.
  const prepared = await packOffice(parts, 'STORE', pkg);
  const handler = new TemplateHandler({
    delimiters: {
      tagStart: '{{',
      tagEnd: '}}',
      containerTagOpen: '#',
      containerTagClose: '/',
      tagOptionsStart: OPTIONS_START,
      tagOptionsEnd: OPTIONS_END,
    },
    scopeDataResolver: resolver(data, drawings),
    maxXmlDepth: 64,
  });
  return withDrawings(await handler.process(prepared, {}), pkg, drawings);
}

/** The filled file with the parts its pictures and native charts need (as it was when it shows none). */
async function withDrawings(filled: Buffer, pkg: OfficePackage, drawings: Drawings): Promise<Buffer> {
  if (drawings.pictures.empty && drawings.charts.empty) return filled;
  const { default: JSZip } = await import('jszip');
  const zip = await JSZip.loadAsync(filled);
  await drawings.pictures.write(zip);
  await drawings.charts.write(zip, pkg);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 6 } });
}
