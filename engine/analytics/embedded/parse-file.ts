import Papa from 'papaparse';
import ExcelJS from 'exceljs';
import { badInput } from '../../core/errors.js';

export type ImportFormat = 'csv' | 'xlsx' | 'json';
export type RawValue = string | number | boolean | Date | null;

export interface ParsedTable {
  headers: string[];
  rows: RawValue[][];
}

const fail = (where: string, message: string) => badInput(`${where}: ${message}`, [{ field: 'body.content', message: `${where}: ${message}` }]);

function checkHeaders(headers: string[], where: (col: number) => string) {
  const seen = new Map<string, number>();
  headers.forEach((h, i) => {
    if (!h.trim()) throw fail(where(i), 'the column has no name');
    const key = h.trim().toLowerCase();
    if (seen.has(key)) throw fail(where(i), `the column name "${h}" repeats column ${seen.get(key)! + 1}`);
    seen.set(key, i);
  });
}

/** CSV with a header line; the delimiter (comma, semicolon, tab) is detected. Errors name line and column. */
export function parseCsv(text: string): ParsedTable {
  const result = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy' });
  const quoteError = result.errors.find((e) => e.type === 'Quotes');
  if (quoteError) throw fail(`Line ${(quoteError.row ?? 0) + 1}`, 'a quoted value is not closed');
  const [header, ...rows] = result.data;
  if (!header) throw fail('Line 1', 'the file is empty');
  const headers = header.map((h) => h.trim());
  checkHeaders(headers, (c) => `Line 1, column ${c + 1}`);
  rows.forEach((r, i) => {
    if (r.length !== headers.length) {
      const col = Math.min(r.length, headers.length) + 1;
      throw fail(`Line ${i + 2}, column ${col}`, `expected ${headers.length} values, found ${r.length}`);
    }
  });
  return { headers, rows: rows.map((r) => r.map((v) => (v.trim() === '' ? null : v))) };
}

/** JSON: an array of objects; the union of their keys makes the columns. */
export function parseJson(text: string): ParsedTable {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    const pos = m ? Number(m[1]) : 0;
    const line = text.slice(0, pos).split('\n').length;
    const col = pos - text.lastIndexOf('\n', pos - 1);
    throw fail(`Line ${line}, column ${col}`, 'this is not valid JSON');
  }
  if (!Array.isArray(data)) throw fail('Line 1, column 1', 'expected an array of objects');
  const headers: string[] = [];
  data.forEach((item, i) => {
    if (!item || typeof item !== 'object' || Array.isArray(item)) throw fail(`Item ${i + 1}`, 'is not an object');
    for (const k of Object.keys(item)) if (!headers.includes(k)) headers.push(k);
  });
  if (!headers.length) throw fail('Item 1', 'there are no values to import');
  checkHeaders(headers, (c) => `Key ${c + 1}`);
  const rows = data.map((item, i) =>
    headers.map((h) => {
      const v = (item as Record<string, unknown>)[h];
      if (v === undefined || v === null || v === '') return null;
      if (typeof v === 'object') throw fail(`Item ${i + 1}, key "${h}"`, 'nested objects and arrays cannot be imported');
      return v as RawValue;
    }),
  );
  return { headers, rows };
}

/** XLSX: the first worksheet; its first row names the columns. */
export async function parseXlsx(content: Buffer): Promise<ParsedTable> {
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(content as unknown as ArrayBuffer);
  } catch {
    throw fail('File', 'this is not a readable XLSX workbook');
  }
  const ws = wb.worksheets[0];
  if (!ws || ws.rowCount === 0) throw fail('Row 1', 'the first worksheet is empty');
  const width = ws.getRow(1).cellCount;
  const cell = (v: ExcelJS.CellValue): RawValue => {
    if (v === null || v === undefined || v === '') return null;
    if (v instanceof Date || typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'object' && 'result' in v) return cell((v as ExcelJS.CellFormulaValue).result as ExcelJS.CellValue);
    if (typeof v === 'object' && 'richText' in v) return (v as ExcelJS.CellRichTextValue).richText.map((t) => t.text).join('');
    if (typeof v === 'object' && 'text' in v) return String((v as { text: unknown }).text);
    return String(v);
  };
  const headers: string[] = [];
  for (let c = 1; c <= width; c++) headers.push(String(cell(ws.getRow(1).getCell(c).value) ?? '').trim());
  checkHeaders(headers, (c) => `Row 1, column ${c + 1}`);
  const rows: RawValue[][] = [];
  for (let r = 2; r <= ws.rowCount; r++) {
    const row = ws.getRow(r);
    const values = headers.map((_, c) => cell(row.getCell(c + 1).value));
    if (values.every((v) => v === null)) continue;
    rows.push(values);
  }
  return { headers, rows };
}

export async function parseFile(format: ImportFormat, content: Buffer): Promise<ParsedTable> {
  if (format === 'xlsx') return parseXlsx(content);
  const text = content.toString('utf8');
  return format === 'json' ? parseJson(text) : parseCsv(text);
}
