import { promisify } from 'node:util';
import { crc32, deflate } from 'node:zlib';
import type { ResvgRenderOptions } from '@resvg/resvg-js';
import { EngineError, MISSING_MODULE } from '../core/errors.js';
import { keepNativeFreedPagesBriefly } from '../core/native-allocators.js';
import { DEJAVU, dejaVuHere, textAsOutlines } from './chart-text-paths.js';

// Charts as PNG pictures, for formats and uses that cannot take vectors.

type ResvgModule = typeof import('@resvg/resvg-js');
let resvg: ResvgModule | null = null;

/**
 * resvg, loaded when the first picture is drawn. Its binary for this platform is an optional
 * package of its own, which `npm ci --omit=optional` (or a platform npm has no build for) leaves
 * out: then every report without a chart picture still renders, and a picture says what is missing.
 */
function loadResvg(): ResvgModule {
  if (resvg) return resvg;
  keepNativeFreedPagesBriefly();
  try {
    // Synchronous, as pictures are drawn in synchronous code; the render thread's bundle is CommonJS.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    resvg = require('@resvg/resvg-js') as ResvgModule;
    return resvg;
  } catch (e) {
    throw new EngineError(
      501,
      `Charts as pictures need resvg's binary for this platform (@resvg/resvg-js-${process.platform}-${process.arch}…), ${MISSING_MODULE}: run \`npm ci\` without --omit=optional (${(e as Error).message.split('\n')[0]})`,
    );
  }
}

/**
 * The fonts charts are drawn with: DejaVu Sans's own files where they are (reading two files is a
 * fraction of scanning every font of the system for each picture), the system's fonts elsewhere.
 */
let fonts: ResvgRenderOptions['font'] | null = null;
function chartFonts(): ResvgRenderOptions['font'] {
  fonts ??= dejaVuHere()
    ? { loadSystemFonts: false, fontFiles: DEJAVU, defaultFontFamily: 'DejaVu Sans' }
    : { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' };
  return fonts;
}

/** No fonts at all: an SVG whose words are all outlines has nothing for resvg to look up. */
const NO_FONTS: ResvgRenderOptions['font'] = { loadSystemFonts: false };

/** The SVG as resvg is given it (its words as outlines where they can be) and resvg's options. */
function prepared(svg: string, width: number): { svg: string; options: ResvgRenderOptions } {
  const outlined = textAsOutlines(svg);
  return {
    svg: outlined.svg,
    options: {
      fitTo: { mode: 'width', value: width },
      background: '#ffffff',
      font: outlined.textLeft ? chartFonts() : NO_FONTS,
    },
  };
}

/** Rasterizes an SVG to PNG on this thread. */
export function svgToPng(svg: string, width: number): Buffer {
  // resvg first: where its binary is missing, the picture says so before any outline is laid out.
  const { Resvg } = loadResvg();
  const p = prepared(svg, width);
  return Buffer.from(new Resvg(p.svg, p.options).render().asPng());
}

const deflateAsync = promisify(deflate);

/** A PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * RGBA pixels as a PNG, its compression on the thread pool: resvg's own `asPng` compresses on the
 * calling thread, which made it most of a many-chart fill. Each row is stored unfiltered (a chart's
 * flat colours compress well as they are). zlib's level 3 rather than its default 6: the same pixels
 * at about a quarter of the compression time (1.6 ms against 5.6 for a 1280-pixel chart) for about
 * two thirds more bytes (42 KB against 25 KB); a 200-level book's pictures spent a fifth of its
 * time compressing at level 6.
 */
async function encodePng(width: number, height: number, rgba: Buffer): Promise<Buffer> {
  const stride = width * 4;
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) rgba.copy(raw, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method choice, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', await deflateAsync(raw, { level: 3 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Rasterizes an SVG to PNG on the thread pool: many pictures are drawn and compressed side by side. */
export async function svgToPngAsync(svg: string, width: number): Promise<Buffer> {
  const { renderAsync } = loadResvg();
  const p = prepared(svg, width);
  const image = await renderAsync(p.svg, p.options);
  return encodePng(image.width, image.height, image.pixels);
}
