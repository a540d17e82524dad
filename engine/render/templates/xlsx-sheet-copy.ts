import type { OfficePackage } from './template-package.js';
import { relationshipsOf, relsPathOf } from './office-parts.js';
import { renameSheetRefs } from './xlsx-refs.js';
import { descendants, parseXml, serializeXml, textOf, type Element } from './xml.js';

// A sheet repeated per value gets its own drawings, charts, tables and comments, as NPrinting's
// pages do: each copy's chart reads its own sheet, each table has a name of its own. Pictures,
// chart styles and printer settings are shared: nothing in them names the sheet.

type Parts = Map<string, Buffer | string>;

/** Parts a sheet owns: a copy of the sheet needs its own of each. */
const OWNED = /\/(drawing|chart|table|comments|vmlDrawing|chartUserShapes)$/;

/** The output parts seen as a package, to follow relationships in what is being written. */
const asPackage = (out: Parts): OfficePackage => ({ format: 'xlsx', parts: out as Map<string, Buffer> });

/** `xl/charts/chart1.xml` → the first of `xl/charts/chart2.xml`, `chart3.xml`, … not taken. */
function freePath(out: Parts, path: string): string {
  const m = /^(.*?)(\d*)(\.[^./]+)$/.exec(path)!;
  for (let n = Number(m[2] || 1) + 1; ; n++) if (!out.has(`${m[1]}${n}${m[3]}`)) return `${m[1]}${n}${m[3]}`;
}

const fileName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** Declares a new part's content type in the package being written. */
export function addOverride(out: Parts, path: string, contentType: string) {
  const types = String(out.get('[Content_Types].xml'));
  out.set(
    '[Content_Types].xml',
    types.replace('</Types>', `<Override PartName="/${path}" ContentType="${contentType}"/></Types>`),
  );
}

/** A copied part's content type: the original's override, for the copy's name. */
function addContentType(out: Parts, from: string, to: string) {
  const types = String(out.get('[Content_Types].xml'));
  const override = new RegExp(
    `<Override\\b[^>]*PartName="/${from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^>]*/>`,
  ).exec(types);
  const type = override && /ContentType="([^"]*)"/.exec(override[0])?.[1];
  if (type) addOverride(out, to, type); // else a Default by extension covers it
}

/** The highest table id in the workbook: a copied table takes the next. */
function highestTableId(out: Parts): number {
  let highest = 0;
  for (const [path, data] of out)
    if (/^xl\/tables\/[^/]+\.xml$/.test(path))
      highest = Math.max(highest, Number(/<table\b[^>]*\bid="(\d+)"/.exec(String(data))?.[1] ?? 0));
  return highest;
}

/** Chart series and titles read the instance's sheet: formulas naming the template's sheet are renamed. */
function renameInChart(xml: string, where: string, from: string, to: string): string {
  const doc = parseXml(xml, where);
  for (const f of descendants(doc, 'f')) {
    const text = textOf(f);
    const renamed = renameSheetRefs(text, from, to);
    if (renamed === text) continue;
    while (f.firstChild) f.removeChild(f.firstChild);
    f.appendChild(doc.createTextNode(renamed));
  }
  return serializeXml(doc);
}

/** A table copy's unique id and name (names are workbook-wide, letters, digits and _ only). */
function renameTable(xml: string, where: string, out: Parts, suffix: string): string {
  const doc = parseXml(xml, where);
  const table = doc.documentElement as Element;
  table.setAttribute('id', String(highestTableId(out) + 1));
  for (const attr of ['name', 'displayName']) {
    const name = table.getAttribute(attr);
    if (name) table.setAttribute(attr, `${name}_${suffix}`.replace(/[^\w.]/g, '_'));
  }
  return serializeXml(doc);
}

interface Instance {
  /** The template sheet's name, as its charts name it. */
  from: string;
  /** This instance's sheet name. */
  to: string;
  /** Makes table names unique per instance. */
  suffix: string;
}

/** Copies an owned part (and what it owns) for an instance; answers the copy's path. */
function copyOwned(out: Parts, path: string, instance: Instance): string {
  const copy = freePath(out, path);
  let content = out.get(path)!;
  if (/\/charts\/[^/]+\.xml$/.test(path)) content = renameInChart(String(content), path, instance.from, instance.to);
  if (/\/tables\/[^/]+\.xml$/.test(path)) content = renameTable(String(content), path, out, instance.suffix);
  out.set(copy, content);
  addContentType(out, path, copy);
  const rels = out.get(relsPathOf(path));
  if (rels !== undefined) out.set(relsPathOf(copy), ownCopies(out, path, String(rels), instance));
  return copy;
}

/** A part's relationships with each owned target replaced by a copy of its own. */
function ownCopies(out: Parts, part: string, relsXml: string, instance: Instance): string {
  const copies = new Map<string, string>();
  for (const rel of relationshipsOf(asPackage(out), part))
    if (!rel.external && OWNED.test(rel.type) && out.has(rel.path))
      copies.set(rel.id, fileName(copyOwned(out, rel.path, instance)));
  return relsXml.replace(/<Relationship\b[^>]*\/>/g, (r) => {
    const id = /\bId="([^"]*)"/.exec(r)?.[1];
    const name = id !== undefined ? copies.get(id) : undefined;
    return name ? r.replace(/Target="([^"]*?)[^"/]*"/, `Target="$1${name}"`) : r;
  });
}

/**
 * A repeated sheet's instance at `sheetPath`, whose relationships (copied from the template sheet's)
 * still lead to the template's parts: it gets copies of its own. The first instance keeps the
 * template's parts (`copy` false), renamed to read its sheet.
 */
export function ownSheetParts(out: Parts, sheetPath: string, instance: Instance, copy: boolean): void {
  const relsPath = relsPathOf(sheetPath);
  const rels = out.get(relsPath);
  if (rels === undefined) return;
  if (copy) {
    out.set(relsPath, ownCopies(out, sheetPath, String(rels), instance));
    return;
  }
  const renameCharts = (part: string) => {
    for (const rel of relationshipsOf(asPackage(out), part)) {
      if (rel.external || !OWNED.test(rel.type) || !out.has(rel.path)) continue;
      if (rel.type.endsWith('/chart'))
        out.set(rel.path, renameInChart(String(out.get(rel.path)), rel.path, instance.from, instance.to));
      else renameCharts(rel.path);
    }
  };
  renameCharts(sheetPath);
}
