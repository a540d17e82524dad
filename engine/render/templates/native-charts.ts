import JSZip from 'jszip';
import { modify } from 'pptx-automizer';
import type { ChartValue } from './template-data.js';
import { descendants, escapeXml, parseXml, serializeXml, xmlSafe } from './xml.js';

// A native Office chart fed with an app chart's data, in PowerPoint and Word alike: categories,
// series, the cache the application draws from, and the embedded workbook it edits the data in.
// pptx-automizer's `setChartData` does the work on the chart's XML and the workbook's sheet, table
// and shared strings; PowerPoint's charts go through automizer's own pipeline, Word's through
// `ChartFeeder`.

export const CHART_NS = 'http://schemas.openxmlformats.org/drawingml/2006/chart';

/** An app chart's data as pptx-automizer writes it into a native chart: a category per label. */
export function chartData(chart: ChartValue) {
  return {
    series: chart.series.map((s) => ({ label: s.name })),
    categories: chart.categories.map((label, i) => ({ label, values: chart.series.map((s) => s.values[i] ?? 0) })),
  };
}

const SHEET = 'xl/worksheets/sheet1.xml';
const STRINGS = 'xl/sharedStrings.xml';
const TABLE = 'xl/tables/table1.xml';
// A chart without an embedded workbook still takes the data in its cache: the writer is given an
// empty sheet to write into, which is then let go.
const EMPTY_SHEET =
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>';
const EMPTY_STRINGS =
  '<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>';

/**
 * A chart part's XML with an app chart's data, and its embedded workbook (null when it has none, or
 * when the workbook is not one the writer knows: its first sheet and shared strings) holding the
 * same figures.
 */
export async function feedChartPart(
  chartXml: string,
  workbook: Buffer | null,
  chart: ChartValue,
  where: string,
): Promise<{ xml: string; workbook: Buffer | null }> {
  const doc = parseXml(chartXml, where);
  const book = workbook ? await JSZip.loadAsync(workbook).catch(() => null) : null;
  const usable = !!book?.file(SHEET) && !!book.file(STRINGS);
  const read = async (path: string, fallback: string) =>
    parseXml(usable ? await book!.file(path)!.async('string') : fallback, `${where} workbook ${path}`);
  const sheet = await read(SHEET, EMPTY_SHEET);
  const sharedStrings = await read(STRINGS, EMPTY_STRINGS);
  const table =
    usable && book!.file(TABLE) ? parseXml(await book!.file(TABLE)!.async('string'), `${where} ${TABLE}`) : undefined;
  modify.setChartData(chartData(chart))(null as never, doc as never, {
    archive: null as never,
    sheet: sheet as never,
    sharedStrings: sharedStrings as never,
    table: table as never,
  });
  if (!usable) {
    // A workbook the writer cannot update would put the template's figures back on "Edit data".
    for (const ext of descendants(doc, 'externalData')) ext.parentNode!.removeChild(ext);
    return { xml: serializeXml(doc), workbook: null };
  }
  book!.file(SHEET, serializeXml(sheet));
  book!.file(STRINGS, serializeXml(sharedStrings));
  if (table) book!.file(TABLE, serializeXml(table));
  return {
    xml: serializeXml(doc),
    workbook: await book!.generateAsync({
      type: 'nodebuffer',
      compression: 'DEFLATE',
      compressionOptions: { level: 1 },
    }),
  };
}

// Marks that stand in for an app chart's labels and figures while a chart of its shape is fed once.
const MARK = /BSCAT(\d+)X|BSSER(\d+)X|4242420(\d{6})/g;
const FIRST_MARK_FIGURE = 4_242_420_000_000;

/** A chart of `categories` × `series` whose every label and figure is a mark to replace. */
function markedChart(categories: number, series: number): ChartValue {
  return {
    type: 'chart',
    title: '',
    chartType: 'bar',
    categories: Array.from({ length: categories }, (_, c) => `BSCAT${c}X`),
    series: Array.from({ length: series }, (_, s) => ({
      name: `BSSER${s}X`,
      values: Array.from({ length: categories }, (_, c) => FIRST_MARK_FIGURE + s * categories + c),
    })),
  };
}

/**
 * Feeds one template chart with many app charts (a level's chart per value). automizer takes some
 * 15 ms a chart, most of it walking the DOM; a 200-level book would spend seconds there. So each
 * shape (categories × series) is fed once with marks, and each chart of that shape is the marked
 * XML and workbook with the marks replaced by its labels and figures.
 */
export class ChartFeeder {
  private readonly shapes = new Map<string, Promise<{ xml: string; workbook: Map<string, Buffer | string> | null }>>();

  constructor(
    private readonly chartXml: string,
    private readonly workbook: Buffer | null,
    private readonly where: string,
  ) {}

  /** The chart part's XML and its workbook (null when it has none the writer knows) for one app chart. */
  async feed(chart: ChartValue): Promise<{ xml: string; workbook: Buffer | null }> {
    const width = chart.categories.length;
    const key = `${width}x${chart.series.length}`;
    let shape = this.shapes.get(key);
    if (!shape) this.shapes.set(key, (shape = this.markedShape(width, chart.series.length)));
    const { xml, workbook } = await shape;
    const fill = (text: string, escape: (s: string) => string) =>
      text.replace(MARK, (_m, cat?: string, ser?: string, figure?: string) => {
        if (cat !== undefined) return escape(chart.categories[Number(cat)] ?? '');
        if (ser !== undefined) return escape(chart.series[Number(ser)]?.name ?? '');
        const k = Number(figure);
        const value = chart.series[Math.floor(k / width)]?.values[k % width];
        return String(Number.isFinite(value) ? value : 0);
      });
    const esc = (text: string) => escapeXml(xmlSafe(text));
    if (!workbook) return { xml: fill(xml, esc), workbook: null };
    const book = new JSZip();
    for (const [path, content] of workbook) book.file(path, typeof content === 'string' ? fill(content, esc) : content);
    return {
      xml: fill(xml, esc),
      // Stored: the Word file around it is compressed, workbook included.
      workbook: await book.generateAsync({ type: 'nodebuffer', compression: 'STORE' }),
    };
  }

  private async markedShape(categories: number, series: number) {
    const fed = await feedChartPart(this.chartXml, this.workbook, markedChart(categories, series), this.where);
    if (!fed.workbook) return { xml: fed.xml, workbook: null };
    const book = await JSZip.loadAsync(fed.workbook);
    const files = new Map<string, Buffer | string>();
    for (const [path, file] of Object.entries(book.files)) {
      if (file.dir) continue;
      files.set(path, /\.(xml|rels)$/.test(path) ? await file.async('string') : await file.async('nodebuffer'));
    }
    return { xml: fed.xml, workbook: files };
  }
}
