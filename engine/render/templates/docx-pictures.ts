import { posix } from 'node:path';
import type JSZip from 'jszip';
import { CHART_HEIGHT, CHART_WIDTH } from '../chart-svg.js';
import { EMPTY_RELS, relsPathOf, withRelationships } from './office-parts.js';
import { escapeXml } from './xml.js';

// Chart pictures in a Word fill, placed by us rather than by easy-template-x's image plugin. The
// plugin hashes every picture it is given (base64 and SHA-1 in JavaScript, to find a copy already
// in the file) and deflates PNGs again in its output; a 200-level letter book spent a tenth of its
// time on that. Here each distinct chart is one media part, named by its chart id, stored as its PNG
// already is (compressed), and its drawing names a relationship that `write` adds to each part
// whose XML shows it. The drawing's alt text is the chart's title, escaped.

const REL_PREFIX = 'rIdBsPic';
const IMAGE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';
/** EMUs per pixel at 96 dpi, as Word counts them. */
const EMU = 9525;

/** The chart pictures of one fill: the resolver places them, `write` adds their parts to the output. */
export class WordPictures {
  /** Picture number by chart id: the same chart with the same data is one media part. */
  private readonly numbers = new Map<string, number>();
  private readonly pngs: Buffer[] = [];
  private docPr = 800_000;

  /** The drawing (a run's content) that shows a chart's picture, at 90% of the chart's drawn size. */
  place(id: string, png: Buffer, title: string): string {
    let n = this.numbers.get(id);
    if (n === undefined) {
      this.pngs.push(png);
      n = this.pngs.length;
      this.numbers.set(id, n);
    }
    const docPr = ++this.docPr;
    const cx = Math.round(CHART_WIDTH * 0.9 * EMU);
    const cy = Math.round(CHART_HEIGHT * 0.9 * EMU);
    const name = `Chart picture ${n}`;
    return (
      `<w:drawing><wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="${cx}" cy="${cy}"/>` +
      `<wp:effectExtent l="0" t="0" r="0" b="0"/><wp:docPr id="${docPr}" name="${name}" descr="${escapeXml(title)}"/>` +
      `<wp:cNvGraphicFramePr><a:graphicFrameLocks xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" noChangeAspect="1"/></wp:cNvGraphicFramePr>` +
      `<a:graphic xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">` +
      `<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="${docPr}" name="${name}"/><pic:cNvPicPr/></pic:nvPicPr>` +
      `<pic:blipFill><a:blip r:embed="${REL_PREFIX}${n}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
      `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${cx}" cy="${cy}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>` +
      `</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing>`
    );
  }

  get empty() {
    return this.pngs.length === 0;
  }

  /** Adds each placed picture's media part, and its relationship to every part whose XML shows it. */
  async write(zip: JSZip) {
    if (this.empty) return;
    this.pngs.forEach((png, i) => zip.file(mediaPath(i + 1), png, { compression: 'STORE' }));
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
