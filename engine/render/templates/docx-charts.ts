import { posix } from 'node:path';
import type JSZip from 'jszip';
import { tagKey, tagsIn, type TemplateTag } from './tags.js';
import { chartId, inScopes, type ChartValue, type TemplateScope } from './template-data.js';
import type { OfficePackage } from './template-package.js';
import { EMPTY_RELS, relationshipsOf, relsPathOf, withRelationships } from './office-parts.js';
import { keepReachableParts } from './office-reach.js';
import { CHART_NS, ChartFeeder } from './native-charts.js';
import { descendants, parseXml, serializeXml, type Document, type Element } from './xml.js';

// Native Word charts fed from the app. A chart the designer inserted in Word (Insert › Chart) whose
// alt text is `{{image:<chart>}}` takes that chart's data, as in PowerPoint: categories, series,
// cache and the embedded workbook "Edit data" opens. Inside a level it is a chart per value, each
// its own chart part. easy-template-x repeats the body's XML but not the parts a drawing names, so
// each chart drawing stands in the fill as an internal tag (`{{bs-chart:<slot>}}`); our resolver
// answers it with the drawing naming a new relationship, and the chart parts are written after.
// Word and LibreOffice draw these themselves: no picture is drawn, which is what makes a 200-level
// letter book with a chart per level fast.

/** The internal tag a chart drawing stands in as during the fill. */
export const CHART_SLOT_TAG = 'bs-chart:';
const RID = '__bs_chart_rid__';
const DOC_PR = '4294967295';

/** A native chart of the template: the part it is in, its chart part, its tag, its drawing's XML. */
export interface ChartSlot {
  part: string;
  chartPath: string;
  relId: string;
  tag: TemplateTag;
  /** The drawing with its relationship id and docPr id as markers. */
  drawing: string;
}

/** A chart drawing, its properties (alt text) and the relationship id of its chart part. */
function chartDrawings(root: Element | Document): { drawing: Element; props: Element; relId: string }[] {
  const out: { drawing: Element; props: Element; relId: string }[] = [];
  for (const drawing of descendants(root, 'drawing')) {
    const chart = descendants(drawing, 'chart').find((c) => c.namespaceURI === CHART_NS);
    const props = descendants(drawing, 'docPr')[0];
    const relId = chart?.getAttribute('r:id');
    if (chart && props && relId) out.push({ drawing, props, relId });
  }
  return out;
}

/** The image tags in the alt text of a paragraph's native charts, with the chart's name. */
export function chartAltTags(p: Element): { tag: TemplateTag | null; raw: string; chart: string }[] {
  return chartDrawings(p).flatMap(({ props }) =>
    tagsIn(props.getAttribute('descr') ?? '').map((t) => ({ ...t, chart: props.getAttribute('name') ?? '' })),
  );
}

/**
 * Takes each native chart whose alt text is one image tag out of a part's XML, leaving the internal
 * tag in its run; the slots are added to `slots`.
 */
export function takeChartSlots(doc: Document, part: string, pkg: OfficePackage, slots: ChartSlot[]) {
  const rels = new Map(relationshipsOf(pkg, part).map((r) => [r.id, r]));
  for (const { drawing, props, relId } of chartDrawings(doc)) {
    const tags = tagsIn(props.getAttribute('descr') ?? '');
    const rel = rels.get(relId);
    if (tags.length !== 1 || tags[0].tag?.kind !== 'image' || !rel || rel.external) continue;
    const chart = descendants(drawing, 'chart').find((c) => c.namespaceURI === CHART_NS)!;
    chart.setAttribute('r:id', RID);
    props.setAttribute('id', DOC_PR);
    slots.push({ part, chartPath: rel.path, relId, tag: tags[0].tag, drawing: serializeXml(drawing) });
    const w = drawing.namespaceURI!;
    const text = doc.createElementNS(w, 'w:t');
    text.appendChild(doc.createTextNode(`{{${CHART_SLOT_TAG}${slots.length - 1}}}`));
    drawing.parentNode!.replaceChild(text, drawing);
  }
}

/** A chart the fill placed: its new relationship id, the slot it copies and the data it shows. */
interface PlacedChart {
  rId: string;
  n: number;
  slot: ChartSlot;
  chart: ChartValue;
}

/** The charts of one fill: the resolver places them, `write` writes their parts into the output. */
export class WordCharts {
  private readonly placed = new Map<string, PlacedChart>();
  private readonly feeders = new Map<string, ChartFeeder>();
  private docPr = 900_000;

  constructor(readonly slots: ChartSlot[]) {}

  /** The drawing for a chart slot at a place of the fill (in the scopes of its levels). */
  place(slotTag: string, scopes: TemplateScope[]): string {
    const slot = this.slots[Number(slotTag.slice(CHART_SLOT_TAG.length))];
    if (!slot) return '';
    const chart = inScopes(scopes, (s) => s.charts, tagKey(slot.tag));
    let rId = slot.relId;
    if (chart) {
      // The same chart with the same data in the same place shares one part.
      const key = `${slot.chartPath}|${chartId(chart)}`;
      let placed = this.placed.get(key);
      if (!placed) {
        const n = this.placed.size + 1;
        placed = { rId: `rIdBsChart${n}`, n, slot, chart };
        this.placed.set(key, placed);
      }
      rId = placed.rId;
    }
    return slot.drawing.replace(RID, rId).replace(`"${DOC_PR}"`, `"${++this.docPr}"`);
  }

  get empty() {
    return this.slots.length === 0;
  }

  /** Writes each placed chart's parts into the filled file, and drops the template's charts no drawing shows. */
  async write(zip: JSZip, pkg: OfficePackage) {
    if (this.empty) return;
    const placed = [...this.placed.values()];
    const written = await Promise.all(placed.map((p) => this.feed(p, pkg)));
    const relsByPart = new Map<string, string[]>();
    const overrides: string[] = [];
    placed.forEach((p, i) => {
      const { chartPath, xml, rels, workbookPath, workbook } = written[i];
      zip.file(chartPath, xml);
      zip.file(relsPathOf(chartPath), rels);
      if (workbookPath && workbook) zip.file(workbookPath, workbook);
      const target = posix.relative(posix.dirname(p.slot.part), chartPath);
      relsByPart.set(p.slot.part, [
        ...(relsByPart.get(p.slot.part) ?? []),
        `<Relationship Id="${p.rId}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart" Target="${target}"/>`,
      ]);
      overrides.push(
        `<Override PartName="/${chartPath}" ContentType="application/vnd.openxmlformats-officedocument.drawingml.chart+xml"/>`,
      );
    });
    for (const [part, rels] of relsByPart) {
      const path = relsPathOf(part);
      const text = await zip.file(path)!.async('string');
      zip.file(path, withRelationships(text, rels));
    }
    const types = await zip.file('[Content_Types].xml')!.async('string');
    const xlsx = /Extension="xlsx"/i.test(types)
      ? ''
      : '<Default Extension="xlsx" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"/>';
    zip.file('[Content_Types].xml', types.replace('</Types>', `${xlsx}${overrides.join('')}</Types>`));
    await keepReachableParts(zip);
  }

  /** One placed chart's parts: the chart fed with its data, its relationships, its workbook. */
  private async feed(p: PlacedChart, pkg: OfficePackage) {
    const { chartPath: template } = p.slot;
    const chartPath = posix.join(posix.dirname(template), `bs-chart${p.n}.xml`);
    const rels = parseXml(pkg.parts.get(relsPathOf(template))?.toString('utf8') ?? EMPTY_RELS, relsPathOf(template));
    const book = relationshipsOf(pkg, template).find((r) => !r.external && r.type.endsWith('/package'));
    let feeder = this.feeders.get(template);
    if (!feeder) {
      const workbook = book ? (pkg.parts.get(book.path) ?? null) : null;
      feeder = new ChartFeeder(pkg.parts.get(template)!.toString('utf8'), workbook, template);
      this.feeders.set(template, feeder);
    }
    const fed = await feeder.feed(p.chart);
    const workbookPath = book && fed.workbook ? posix.join(posix.dirname(book.path), `bs-chart${p.n}.xlsx`) : null;
    for (const rel of descendants(rels, 'Relationship')) {
      if (!(rel.getAttribute('Type') ?? '').endsWith('/package')) continue;
      if (workbookPath) rel.setAttribute('Target', posix.relative(posix.dirname(chartPath), workbookPath));
      else rel.parentNode!.removeChild(rel);
    }
    return { chartPath, xml: fed.xml, rels: serializeXml(rels), workbookPath, workbook: fed.workbook };
  }
}
