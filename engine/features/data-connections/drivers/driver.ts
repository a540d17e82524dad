import type { DataConnectionRow } from '../../../model/data-connections.entity.js';

/** A connection as a driver opens it: the password already opened. */
export type OpenConnection = Pick<
  DataConnectionRow,
  'kind' | 'host' | 'port' | 'database' | 'username' | 'password' | 'tls' | 'filePath'
>;

export interface QueryOptions {
  /** The longest the source may take over the statement; the source stops it (its own timeout). */
  timeoutMs: number;
  /** Rows per batch handed on: memory stays bounded whatever the result's size. */
  batch: number;
  /** Stops the query at once when aborted, while it starts as well as while its rows are read. */
  signal?: AbortSignal;
}

/** The rows of one query, streamed: the column names once, then batches of rows as arrays. */
export interface RowStream {
  columns: string[];
  batches: AsyncGenerator<unknown[][]>;
  /** Ends the query and the connection (also when the batches are not read to the end). */
  close(): Promise<void>;
}

/**
 * One kind of database: how to connect and say what answered, and how to stream a query's rows in a
 * read-only transaction with a statement timeout. Failures are thrown as they come; `problemOf`
 * turns them into words.
 */
export interface SourceDriver {
  /** Connects and answers what the server says it is ("PostgreSQL 15.8"). */
  test(c: OpenConnection): Promise<string>;
  open(c: OpenConnection, query: string, o: QueryOptions): Promise<RowStream>;
}

/**
 * A query's rows as a stream that closes its connection once they are read to the end or left, and
 * at once when starting the query fails: each driver says only how to start it and read its rows.
 */
export async function closingStream(
  close: () => Promise<void>,
  start: () => Promise<{ columns: string[]; batches: AsyncIterable<unknown[][]> }>,
): Promise<RowStream> {
  try {
    const { columns, batches } = await start();
    const closing = async function* () {
      try {
        yield* batches;
      } finally {
        await close();
      }
    };
    return { columns, batches: closing(), close };
  } catch (e) {
    await close();
    throw e;
  }
}

/** Rows arriving one at a time, handed on `size` at a time. */
export async function* inBatches(rows: AsyncIterable<unknown[]>, size: number): AsyncGenerator<unknown[][]> {
  let batch: unknown[][] = [];
  for await (const row of rows) {
    batch.push(row);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** A source's failure already in words, with the field to fix (a folder's missing files, a name pattern). */
export class SourceProblem extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}

/** A value as a CSV cell: dates as ISO text (a midnight date as the day), the rest as written. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) {
    const iso = v.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (Buffer.isBuffer(v)) return v.toString('base64');
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
