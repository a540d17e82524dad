import { readdir, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { EngineError } from '../../../core/errors.js';
import { readRows, type ImportFormat, type RowBatch } from '../../../core/tabular-rows.js';
import { SourceProblem, type OpenConnection, type RowStream, type SourceDriver } from './driver.js';

// A folder as a source: the CSV, XLSX and JSON files in it whose names match the source's pattern
// ("sales-*.csv"), read in name order as one table (each file with the same columns). The pattern
// names files of that folder only: no path, so nothing outside it is ever read.

const FORMATS: Record<string, ImportFormat> = { '.csv': 'csv', '.xlsx': 'xlsx', '.json': 'json' };

/** A name pattern as a whole-name test: `*` any characters, `?` one; letters' case ignored. */
export function namePattern(pattern: string): RegExp {
  const p = pattern.trim();
  if (!p) throw new SourceProblem('the name pattern is empty: such as sales-*.csv', 'query');
  if (/[\\/]|^\.\.?$|\0/.test(p))
    throw new SourceProblem(
      'the name pattern names files of the folder only, without a path: such as sales-*.csv',
      'query',
    );
  const body = p
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i');
}

async function folderOf(c: OpenConnection): Promise<string> {
  const folder = c.filePath ?? '';
  const s = await stat(folder).catch(() => null);
  if (!s?.isDirectory()) throw new SourceProblem(`there is no folder at ${folder}: check the path`, 'filePath');
  return folder;
}

/** The files of the folder a source reads: readable formats, names matching, in name order. */
async function filesOf(folder: string, pattern: string): Promise<string[]> {
  const test = namePattern(pattern);
  const entries = await readdir(folder, { withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && FORMATS[extname(e.name).toLowerCase()] && test.test(e.name))
    .map((e) => e.name)
    .sort((a, b) => a.localeCompare(b, 'en'));
}

export const folderDriver: SourceDriver = {
  async test(c) {
    const folder = await folderOf(c);
    const n = (await readdir(folder, { withFileTypes: true })).filter(
      (e) => e.isFile() && FORMATS[extname(e.name).toLowerCase()],
    ).length;
    return `a folder of ${n} CSV, XLSX or JSON file${n === 1 ? '' : 's'}`;
  },

  async open(c, pattern, o): Promise<RowStream> {
    const folder = await folderOf(c);
    const names = await filesOf(folder, pattern);
    if (!names.length)
      throw new SourceProblem(`no CSV, XLSX or JSON file in ${folder} matches “${pattern.trim()}”`, 'query');
    // Each file's rows after its header; the first file's header names the columns. A file that
    // cannot be read as a table is named with where in it ("sales-03.csv, line 12: ...").
    const open = (name: string) => {
      let headers: string[] = [];
      const rows = readRows(FORMATS[extname(name).toLowerCase()], join(folder, name), (h) => (headers = h));
      const named = async function* (): AsyncGenerator<RowBatch> {
        try {
          yield* rows;
        } catch (e) {
          if (e instanceof EngineError)
            throw new SourceProblem(`${name}, ${e.message.replace(/^\w/, (x) => x.toLowerCase())}`, 'query');
          throw e;
        }
      };
      return { rows: named(), headers: () => headers };
    };
    const first = open(names[0]);
    const head = await first.rows.next();
    const columns = first.headers();
    const same = (h: string[]) =>
      h.length === columns.length && h.every((x, i) => x.toLowerCase() === columns[i].toLowerCase());
    async function* batches(): AsyncGenerator<unknown[][]> {
      const pending: unknown[][] = [];
      const take = function* (b: RowBatch) {
        for (const r of b.rows) {
          pending.push(r);
          if (pending.length >= o.batch) yield pending.splice(0);
        }
      };
      if (!head.done) yield* take(head.value);
      for await (const b of first.rows) {
        if (o.signal?.aborted) throw new Error('cancelled');
        yield* take(b);
      }
      for (const name of names.slice(1)) {
        const next = open(name);
        for await (const b of next.rows) {
          if (!same(next.headers()))
            throw new SourceProblem(
              `${name} has the columns ${next.headers().join(', ')}, not those of ${names[0]} (${columns.join(', ')})`,
              'query',
            );
          if (o.signal?.aborted) throw new Error('cancelled');
          yield* take(b);
        }
      }
      if (pending.length) yield pending.splice(0);
    }
    return { columns, batches: batches(), close: async () => undefined };
  },
};
