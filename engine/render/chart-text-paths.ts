import { existsSync } from 'node:fs';

// A chart's words as outlines, so resvg draws a chart picture without laying out text.
//
// resvg shapes every <text> afresh and reads each glyph's outline from the font file on each
// picture: two thirds of a plain bar chart's picture time went there (8.6 ms a picture, 2.6 ms with
// no text). ECharts writes its words in a few fixed forms (a size, an anchor, the central baseline,
// a translate or a matrix), so each is laid out here with fontkit from the same DejaVu Sans files
// resvg would have used, and each glyph's outline is read once per thread and kept. The pixels are
// resvg's own within anti-aliasing (`tests/render/chart-text-paths.test.ts` compares them). A <text>
// in any other form, or with a character the font lacks, is left as it is for resvg to draw.

const REGULAR = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
/** The files resvg is given when both are there (chart-png.ts); outlines come from the same ones. */
export const DEJAVU = [REGULAR, BOLD];

let here: boolean | undefined;
/** Whether DejaVu Sans's two files are on this machine (looked up once). */
export const dejaVuHere = () => (here ??= DEJAVU.every((f) => existsSync(f)));

/** The little of fontkit's font this needs (the package ships no types). */
interface Font {
  unitsPerEm: number;
  ascent: number;
  descent: number;
  layout(text: string): {
    glyphs: { id: number; path: { toSVG(): string } }[];
    positions: { xAdvance: number; xOffset: number; yOffset: number }[];
  };
}

let fonts: { regular: Font; bold: Font } | null | undefined;
/** DejaVu Sans, read once per thread; null where its files are not (the text stays text there). */
function dejaVu(): { regular: Font; bold: Font } | null {
  if (fonts !== undefined) return fonts;
  if (!dejaVuHere()) return (fonts = null);
  // Synchronous, as pictures are drawn in synchronous code; the threads' bundles are CommonJS.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fontkit = require('fontkit') as { openSync(path: string): Font };
  return (fonts = { regular: fontkit.openSync(REGULAR), bold: fontkit.openSync(BOLD) });
}

/** Each glyph's outline in font units (y up), by font and glyph: the same few glyphs recur. */
const outlines = new Map<string, string>();

/** The attributes ECharts gives its words; any other leaves a <text> to resvg. */
const KNOWN = new Set([
  'dominant-baseline',
  'text-anchor',
  'font-size',
  'font-family',
  'font-weight',
  'xml:space',
  'x',
  'y',
  'transform',
  'fill',
]);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decoded = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (_, e: string) =>
    e[0] === '#'
      ? String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10))
      : ENTITIES[e.toLowerCase()],
  );

const n = (v: number) => String(Math.round(v * 1000) / 1000);

/** One <text> as a group of glyph outlines, or null when it is in a form this does not draw. */
function outlined(attributes: string, content: string, f: { regular: Font; bold: Font }): string | null {
  const a: Record<string, string> = {};
  for (const m of attributes.matchAll(/([\w:-]+)="([^"]*)"/g)) {
    if (!KNOWN.has(m[1])) return null;
    a[m[1]] = m[2];
  }
  if ((a['dominant-baseline'] ?? 'central') !== 'central') return null;
  const weight = a['font-weight'] ?? 'normal';
  if (weight !== 'normal' && weight !== 'bold' && weight !== '400' && weight !== '700') return null;
  const size = /^(\d+(?:\.\d+)?)(px)?$/.exec(a['font-size'] ?? '12px');
  if (!size) return null;
  const anchor = a['text-anchor'] ?? 'start';
  if (anchor !== 'start' && anchor !== 'middle' && anchor !== 'end') return null;
  let text = decoded(content);
  // Outside xml:space="preserve", SVG drops the ends' spaces and runs of spaces count as one.
  if (a['xml:space'] !== 'preserve') text = text.replace(/[\s]+/g, ' ').trim();
  const font = weight === 'bold' || weight === '700' ? f.bold : f.regular;
  const run = font.layout(text);
  // A character the font lacks: left to resvg, which draws what it draws then.
  if (run.glyphs.some((g) => g.id === 0)) return null;
  const scale = Number(size[1]) / font.unitsPerEm;
  const width = run.positions.reduce((w, p) => w + p.xAdvance, 0) * scale;
  let x = Number(a.x ?? 0) - (anchor === 'end' ? width : anchor === 'middle' ? width / 2 : 0);
  if (!Number.isFinite(x)) return null;
  // The central baseline: halfway between the font's ascent and descent.
  const y = Number(a.y ?? 0) + ((font.ascent + font.descent) / 2) * scale;
  if (!Number.isFinite(y)) return null;
  const key = font === f.bold ? 'b' : 'r';
  const parts: string[] = [];
  run.glyphs.forEach((g, i) => {
    const id = `${key}${g.id}`;
    let d = outlines.get(id);
    if (d === undefined) outlines.set(id, (d = g.path.toSVG()));
    const p = run.positions[i];
    if (d)
      parts.push(
        `<path transform="translate(${n(x + p.xOffset * scale)} ${n(y - p.yOffset * scale)}) scale(${scale} ${-scale})" d="${d}"/>`,
      );
    x += p.xAdvance * scale;
  });
  const transform = a.transform ? ` transform="${a.transform}"` : '';
  return `<g${transform} fill="${a.fill ?? '#000'}">${parts.join('')}</g>`;
}

/**
 * The SVG with every <text> it can draw as glyph outlines; `textLeft` says whether any is still
 * text (resvg then needs its fonts).
 */
export function textAsOutlines(svg: string): { svg: string; textLeft: boolean } {
  const f = dejaVu();
  if (!f || !svg.includes('<text')) return { svg, textLeft: svg.includes('<text') };
  let textLeft = false;
  const out = svg.replace(
    /<text((?:\s+[\w:-]+="[^"]*")*)\s*>([^<]*)<\/text>/g,
    (whole, attrs: string, content: string) => {
      const drawn = outlined(attrs, content, f);
      if (drawn === null) textLeft = true;
      return drawn ?? whole;
    },
  );
  // A <text> with children (a <tspan>) was not matched above and is still there.
  return { svg: out, textLeft: textLeft || out.includes('<text') };
}
