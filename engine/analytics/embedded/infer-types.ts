import type { FieldType } from '../model.js';
import type { ParsedTable, RawValue } from './parse-file.js';

const INTEGER = /^-?\d{1,15}$/;
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const isDateValue = (v: RawValue) => v instanceof Date || (typeof v === 'string' && (DATE.test(v) || DATETIME.test(v)) && !Number.isNaN(Date.parse(v)));

/** The narrowest type every non-empty value of a column fits: integer, decimal, date, else text. */
export function inferColumnType(values: RawValue[]): FieldType {
  let integer = true;
  let decimal = true;
  let date = true;
  let any = false;
  for (const v of values) {
    if (v === null) continue;
    any = true;
    const s = typeof v === 'string' ? v.trim() : v;
    if (typeof s === 'number') {
      if (!Number.isInteger(s)) integer = false;
      date = false;
    } else if (typeof s === 'string') {
      if (!INTEGER.test(s)) integer = false;
      if (!DECIMAL.test(s)) decimal = false;
      if (!isDateValue(s)) date = false;
    } else if (s instanceof Date) {
      integer = decimal = false;
    } else {
      integer = decimal = date = false;
    }
    if (!integer && !decimal && !date) return 'text';
  }
  if (!any) return 'text';
  if (integer) return 'integer';
  if (decimal) return 'decimal';
  return date ? 'date' : 'text';
}

/** Dates are kept as ISO text (YYYY-MM-DD, or with time), so they sort and compare as dates in SQL. */
export function convert(v: RawValue, type: FieldType): string | number | null {
  if (v === null) return null;
  switch (type) {
    case 'integer':
    case 'decimal':
      return typeof v === 'number' ? v : Number(String(v).trim());
    case 'date': {
      const d = v instanceof Date ? v : new Date(String(v).trim().length === 10 ? `${String(v).trim()}T00:00:00Z` : String(v).trim());
      const iso = d.toISOString();
      return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
    }
    default:
      return v instanceof Date ? v.toISOString() : String(v);
  }
}

export function inferTable(table: ParsedTable): { types: FieldType[]; rows: (string | number | null)[][] } {
  const types = table.headers.map((_, c) => inferColumnType(table.rows.map((r) => r[c])));
  return { types, rows: table.rows.map((r) => r.map((v, c) => convert(v, types[c]))) };
}
