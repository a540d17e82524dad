import type { FieldType } from '../model.js';
import type { SqliteFile } from './sqlite-file.js';

/**
 * How many number columns each dimension's index carries. A chart over all the data groups by one
 * dimension and sums numbers: when the dimension's index holds those numbers too, SQLite walks the
 * index alone, in order, with no sort and no row fetched (a top-50 over 2,000,000 rows: 0.7 s by a
 * scan and sort, about 0.13 s by the index). Beyond this many the indexes would outgrow the data.
 */
export const COVERED_NUMBERS = 8;

const isDimension = (t: FieldType) => t === 'text' || t === 'date';
const isNumber = (t: FieldType) => t === 'integer' || t === 'decimal';

/**
 * The indexes of a new data table: one per dimension (text and date columns, what selections and
 * iterations filter on), each followed by the first number columns so a grouping by it is covered.
 */
export function dimensionIndexStatements(types: FieldType[]): string[] {
  const numbers = types
    .map((t, i) => (isNumber(t) ? `c${i}` : null))
    .filter((c): c is string => c !== null)
    .slice(0, COVERED_NUMBERS);
  return types.flatMap((t, i) =>
    isDimension(t) ? [`CREATE INDEX idx_c${i} ON data (${[`c${i}`, ...numbers].join(', ')})`] : [],
  );
}

/** Each indexed column's index, as the columns it holds; read from the file, which may predate covering. */
export type IndexCoverage = Map<number, Set<number>>;

export async function readIndexCoverage(db: SqliteFile): Promise<IndexCoverage> {
  const rows = await db.all<{ index: string; seqno: number; col: string }>(
    `SELECT il.name AS "index", ii.seqno AS seqno, ii.name AS col
       FROM pragma_index_list('data') il JOIN pragma_index_info(il.name) ii ORDER BY il.name, ii.seqno`,
  );
  const byIndex = new Map<string, number[]>();
  for (const r of rows) {
    const cols = byIndex.get(r.index) ?? [];
    cols.push(Number(r.col.slice(1)));
    byIndex.set(r.index, cols);
  }
  const coverage: IndexCoverage = new Map();
  for (const cols of byIndex.values()) {
    const held = coverage.get(cols[0]);
    if (!held || held.size < cols.length) coverage.set(cols[0], new Set(cols));
  }
  return coverage;
}

/** Whether grouping by `dimension` reads only columns its index holds. */
export function groupingIsCovered(coverage: IndexCoverage, dimension: number, used: Iterable<number>): boolean {
  const held = coverage.get(dimension);
  if (!held) return false;
  for (const c of used) if (!held.has(c)) return false;
  return true;
}
