import { CHART_HEIGHT, CHART_WIDTH } from '../chart-svg.js';
import { ChartPictures } from '../chart-pictures.js';
import type { OfficePackage } from './template-package.js';
import { EMPTY_RELS, relationshipsOf, relsPathOf, withRelationships } from './office-parts.js';
import type { ChartValue } from './template-data.js';
import { addOverride } from './xlsx-sheet-copy.js';
import { descendants, parseXml, serializeXml, type Document } from './xml.js';

// {{image:Chart}} in an Excel cell: the chart as a picture anchored at the cell it stood in (the
// cell and the rows it moved with), as NPrinting places images in a sheet.

type Parts = Map<string, Buffer | string>;

const SHEET_DRAWING = 'http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing';
const DRAWINGML = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL_TYPE = (t: string) => `http://schemas.openxmlformats.org/officeDocument/2006/relationships/${t}`;
/** English metric units a pixel at 96 dpi. */
const EMU = 9525;

/** A picture to place: the output cell (1-based) and the chart it shows. */
export interface CellPicture {
  row: number;
  col: number;
  chart: ChartValue;
}

/** Elements a worksheet's `<drawing>` comes before (CT_Worksheet's order). */
const AFTER_DRAWING = [
  'legacyDrawing',
  'legacyDrawingHF',
  'drawingHF',
  'picture',
  'oleObjects',
  'controls',
  'webPublishItems',
  'tableParts',
  'extLst',
];

function freeName(out: Parts, dir: string, base: string, ext: string): string {
  for (let n = 1; ; n++) if (!out.has(`${dir}/${base}${n}.${ext}`)) return `${dir}/${base}${n}.${ext}`;
}

function addRelationship(out: Parts, part: string, type: string, target: string): string {
  const relsPath = relsPathOf(part);
  const xml = out.get(relsPath)?.toString() ?? EMPTY_RELS;
  const used = new Set([...xml.matchAll(/\bId="([^"]*)"/g)].map((m) => m[1]));
  let id = 'rIdPicture1';
  for (let n = 1; used.has(id); n++) id = `rIdPicture${n}`;
  out.set(relsPath, withRelationships(xml, [`<Relationship Id="${id}" Type="${REL_TYPE(type)}" Target="${target}"/>`]));
  return id;
}

const relativeTo = (from: string, to: string) => {
  const a = from.split('/').slice(0, -1);
  const b = to.split('/');
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
};

/**
 * Places a sheet's pictures: into its drawing, or a drawing made for it (the sheet's `<drawing>`
 * added in its place). Pictures of the same chart share one image part.
 */
export async function placePictures(
  out: Parts,
  sheetPath: string,
  sheetDoc: Document,
  pictures: CellPicture[],
  drawn: Map<string, Promise<Buffer>>,
): Promise<void> {
  if (!pictures.length) return;
  const pkg: OfficePackage = { format: 'xlsx', parts: out as Map<string, Buffer> };
  let drawingPath = relationshipsOf(pkg, sheetPath).find((r) => !r.external && r.type.endsWith('/drawing'))?.path;
  if (!drawingPath || !out.has(drawingPath)) {
    drawingPath = freeName(out, 'xl/drawings', 'drawing', 'xml');
    out.set(
      drawingPath,
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr xmlns:xdr="${SHEET_DRAWING}" xmlns:a="${DRAWINGML}" xmlns:r="${RELS}"></xdr:wsDr>`,
    );
    addOverride(out, drawingPath, 'application/vnd.openxmlformats-officedocument.drawing+xml');
    const id = addRelationship(out, sheetPath, 'drawing', relativeTo(sheetPath, drawingPath));
    const ws = sheetDoc.documentElement!;
    const drawing = sheetDoc.createElementNS(ws.namespaceURI, ws.prefix ? `${ws.prefix}:drawing` : 'drawing');
    drawing.setAttributeNS(RELS, 'r:id', id);
    let next = null;
    for (let n = ws.firstChild; n; n = n.nextSibling)
      if (n.nodeType === 1 && AFTER_DRAWING.includes((n as { localName: string }).localName)) {
        next = n;
        break;
      }
    ws.insertBefore(drawing, next);
  }
  const doc = parseXml(String(out.get(drawingPath)), drawingPath);
  const root = doc.documentElement!;
  let nextId = Math.max(0, ...descendants(doc, 'cNvPr').map((e) => Number(e.getAttribute('id') ?? 0))) + 1;
  const images = new Map<string, string>();
  const types = String(out.get('[Content_Types].xml'));
  if (!/Extension="png"/i.test(types))
    out.set(
      '[Content_Types].xml',
      types.replace('<Override', '<Default Extension="png" ContentType="image/png"/><Override'),
    );
  for (const p of pictures) {
    const key = JSON.stringify(p.chart);
    let rel = images.get(key);
    if (!rel) {
      const media = freeName(out, 'xl/media', 'image', 'png');
      out.set(media, await drawn.get(key)!);
      rel = addRelationship(out, drawingPath, 'image', relativeTo(drawingPath, media));
      images.set(key, rel);
    }
    const id = nextId++;
    const title = p.chart.title.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
    const anchor = parseXml(
      `<xdr:oneCellAnchor xmlns:xdr="${SHEET_DRAWING}" xmlns:a="${DRAWINGML}" xmlns:r="${RELS}">` +
        `<xdr:from><xdr:col>${p.col - 1}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${p.row - 1}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>` +
        `<xdr:ext cx="${CHART_WIDTH * EMU}" cy="${CHART_HEIGHT * EMU}"/>` +
        `<xdr:pic><xdr:nvPicPr><xdr:cNvPr id="${id}" name="Chart ${id}" descr="${title}"/><xdr:cNvPicPr><a:picLocks noChangeAspect="1"/></xdr:cNvPicPr></xdr:nvPicPr>` +
        `<xdr:blipFill><a:blip r:embed="${rel}"/><a:stretch><a:fillRect/></a:stretch></xdr:blipFill>` +
        '<xdr:spPr><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></xdr:spPr></xdr:pic><xdr:clientData/></xdr:oneCellAnchor>',
      drawingPath,
    ).documentElement!;
    root.appendChild(doc.importNode(anchor, true));
  }
  out.set(drawingPath, serializeXml(doc));
}

/** Each chart the pictures show, drawn once, side by side (on the chart threads past the first few). */
export function drawPictures(pictures: CellPicture[]): Map<string, Promise<Buffer>> {
  const drawn = new Map<string, Promise<Buffer>>();
  const charts = new ChartPictures(CHART_WIDTH * 2);
  for (const p of pictures) {
    const key = JSON.stringify(p.chart);
    if (!drawn.has(key)) drawn.set(key, charts.draw(p.chart));
  }
  return drawn;
}
