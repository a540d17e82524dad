import Automizer, { modify } from 'pptx-automizer';
import type JSZip from 'jszip';
import { chartSvg, CHART_WIDTH } from '../chart-svg.js';
import { svgToPng } from '../chart-png.js';
import { own, tagKey, tagsIn } from './tags.js';
import { inScopes, tagValueText, type TagOccurrence, type TemplateData, type TemplateScope } from './template-data.js';
import type { OfficePackage } from './template-package.js';
import { fillParagraph } from './paragraph-fill.js';
import { relationshipsOf } from './office-parts.js';
import { keepReachableParts } from './office-reach.js';
import { slideHeight, slidePages, slideRows } from './pptx-table-pages.js';
import { CHART_NS, chartData } from './native-charts.js';
import {
  ancestorNamed,
  descendants,
  kids,
  parseXml,
  serializeXml,
  sibling,
  textOf,
  xmlSafe,
  type Document,
  type Element,
  partOf,
  type PartReader,
} from './xml.js';

// PowerPoint templates through pptx-automizer: each slide of the template is added once, or once
// per value of the field its {{slide:F}} names (with that value selected); text tags are filled in
// each slide's XML, table rows with column tags repeat per data row, and a picture whose alt text
// is {{image:<chart>}} shows the chart. The library left relationships to parts it removed, so the
// output is checked and such relationships dropped.

/** The slides of a presentation in order, as part paths. */
export function slidePaths(pkg: OfficePackage): string[] {
  const main = relationshipsOf(pkg, '').find((r) => r.type.endsWith('/officeDocument'))?.path ?? 'ppt/presentation.xml';
  const byId = new Map(relationshipsOf(pkg, main).map((r) => [r.id, r.path]));
  const pres = parseXml(pkg.parts.get(main)!.toString('utf8'), main);
  return descendants(pres, 'sldId')
    .map((s) => byId.get(s.getAttribute('r:id') ?? ''))
    .filter((p): p is string => !!p && pkg.parts.has(p));
}

const textOfParagraph = (p: Element) =>
  descendants(p, 't')
    .map((t) => textOf(t))
    .join('');

const NOTES = 'relationships/notesSlide';

/** A slide's speaker notes part, parsed, when it has one. */
function notesOf(pkg: OfficePackage, slide: string): { path: string; doc: Document } | null {
  const path = relationshipsOf(pkg, slide).find((r) => r.type.endsWith(NOTES) && pkg.parts.has(r.path))?.path;
  return path ? { path, doc: parseXml(pkg.parts.get(path)!.toString('utf8'), path) } : null;
}

/**
 * Fills each output slide's speaker notes with that slide's values: the library copies a slide's
 * notes with it but changes only the slide. `copies` are the scopes of the output slides in order.
 */
async function fillNotes(zip: JSZip, copies: TemplateScope[][]) {
  const parts = new Map<string, Buffer>();
  for (const name of Object.keys(zip.files))
    if (/\.(xml|rels)$/.test(name)) parts.set(name, Buffer.from(await zip.file(name)!.async('uint8array')));
  const out: OfficePackage = { format: 'pptx', parts };
  for (const [k, slide] of slidePaths(out).entries()) {
    const notes = notesOf(out, slide);
    const scopes = copies[k];
    if (!notes || !scopes) continue;
    const paragraphs = descendants(notes.doc, 'p').filter((x) => x.namespaceURI?.includes('drawingml'));
    if (!paragraphs.some((p) => tagsIn(textOfParagraph(p)).length)) continue;
    for (const p of paragraphs) fillParagraph(p, (tag) => tagValueText(tag, scopes));
    zip.file(notes.path, serializeXml(notes.doc));
  }
}

const shapeName = (el: Element) => {
  for (let p = el as Element | null; p && p.nodeType === 1; p = p.parentNode as Element | null)
    if (['sp', 'graphicFrame', 'pic'].includes(p.localName ?? ''))
      return descendants(p, 'cNvPr')[0]?.getAttribute('name') ?? '';
  return '';
};

export interface SlideTag extends TagOccurrence {
  slide: number;
  /** Text in a shape, the speaker notes, a table row, a picture's alt text, or a native chart's alt text (fed with the app's data). */
  place: 'text' | 'row' | 'picture' | 'chart' | 'notes';
  shape: string;
}

/** The tags of a presentation in reading order, each at its slide and shape. */
export function pptxTags(pkg: OfficePackage, readPart: PartReader = partOf(pkg)): SlideTag[] {
  const out: SlideTag[] = [];
  slidePaths(pkg).forEach((path, i) => {
    const doc = readPart(path);
    const rows = descendants(doc, 'tr');
    for (const p of descendants(doc, 'p').filter((x) => x.namespaceURI?.includes('drawingml'))) {
      const text = textOfParagraph(p);
      const shape = shapeName(p);
      const tr = ancestorNamed(p, 'tr');
      const place = tr ? 'row' : 'text';
      for (const t of tagsIn(text))
        out.push({
          tag: t.tag,
          raw: t.raw,
          where: `slide ${i + 1}, shape "${shape}"`,
          slide: i + 1,
          place,
          shape,
          ...(tr && { rowId: `${path}#${rows.indexOf(tr)}` }),
        });
    }
    // The speaker notes: their text tags are filled as the slide's are.
    const notes = notesOf(pkg, path);
    if (notes)
      for (const p of descendants(notes.doc, 'p').filter((x) => x.namespaceURI?.includes('drawingml')))
        for (const t of tagsIn(textOfParagraph(p)))
          out.push({
            tag: t.tag,
            raw: t.raw,
            where: `slide ${i + 1}, speaker notes`,
            slide: i + 1,
            place: 'notes',
            shape: '',
          });
    // A native chart whose alt text names an app chart: the chart takes that chart's data.
    for (const frame of descendants(doc, 'graphicFrame')) {
      if (!descendants(frame, 'chart').some((c) => c.namespaceURI === CHART_NS)) continue;
      const props = descendants(frame, 'cNvPr')[0];
      const shape = props?.getAttribute('name') ?? '';
      for (const t of tagsIn(props?.getAttribute('descr') ?? ''))
        out.push({
          tag: t.tag,
          raw: t.raw,
          where: `slide ${i + 1}, chart "${shape}" (alt text)`,
          slide: i + 1,
          place: 'chart',
          shape,
        });
    }
    for (const pic of descendants(doc, 'pic')) {
      const props = descendants(pic, 'cNvPr')[0];
      const descr = props?.getAttribute('descr') ?? '';
      const shape = props?.getAttribute('name') ?? '';
      for (const t of tagsIn(descr))
        out.push({
          tag: t.tag,
          raw: t.raw,
          where: `slide ${i + 1}, picture "${shape}" (alt text)`,
          slide: i + 1,
          place: 'picture',
          shape,
        });
    }
  });
  return out;
}

/** An empty cell's paragraph has no run: one is added (before the paragraph's end properties) for the value. */
function newRun(p: Element | undefined): Element | undefined {
  if (!p) return undefined;
  const run = sibling(p, 'r');
  const text = sibling(p, 't');
  run.appendChild(text);
  p.insertBefore(run, kids(p, 'endParaRPr')[0] ?? null);
  return text;
}

/**
 * Table rows: {{deleterow}} rows go, rows with column or field tags repeat per data row or value, a
 * {{table:…}} row becomes header and data rows. A table that runs past the slide shows page `page`
 * of its lines (see pptx-table-pages); the header of a {{table:…}} row is on every page.
 */
function fillTables(doc: Document, scopes: TemplateScope[], page: number, height: number) {
  const { rows, sources, growing } = slideRows(doc, scopes, height);
  rows.forEach((tr, i) => {
    const source = sources[i];
    if (!source) return;
    const parent = tr.parentNode!;
    const window = growing.get(i);
    const shown = (k: number) => !window || (k >= page * window.perSlide && k < (page + 1) * window.perSlide);
    if (source.kind === 'table') {
      const value = source.value;
      const lines = value ? [value.columns.map((c) => c.label), ...value.display.filter((_, k) => shown(k))] : [];
      for (const line of lines) {
        const copy = tr.cloneNode(true) as Element;
        kids(copy, 'tc').forEach((tc, j) => {
          for (const p of descendants(tc, 'p')) fillParagraph(p, () => '');
          const firstText = descendants(tc, 't')[0] ?? newRun(descendants(tc, 'p')[0]);
          firstText?.appendChild(doc.createTextNode(xmlSafe(line[j] ?? '')));
        });
        parent.insertBefore(copy, tr);
      }
    } else if (source.kind === 'repeat') {
      for (let k = 0; k < source.count; k++) {
        if (!shown(k)) continue;
        const copy = tr.cloneNode(true) as Element;
        for (const p of descendants(copy, 'p'))
          fillParagraph(p, (tag) => tagValueText(tag, scopes, { key: source.key, k }));
        parent.insertBefore(copy, tr);
      }
    }
    parent.removeChild(tr);
  });
}

export async function fillPptx(pkg: OfficePackage, bytes: Buffer, data: TemplateData): Promise<Buffer> {
  const slides = slidePaths(pkg);
  const tags = pptxTags(pkg);
  const automizer = new Automizer({
    removeExistingSlides: true,
    autoImportSlideMasters: false,
    cleanup: true,
    verbosity: 0,
    compression: 6,
  });
  const pres = automizer.loadRoot(bytes).load(bytes, 'template');
  const media: { name: string; png: Buffer }[] = [];
  const height = slideHeight(pkg);
  const plans = slides.map((path, i) => {
    const n = i + 1;
    const template = parseXml(pkg.parts.get(path)!.toString('utf8'), path);
    const slideTag = tags.find((t) => t.slide === n && t.tag?.kind === 'slide')?.tag;
    const scopes: TemplateScope[][] = slideTag
      ? (own(data.root.levels, tagKey(slideTag)) ?? []).map((l) => [data.root, l.scope])
      : [[data.root]];
    const pictures = tags.filter((t) => t.slide === n && t.place === 'picture' && t.tag?.kind === 'image');
    const charts = tags.filter((t) => t.slide === n && t.place === 'chart' && t.tag?.kind === 'image');
    // A copy of the slide for each page of its longest table.
    const pages = scopes.map((sc) => slidePages(template, sc, height));
    return { n, scopes, pages, pictures, charts };
  });
  for (const plan of plans)
    plan.scopes.forEach((scopes, copy) => {
      for (const pic of plan.pictures) {
        const key = tagKey(pic.tag!);
        const chart = scopes
          .map((s) => own(s.charts, key))
          .filter(Boolean)
          .at(-1);
        if (chart)
          media.push({
            name: `chart-${plan.n}-${copy}-${media.length}.png`,
            png: svgToPng(chartSvg(chart), CHART_WIDTH * 2),
          });
      }
    });
  if (media.length)
    pres.loadMediaBuffer(
      media.map((m) => m.name),
      media.map((m) => m.png),
    );
  let next = 0;
  const copies: TemplateScope[][] = [];
  for (const plan of plans)
    plan.scopes.forEach((scopes, copy) => {
      const pictures = plan.pictures.map((pic) => ({ shape: pic.shape, media: media[next++]?.name }));
      for (let page = 0; page < plan.pages[copy]; page++) {
        copies.push(scopes);
        pres.addSlide('template', plan.n, (slide) => {
          slide.modify((doc) => {
            fillTables(doc as never, scopes, page, height);
            for (const p of descendants(doc as never, 'p')) fillParagraph(p, (tag) => tagValueText(tag, scopes));
            for (const props of descendants(doc as never, 'cNvPr'))
              if (tagsIn(props.getAttribute('descr') ?? '').length) props.setAttribute('descr', '');
          });
          for (const pic of pictures)
            if (pic.media) slide.modifyElement(pic.shape, [modify.setRelationTarget(pic.media) as never]);
          // Native charts take the app chart's data: categories, series, the embedded workbook, the cache.
          for (const c of plan.charts) {
            const chart = inScopes(scopes, (sc) => sc.charts, tagKey(c.tag!));
            if (chart) slide.modifyElement(c.shape, [modify.setChartData(chartData(chart)) as never]);
          }
        });
      }
    });
  const zip = await pres.getJSZip();
  if (tags.some((t) => t.place === 'notes')) await fillNotes(zip, copies);
  await keepReachableParts(zip);
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}
