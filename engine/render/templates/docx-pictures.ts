import { posix } from 'node:path';
import type JSZip from 'jszip';
import { CHART_HEIGHT, CHART_WIDTH } from '../chart-svg.js';
import { ChartPictures } from '../chart-pictures.js';
import { chartId, type ChartValue } from './template-data.js';
import { EMPTY_RELS, relsPathOf, withRelationships } from './office-parts.js';
import { escapeXml } from './xml.js';

// Chart pictures in a Word fill, placed by us rather than by easy-template-x's image plugin. The
// plugin hashes every picture it is given (base64 and SHA-1 in JavaScript, to find a copy already
// in the file) and deflates PNGs again in its output; a 200-level letter book spent a tenth of its
// time on that. Here each distinct chart is one media part, named by its chart id, stored as its PNG
// already is (compressed), and its drawing names a relationship that `write` adds to each part
// whose XML shows it. The drawing's alt text is the chart's title, escaped. Pictures are drawn on the
// chart threads past the first few (chart-pictures.ts) while the fill goes on: the fill needs only
// their names, `write` their bytes.

const REL_PREFIX = 'rIdBsPic';
const IMAGE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
/** EMUs per pixel at 96 dpi, as Word counts them. */
const EMU = 9525;

/** The chart pictures of one fill: `draw` starts them, the resolver places them, `write` adds their parts. */
export class WordPictures {
  /** Each distinct chart (by chart id, its data included) once: its number and its PNG to come. */
  private readonly drawings = new Map<string, { n: number; png: Promise<Buffer> }>();
  private readonly pictures = new ChartPictures(CHART_WIDTH * 2);
  private docPr = 800_000;

  /** Starts drawing a chart's picture, unless the same chart is drawn already; answers its number. */
  draw(chart: ChartValue): number {
    const id = chartId(chart);
    let drawing = this.drawings.get(id);
    if (!drawing) {
      const png = (async () => this.pictures.draw(chart))();
      // Its failure (resvg missing) is the fill's, when `write` waits for it: not an unhandled rejection before.
      png.catch(() => {});
      drawing = { n: this.drawings.size + 1, png };
      this.drawings.set(id, drawing);
    }
    return drawing.n;
  }

  /** The drawing (a run's content) that shows a chart's picture, at 90% of the chart's drawn size. */
  place(chart: ChartValue): string {
    const n = this.draw(chart);
    const docPr = ++this.docPr;
    const cx = Math.round(CHART_WIDTH * 0.9 * EMU);
    const cy = Math.round(CHART_HEIGHT * 0.9 * EMU);
    const name = `Chart picture ${n}`;
    return (
      `<w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${cx}" cy="${cy}"/>` +
      `<wp:effectExtent l="0" t="0" r="0" b="0"/><wp:docPr id="${docPr}" name="${name}" descr="${escapeXml(chart.title)}"/>` +
      `<wp:cNvGraphicFramePr><a:graphicFrameLocks xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" noChangeAspect="1"/></wp:cNvGraphicFramePr>` +
      `<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">` +
      `<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="${docPr}" name="${name}"/><pic:cNvPicPr/></pic:nvPicPr>` +
      `<pic:blipFill><a:blip r:embed="${REL_PREFIX}${n}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
      `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>` +
      `</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing>`
    );
  }

  get empty() {
    return this.drawings.size === 0;
  }

  /** Adds each placed picture's media part, and its relationship to every part whose XML shows it. */
  async write(zip: JSZip) {
    if (this.empty) return;
    for (const { n, png } of this.drawings.values()) zip.file(mediaPath(n), await png, { compression: 'STORE' });
    const shown = new RegExp(`r:embed="${REL_PREFIX}(\\d+)"`, 'g');
    for (const part of Object.keys(zip.files).filter((p) => /^word\/[^/]+\.xml$/.test(p))) {
      const text = await zip.file(part)!.async('string');
      if (!text.includes(REL_PREFIX)) continue;
      const numbers = new Set([...text.matchAll(shown)].map((m) => Number(m[1])));
      const rels = [...numbers].map(
        (n) =>
          `<Relationship Id="${REL_PREFIX}${n}" Type="${IMAGE_REL}" Target="${posix.relative(posix.dirname(part), mediaPath(n))}"/>`,
      );
      const path = relsPathOf(part);
      const existing = (await zip.file(path)?.async('string')) ?? EMPTY_RELS;
      zip.file(path, withRelationships(existing, rels));
    }
    const types = await zip.file('[Content_Types].xml')!.async('string');
    if (!/Extension="png"/i.test(types))
      zip.file(
        '[Content_Types].xml',
        types.replace('</Types>', '<Default Extension="png" ContentType="image/png"/></Types>'),
      );
  }
}

const mediaPath = (n: number) => `word/media/bs-picture${n}.png`;
