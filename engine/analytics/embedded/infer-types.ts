import type { FieldType } from '../model.js';
import type { RawValue } from '../../core/tabular-rows.js';

const INTEGER = /^-?\d{1,15}$/;
const DECIMAL = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const isDateValue = (v: RawValue) =>
  v instanceof Date || (typeof v === 'string' && (DATE.test(v) || DATETIME.test(v)) && !Number.isNaN(Date.parse(v)));

/**
 * The narrowest type every non-empty value of a column fits: integer, decimal, date, else text.
 * Fed one value at a time, so a streamed import infers types without holding its rows.
 */
export class TypeGuess {
  private integer = true;
  private decimal = true;
  private date = true;
  private any = false;

  add(v: RawValue): void {
    if (v === null || (!this.integer && !this.decimal && !this.date)) return;
    this.any = true;
    const s = typeof v === 'string' ? v.trim() : v;
    if (typeof s === 'number') {
      if (!Number.isInteger(s)) this.integer = false;
      this.date = false;
    } else if (typeof s === 'string') {
      if (this.integer && !INTEGER.test(s)) this.integer = false;
      if (this.decimal && !DECIMAL.test(s)) this.decimal = false;
      if (this.date && !isDateValue(s)) this.date = false;
    } else if (s instanceof Date) {
      this.integer = this.decimal = false;
    } else {
      this.integer = this.decimal = this.date = false;
    }
  }

  get type(): FieldType {
    if (!this.any) return 'text';
    if (this.integer) return 'integer';
    if (this.decimal) return 'decimal';
    return this.date ? 'date' : 'text';
  }
}

export function inferColumnType(values: RawValue[]): FieldType {
  const guess = new TypeGuess();
  for (const v of values) guess.add(v);
  return guess.type;
}

/** Dates are kept as ISO text (YYYY-MM-DD, or with time), so they sort and compare as dates in SQL. */
export function convert(v: RawValue, type: FieldType): string | number | null {
  if (v === null) return null;
  switch (type) {
    case 'integer':
    case 'decimal':
      return typeof v === 'number' ? v : Number(String(v).trim());
    case 'date': {
      const d =
        v instanceof Date
          ? v
          : new Date(String(v).trim().length === 10 ? `${String(v).trim()}T00:00:00Z` : String(v).trim());
      const iso = d.toISOString();
      return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
    }
    default:
      return v instanceof Date ? v.toISOString() : String(v);
  }
}
