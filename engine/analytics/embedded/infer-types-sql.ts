import type { FieldType } from '../model.js';
import type { ColumnarFile } from './columnar-file.js';

// TypeGuess's rules (infer-types.ts) as SQL over staged text, so a column's type is found where its
// values are, without bringing two million rows into JavaScript. The patterns are TypeGuess's own.
const INTEGER = String.raw`-?\d{1,15}`;
const DECIMAL = String.raw`-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?`;
export const PLAIN_DATE = String.raw`\d{4}-\d{2}-\d{2}`;
const DATETIME = String.raw`\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?`;
/** The rows a first look reads: a column that fails a type there fails it everywhere, and is not read again for it. */
const SAMPLE = 10_000;

const TESTS: Record<Exclude<FieldType, 'text'>, (v: string) => string> = {
  integer: (v) => `regexp_full_match(${v}, '${INTEGER}')`,
  decimal: (v) => `regexp_full_match(${v}, '${DECIMAL}')`,
  // A date is written as one and is a real day (Date.parse's test): TRY_CAST without the offset.
  date: (v) =>
    `((regexp_full_match(${v}, '${PLAIN_DATE}') OR regexp_full_match(${v}, '${DATETIME}'))` +
    ` AND TRY_CAST(regexp_replace(${v}, '(Z|[+-]\\d{2}:?\\d{2})$', '') AS TIMESTAMP) IS NOT NULL)`,
};
const ORDER: Exclude<FieldType, 'text'>[] = ['integer', 'decimal', 'date'];

/**
 * The narrowest type every non-empty staged value of each column fits (integer, decimal, date, else
 * text), as TypeGuess decides it. The first rows are looked at first; only the types a column still
 * fits there are checked over all its rows.
 */
export async function inferColumnTypes(
  db: ColumnarFile,
  stage: string,
  width: number,
  /** Only these columns are looked at (the text columns of a typed read); the others answer text. */
  only?: number[],
): Promise<FieldType[]> {
  const cols = Array.from({ length: width }, (_, i) => `c${i}`).filter((_, i) => !only || only.includes(i));
  if (!cols.length) return Array.from({ length: width }, () => 'text');
  const fits = (from: string, candidates: Exclude<FieldType, 'text'>[][]) => {
    const checks = cols.flatMap((c, i) => [
      `COUNT(${c}) AS ${c}_any`,
      ...candidates[i].map((t) => `bool_and(${c} IS NULL OR ${TESTS[t](`trim(${c})`)}) AS ${c}_${t}`),
    ]);
    return db.all<Record<string, number | null>>(`SELECT ${checks.join(', ')} FROM ${from}`);
  };
  let candidates = cols.map(() => [...ORDER]);
  const [first] = await fits(`(SELECT * FROM ${stage} LIMIT ${SAMPLE})`, candidates);
  candidates = cols.map((c) => ORDER.filter((t) => first[`${c}_${t}`] !== 0));
  const [all] = await fits(stage, candidates);
  const found = new Map<string, FieldType>(
    cols.map((c, i) => [c, all[`${c}_any`] ? (candidates[i].find((t) => all[`${c}_${t}`] !== 0) ?? 'text') : 'text']),
  );
  return Array.from({ length: width }, (_, i) => found.get(`c${i}`) ?? 'text');
}
