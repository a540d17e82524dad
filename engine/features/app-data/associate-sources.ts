// Several sources, one app. The embedded engine keeps an app's data as one table of fields, so an
// app's sources are associated into it by the columns they share, as an analytics platform
// associates tables by field name (a star: the facts, and tables that describe them):
// - the first source holds the facts, a row each;
// - a later source with exactly the first's columns adds its rows to them (concatenated);
// - a later source sharing some columns with those before it is a lookup: its other columns are
//   added to each row holding the same values in the shared ones (a region's manager beside each
//   sale of that region). Its shared columns must name one of its rows each, or rows would repeat.
// A source that shares no column, repeats a key, or adds nothing is refused by name, before any row
// of the facts is read. Lookups are held in memory (bounded by `LOOKUP_ROWS`); the facts stream.
import { badInput } from '../../core/errors.js';
import { cellText, type RowStream } from '../data-connections/drivers/driver.js';

/** The most rows a lookup source may hold (it is kept in memory while the facts stream past it). */
export const LOOKUP_ROWS = 500_000;

export interface NamedSource {
  name: string;
  /** Opens the source's query (its columns known, no row read yet). */
  open(): Promise<RowStream>;
}

interface Lookup {
  name: string;
  /** Where the shared columns sit in the row as built so far. */
  keyAt: number[];
  /** Where the added columns sit in the source's own row. */
  addedAt: number[];
  rows: Map<string, unknown[]>;
  misses: number;
}

/** The rows of all the sources, associated: the columns of the first, then each lookup's own. */
export interface AssociatedRows extends RowStream {
  /** After the rows are read: what a lookup did not find, in words ("12 rows found no row in regions"). */
  notes(): string[];
}

const folded = (c: string) => c.trim().toLowerCase();
const refused = (source: string, problem: string) =>
  badInput(`Source “${source}” ${problem}`, [{ field: 'sources', message: `“${source}” ${problem}` }]);

/** A row's key in the columns at `at`: null when one of them is empty (an empty key matches nothing). */
function keyOf(row: readonly unknown[], at: number[]): string | null {
  const parts: string[] = [];
  for (const i of at) {
    const v = row[i];
    if (v === null || v === undefined || v === '') return null;
    parts.push(cellText(v));
  }
  return parts.join('\u0001');
}

async function readLookup(
  name: string,
  stream: RowStream,
  columns: string[],
  signal?: AbortSignal,
): Promise<{ lookup: Lookup; added: string[] }> {
  const known = new Map(columns.map((c, i) => [folded(c), i]));
  const shared = stream.columns.filter((c) => known.has(folded(c)));
  const added = stream.columns.filter((c) => !known.has(folded(c)));
  if (!shared.length)
    throw refused(
      name,
      `shares no column with the sources before it: name one of its columns as theirs (a key such as Region) so its rows belong to theirs`,
    );
  if (!added.length) throw refused(name, `adds no column to the sources before it: every column it has is theirs`);
  const ownKeyAt = shared.map((c) => stream.columns.findIndex((s) => folded(s) === folded(c)));
  const lookup: Lookup = {
    name,
    keyAt: shared.map((c) => known.get(folded(c))!),
    addedAt: added.map((c) => stream.columns.indexOf(c)),
    rows: new Map(),
    misses: 0,
  };
  for await (const batch of stream.batches) {
    if (signal?.aborted) break;
    for (const row of batch) {
      const key = keyOf(row, ownKeyAt);
      if (key === null) continue;
      if (lookup.rows.has(key))
        throw refused(
          name,
          `holds ${shared.join(', ')} = ${key.split('\u0001').join(', ')} more than once: the columns it shares must name one of its rows each`,
        );
      lookup.rows.set(
        key,
        lookup.addedAt.map((i) => row[i]),
      );
      if (lookup.rows.size > LOOKUP_ROWS)
        throw refused(
          name,
          `has more than ${LOOKUP_ROWS.toLocaleString('en')} rows, the most a source that adds columns may hold: join it in the first source's query`,
        );
    }
  }
  return { lookup, added };
}

/**
 * Opens every source and answers their rows as one stream. Lookups are read (and their connections
 * closed) before the first row of the facts; concatenated sources wait open until their turn.
 */
export async function associateSources(sources: NamedSource[], signal?: AbortSignal): Promise<AssociatedRows> {
  const [first, ...later] = sources;
  const open: RowStream[] = [];
  const closeAll = () => Promise.all(open.splice(0).map((s) => s.close())).then(() => undefined);
  try {
    const facts = await first.open();
    open.push(facts);
    // One source: its rows as they come, nothing to associate.
    if (!later.length) return { ...facts, close: closeAll, notes: () => [] };
    const sameAsFirst = new Set(facts.columns.map(folded));
    const columns = [...facts.columns];
    const lookups: Lookup[] = [];
    const appended: { stream: RowStream; at: number[] }[] = [];
    for (const source of later) {
      const stream = await source.open();
      const names = stream.columns.map(folded);
      if (names.length === sameAsFirst.size && names.every((c) => sameAsFirst.has(c))) {
        // The first's columns, perhaps in another order: its rows join the facts, in the first's order.
        open.push(stream);
        appended.push({ stream, at: facts.columns.map((c) => names.indexOf(folded(c))) });
        continue;
      }
      try {
        const { lookup, added } = await readLookup(source.name, stream, columns, signal);
        lookups.push(lookup);
        columns.push(...added);
      } finally {
        await stream.close();
      }
    }
    const widen = (row: unknown[]) => {
      for (const l of lookups) {
        const key = keyOf(row, l.keyAt);
        const found = key === null ? undefined : l.rows.get(key);
        if (!found) l.misses++;
        row.push(...(found ?? l.addedAt.map(() => null)));
      }
      return row;
    };
    async function* batches(): AsyncGenerator<unknown[][]> {
      for await (const batch of facts.batches) yield lookups.length ? batch.map(widen) : batch;
      for (const { stream, at } of appended)
        for await (const batch of stream.batches) yield batch.map((r) => widen(at.map((i) => r[i])));
    }
    return {
      columns,
      batches: batches(),
      close: closeAll,
      notes: () =>
        lookups
          .filter((l) => l.misses > 0)
          .map(
            (l) =>
              `${l.misses.toLocaleString('en')} ${l.misses === 1 ? 'row' : 'rows'} found no row in ${l.name}: its columns are empty there.`,
          ),
    };
  } catch (e) {
    await closeAll();
    throw e;
  }
}
