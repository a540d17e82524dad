import { open } from 'node:fs/promises';
import { availableParallelism, totalmem } from 'node:os';
import type {
  DuckDBAppender,
  DuckDBConnection,
  DuckDBDateValue,
  DuckDBInstance,
  DuckDBValue,
  DuckDBValueConverter,
} from '@duckdb/node-api';
import { EngineError, MISSING_MODULE } from '../../core/errors.js';
import type { FieldType } from '../model.js';

/**
 * What DuckDB may use on a desktop: at most four threads, and a quarter of the memory up to 2 GiB
 * (its buffer pool spills to disk past it). Set once for every app, since one reader instance
 * holds them all.
 */
export const COLUMNAR_SETTINGS = {
  threads: String(Math.max(1, Math.min(4, availableParallelism()))),
  memory_limit: `${Math.max(256, Math.min(2048, Math.floor(totalmem() / 4 / 2 ** 20)))}MB`,
  // SQLite's order, which the expression suites were written against: nulls first going up, last going down.
  default_null_order: 'nulls_first_on_asc_last_on_desc',
};

/** What one import's DuckDB may hold in memory (it spills to the data folder's disk past it; see DECISIONS). */
const BUILD_MEMORY = '128MB';

type Row = Record<string, string | number | null>;

/**
 * Loaded with the first app read, not at start: the engine starts without the columnar store. Its
 * binary is a package per platform that npm installs prebuilt; where it was left out (`npm ci
 * --omit=optional`), every read and import says so instead of failing on a module path.
 */
const duckdb = () =>
  import('@duckdb/node-api').then(
    (m) => {
      plainValues ??= plainConverter(m);
      return m;
    },
    (e: unknown) => {
      throw new EngineError(
        501,
        `App data needs DuckDB's binary for this platform (@duckdb/node-bindings-${process.platform}-${process.arch}), ${MISSING_MODULE}: run \`npm ci\` without --omit=optional (${(e as Error).message.split('\n')[0]})`,
      );
    },
  );

/** DuckDB loaded ahead of its first use (a spare import thread loads it while the upload arrives). */
export async function loadColumnarStore(): Promise<void> {
  await duckdb();
}

/**
 * A value as the rest of the engine takes it: DuckDB's 64- and 128-bit integers (every SUM and COUNT)
 * as numbers, and its booleans (a comparison) as 1 and 0, as SQLite answered them.
 */
function plain(v: unknown): string | number | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  // A date column read typed holds DATE values: given back as the ISO text every date is.
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'number' || typeof v === 'string') return v;
  return String(v);
}

type Plain = string | number;
let plainValues: DuckDBValueConverter<Plain> | null = null;

/**
 * Values read straight into what `plain` makes of them, without the JS objects between: a chart by
 * day answers a thousand rows, and each DATE made a JS Date and then its text cost more than the query's
 * own work on the main thread. A day's text is kept once made (an app has a few thousand days).
 */
function plainConverter(m: typeof import('@duckdb/node-api')): DuckDBValueConverter<Plain> {
  const T = m.DuckDBTypeId;
  const days = new Map<number, string>();
  return (value, type) => {
    if (value === null || value === undefined) return null;
    switch (type.typeId) {
      case T.VARCHAR:
        return value as string;
      case T.DOUBLE:
      case T.BIGINT:
      case T.INTEGER:
      case T.HUGEINT:
        return Number(value);
      case T.BOOLEAN:
        return value ? 1 : 0;
      case T.DATE: {
        const key = (value as DuckDBDateValue).days;
        let text = days.get(key);
        if (text === undefined) {
          text = String(value);
          if (days.size < 100_000) days.set(key, text);
        }
        return text;
      }
      default:
        return plain(m.JSDuckDBValueConverter(value, type, m.JSDuckDBValueConverter));
    }
  };
}

/**
 * Values to bind, or none: a statement with values is extracted, prepared, bound and run (three
 * trips to DuckDB's threads), one without is run in one, which a whole-data chart felt (0.5–2 ms).
 */
const bound = (params: unknown[]) => (params.length ? (params as DuckDBValue[]) : undefined);

/** One reader for every app: one thread pool and one memory limit, each data file attached read-only. */
let readers: Promise<DuckDBInstance> | null = null;
let attached = 0;

function readerInstance(): Promise<DuckDBInstance> {
  readers ??= duckdb().then(({ DuckDBInstance }) => DuckDBInstance.create(':memory:', COLUMNAR_SETTINGS));
  return readers;
}

/** The reader made ready before it is needed (see `warm` on the admin port). */
export async function warmReader(): Promise<void> {
  await readerInstance();
}

/** A file name as a SQL string literal: paths are the engine's own, but a quote in a folder name stays text. */
export const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * An app's data in a DuckDB file: columnar, compressed, read by every core. A file is written once,
 * by an import (`build`), and then only read (`read`), attached read-only to the one reader: several
 * servers sharing the folder can read it at once, and a new import writes a new file beside it.
 */
export class ColumnarFile {
  private readonly idle: DuckDBConnection[] = [];
  private busy = 0;
  private drained: (() => void) | null = null;
  private closed = false;

  private constructor(
    private readonly instance: DuckDBInstance,
    /** The data table as statements name it: `data`, or `"f12".data` in the reader. */
    readonly table: string,
    private readonly catalog: string | null,
    /** The columns held as DATE (a CSV read typed); every other date is held as its ISO text. */
    readonly dates: ReadonlySet<string> = new Set(),
  ) {}

  /** Opens a finished data file to read: attached read-only, so nothing this process does can change it. */
  static async read(path: string): Promise<ColumnarFile> {
    const instance = await readerInstance();
    const catalog = `f${++attached}`;
    const connection = await instance.connect();
    let dates: Set<string>;
    try {
      await connection.run(`ATTACH ${literal(path)} AS ${catalog} (READ_ONLY)`);
      const described = (await connection.runAndReadAll(`DESCRIBE ${catalog}.data`)).getRowObjectsJS();
      dates = new Set(described.filter((d) => d.column_type === 'DATE').map((d) => String(d.column_name)));
    } finally {
      connection.closeSync();
    }
    return new ColumnarFile(instance, `${catalog}.data`, catalog, dates);
  }

  /**
   * A new data file to write (an import's, in its worker): an instance of its own, with the desktop's
   * threads and a buffer of its own of BUILD_MEMORY (an import streams its file; more did not make it faster).
   */
  static async build(path: string): Promise<ColumnarFile> {
    const { DuckDBInstance } = await duckdb();
    const instance = await DuckDBInstance.create(path, {
      ...COLUMNAR_SETTINGS,
      memory_limit: BUILD_MEMORY,
      preserve_insertion_order: 'true',
    });
    return new ColumnarFile(instance, 'data', null);
  }

  /** Rows of a query, every value bound (never spliced into the text), values made plain. */
  async all<T = Row>(sql: string, params: unknown[] = []): Promise<T[]> {
    const reader = await this.using((c) => c.runAndReadAll(sql, bound(params)));
    const names = reader.columnNames();
    return reader.convertRows(plainValues!).map((row) => {
      const out: Row = {};
      for (let i = 0; i < names.length; i++) out[names[i]] = row[i];
      return out as T;
    });
  }

  async run(sql: string, params: unknown[] = []): Promise<void> {
    await this.using((c) => c.run(sql, bound(params)));
  }

  /** The app's one table, a column per field: integers as BIGINT, decimals as DOUBLE, the rest (dates too) as text. */
  async createDataTable(types: FieldType[]) {
    const column = (t: FieldType) => (t === 'integer' ? 'BIGINT' : t === 'decimal' ? 'DOUBLE' : 'VARCHAR');
    await this.run(`CREATE TABLE data (${types.map((t, i) => `c${i} ${column(t)}`).join(', ')})`);
  }

  /** Appends rows to a table through DuckDB's appender: text cells (a stage), or cells of the fields' `types`. */
  async append(table: string, rows: (string | number | null)[][], kinds?: FieldType[]) {
    await this.using(async (c) => {
      const appender: DuckDBAppender = await c.createAppender(table);
      try {
        for (const row of rows) {
          for (let i = 0; i < row.length; i++) {
            const v = row[i];
            if (v === null || v === undefined) appender.appendNull();
            else if (kinds?.[i] === 'integer') appender.appendBigInt(BigInt(Math.trunc(Number(v))));
            else if (kinds?.[i] === 'decimal') appender.appendDouble(Number(v));
            else appender.appendVarchar(String(v));
          }
          appender.endRow();
        }
        appender.flushSync();
      } finally {
        appender.closeSync();
      }
    });
  }

  /** A connection of this file's own for the call: DuckDB runs one statement a connection at a time. */
  private async using<T>(work: (c: DuckDBConnection) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('The app data file was closed');
    this.busy += 1;
    const connection = this.idle.pop() ?? (await this.instance.connect());
    try {
      return await work(connection);
    } finally {
      this.idle.push(connection);
      this.busy -= 1;
      if (!this.busy) this.drained?.();
    }
  }

  /**
   * Closes the file once the statements on it have finished (a swap waits for the readers of the
   * data before it): a reader's file is detached, a built file checkpointed so it is whole on disk.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.busy) await new Promise<void>((resolve) => (this.drained = resolve));
    this.closed = true;
    if (this.catalog) {
      const connection = this.idle.pop() ?? (await this.instance.connect());
      try {
        await connection.run(`DETACH ${this.catalog}`);
      } finally {
        connection.closeSync();
      }
    } else {
      const connection = this.idle.pop() ?? (await this.instance.connect());
      await connection.run('CHECKPOINT');
      connection.closeSync();
    }
    for (const c of this.idle.splice(0)) c.closeSync();
    if (!this.catalog) this.instance.closeSync();
  }
}

/** A finished data file made durable before it is swapped in: a kill -9 after the swap finds it whole. */
export async function syncFile(path: string) {
  const fd = await open(path, 'r+').catch(() => null);
  await fd?.sync();
  await fd?.close();
}

/**
 * Why an app's data file cannot be read, or null when it opens and every row reads (a restore's
 * check): its every column is aggregated, so DuckDB reads each block and checks its checksum.
 */
export async function unreadableDataFile(path: string): Promise<string | null> {
  let file: ColumnarFile | null = null;
  try {
    file = await ColumnarFile.read(path);
    const [columns] = await file.all<{ sql: string }>(
      `SELECT string_agg('COUNT(' || column_name || ')', ', ') AS sql FROM (DESCRIBE ${file.table})`,
    );
    await file.all(`SELECT ${columns.sql ?? 'COUNT(*)'} FROM ${file.table}`);
    return null;
  } catch (e) {
    return (e as Error).message.split('\n')[0];
  } finally {
    await file?.close().catch(() => undefined);
  }
}
