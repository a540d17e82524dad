import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type Papa from 'papaparse';
import type ExcelJS from 'exceljs';
import { badInput } from './errors.js';

export type ImportFormat = 'csv' | 'xlsx' | 'json';
export type RawValue = string | number | boolean | Date | null;

/** A file's rows as they come: the header, then batches of rows with the line each starts at. */
export interface RowBatch {
  rows: RawValue[][];
  /** How the first row of the batch is named in an error: "Line 12", "Row 12", "Item 12". */
  where: (index: number) => string;
}

export const importFailure = (where: string, message: string) =>
  badInput(`${where}: ${message}`, [{ field: 'body.content', message: `${where}: ${message}` }]);

export function checkHeaders(headers: string[], where: (col: number) => string) {
  const seen = new Map<string, number>();
  headers.forEach((h, i) => {
    if (!h.trim()) throw importFailure(where(i), 'the column has no name');
    const key = h.trim().toLowerCase();
    if (seen.has(key)) throw importFailure(where(i), `the column name "${h}" repeats column ${seen.get(key)! + 1}`);
    seen.set(key, i);
  });
}

/** Reads the rows of a file one batch at a time; the header comes first through `onHeaders`. */
export function readRows(
  format: ImportFormat,
  path: string,
  onHeaders: (headers: string[]) => void,
): AsyncGenerator<RowBatch> {
  if (format === 'xlsx') return xlsxRows(path, onHeaders);
  if (format === 'json') return jsonRows(path, onHeaders);
  return csvRows(path, onHeaders);
}

type Chunk = { data: string[][]; errors: Papa.ParseError[] } | Error | null;

/** The file's text a megabyte at a time, a leading byte-order mark left out. */
async function* textOf(path: string): AsyncGenerator<string> {
  let first = true;
  for await (const piece of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    yield first ? (piece as string).replace(/^\uFEFF/, '') : (piece as string);
    first = false;
  }
}

/**
 * CSV, read and parsed a megabyte at a time (the parser pauses while a batch is written): memory
 * stays bounded whatever the file's size. The delimiter is detected.
 */
async function* csvRows(path: string, onHeaders: (headers: string[]) => void): AsyncGenerator<RowBatch> {
  let parser: Papa.Parser | null = null;
  let deliver: (c: Chunk) => void = () => undefined;
  let next = new Promise<Chunk>((r) => (deliver = r));
  const source = Readable.from(textOf(path));
  // Loaded with the first CSV read, not at start (tests/http/start-modules.test.ts).
  const { default: Papa } = await import('papaparse');
  Papa.parse<string[], Papa.LocalFile>(source, {
    // Empty lines are skipped by Papa; lines of blanks only ("greedy") below, where a row is
    // looked at once anyway (Papa's greedy test joins and trims every row: a sixtieth of an import).
    skipEmptyLines: true,
    chunk: (res: Papa.ParseResult<string[]>, p: Papa.Parser) => {
      // The parser's pause stops parsing, not reading: Papa keeps queueing what the file streams.
      // The file is paused too, or a large one would sit whole in memory while batches are written.
      source.pause();
      p.pause();
      parser = p;
      deliver({ data: res.data, errors: res.errors });
    },
    complete: () => deliver(null),
    // The file could not be read (gone, unreadable): said as the reading's failure.
    error: (e: Error) => deliver(e),
  });
  try {
    let line = 1;
    let width = -1;
    for (;;) {
      const chunk = await next;
      next = new Promise<Chunk>((r) => (deliver = r));
      if (!chunk) break;
      if (chunk instanceof Error) throw chunk;
      const quote = chunk.errors.find((e) => e.type === 'Quotes');
      if (quote) throw importFailure(`Line ${line + (quote.row ?? 0)}`, 'a quoted value is not closed');
      let rows = chunk.data;
      if (width < 0 && rows.length) {
        const headers = rows[0].map((h) => h.trim());
        checkHeaders(headers, (c) => `Line 1, column ${c + 1}`);
        onHeaders(headers);
        width = headers.length;
        rows = rows.slice(1);
        line = 2;
      }
      // Blank values become null in place, and a row of blanks only is left out (the rows are
      // Papa's own, made for this batch: no copy of each row for the collector to sweep).
      let kept = 0;
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i] as (string | null)[];
        let blank = true;
        for (let c = 0; c < r.length; c++)
          if (r[c]!.trim() === '') r[c] = null;
          else blank = false;
        if (blank) continue;
        if (r.length !== width)
          throw importFailure(
            `Line ${line + kept}, column ${Math.min(r.length, width) + 1}`,
            `expected ${width} values, found ${r.length}`,
          );
        rows[kept++] = r as string[];
      }
      rows.length = kept;
      const first = line;
      yield { rows: rows as RawValue[][], where: (i) => `Line ${first + i}` };
      line += rows.length;
      (parser as Papa.Parser | null)?.resume();
      source.resume();
    }
    if (width < 0) throw importFailure('Line 1', 'the file is empty');
  } finally {
    // Left early (a bad line, a limit, a reader that stops): the paused file is closed, not left open.
    source.destroy();
  }
}

/** JSON: an array of objects; the union of their keys makes the columns. */
async function* jsonRows(path: string, onHeaders: (headers: string[]) => void): AsyncGenerator<RowBatch> {
  const text = await readFile(path, 'utf8');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    const pos = m ? Number(m[1]) : 0;
    const line = text.slice(0, pos).split('\n').length;
    const col = pos - text.lastIndexOf('\n', pos - 1);
    throw importFailure(`Line ${line}, column ${col}`, 'this is not valid JSON');
  }
  if (!Array.isArray(data)) throw importFailure('Line 1, column 1', 'expected an array of objects');
  const headers: string[] = [];
  const known = new Set<string>();
  data.forEach((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item))
      throw importFailure(`Item ${i + 1}`, 'is not an object');
    for (const k of Object.keys(item)) {
      if (known.has(k)) continue;
      known.add(k);
      headers.push(k);
    }
  });
  if (!headers.length) throw importFailure('Item 1', 'there are no values to import');
  checkHeaders(headers, (c) => `Key ${c + 1}`);
  onHeaders(headers);
  for (let start = 0; start < data.length; start += 5000) {
    const rows = data.slice(start, start + 5000).map((item, j) =>
      headers.map((h) => {
        const v = (item as Record<string, unknown>)[h];
        if (v === undefined || v === null || v === '') return null;
        if (typeof v === 'object')
          throw importFailure(`Item ${start + j + 1}, key "${h}"`, 'nested objects and arrays cannot be imported');
        return v as RawValue;
      }),
    );
    yield { rows, where: (i) => `Item ${start + i + 1}` };
  }
}

function cellValue(v: ExcelJS.CellValue): RawValue {
  if (v === null || v === undefined || v === '') return null;
  if (v instanceof Date || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (typeof v === 'object' && 'result' in v)
    return cellValue((v as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
  if (typeof v === 'object' && 'richText' in v)
    return (v as ExcelJS.CellRichTextValue).richText.map((t) => t.text).join('');
  if (typeof v === 'object' && 'text' in v) return String((v as { text: unknown }).text);
  if (typeof v === 'object' && 'error' in v) return null;
  return String(v);
}

/** XLSX: the first worksheet, read as a stream (rows are never all in memory); its first row names the columns. */
async function* xlsxRows(path: string, onHeaders: (headers: string[]) => void): AsyncGenerator<RowBatch> {
  // Loaded with the first workbook read: exceljs alone was 0.4 s of every start.
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  let width = -1;
  let batch: RawValue[][] = [];
  let batchStart = 2;
  let first = true;
  try {
    for await (const sheet of reader) {
      // Only the first worksheet is read; the others are passed over to the end, as the reader then
      // removes the temporary files it wrote for them (a stop half-way would leave them behind).
      if (!first) {
        for await (const _row of sheet as AsyncIterable<ExcelJS.Row>);
        continue;
      }
      first = false;
      for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
        if (width < 0) {
          const headers: string[] = [];
          for (let c = 1; c <= row.cellCount; c++) headers.push(String(cellValue(row.getCell(c).value) ?? '').trim());
          while (headers.length && !headers.at(-1)) headers.pop();
          if (!headers.length) throw importFailure('Row 1', 'the first worksheet has no column names');
          checkHeaders(headers, (c) => `Row 1, column ${c + 1}`);
          onHeaders(headers);
          width = headers.length;
          batchStart = row.number + 1;
          continue;
        }
        const values: RawValue[] = [];
        for (let c = 1; c <= width; c++) values.push(cellValue(row.getCell(c).value));
        if (values.every((v) => v === null)) continue;
        if (!batch.length) batchStart = row.number;
        batch.push(values);
        if (batch.length >= 5000) {
          const first = batchStart;
          yield { rows: batch, where: (i) => `Row ${first + i}` };
          batch = [];
        }
      }
    }
  } catch (e) {
    if ((e as { status?: number }).status === 400) throw e;
    throw importFailure('File', 'this is not a readable XLSX workbook');
  }
  if (width < 0) throw importFailure('Row 1', 'the first worksheet is empty');
  if (batch.length) {
    const first = batchStart;
    yield { rows: batch, where: (i) => `Row ${first + i}` };
  }
}
