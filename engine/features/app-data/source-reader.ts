// Worker-thread entry: a reload's sources read into a CSV file, away from the main thread. A
// database's rows arrive as objects that live until their batch is written; on the main thread they
// stalled calls for a batch at a time and grew its young generation to its largest (docs/DECISIONS.md,
// "Calls while a template is checked"). The thread takes one job, says its progress by rows, and
// answers the rows written and the lookups' notes, or the failure in words: errors cross threads as
// their messages only, so they are put in words here (`reloadProblem`).
import { parentPort } from 'node:worker_threads';
import { driverOf } from '../data-connections/drivers/index.js';
import type { OpenConnection } from '../data-connections/drivers/driver.js';
import { associateSources } from './associate-sources.js';
import { rowsToCsv } from './query-to-csv.js';
import { reloadProblem } from './reload-problem.js';

/** What the thread is sent: the sources with their connections opened (passwords in the clear). */
export interface ReadSourcesJob {
  sources: { name: string; connection: OpenConnection; query: string }[];
  file: string;
  maxRows: number;
  timeoutMs: number;
  batch: number;
}

export type SourceReaderCommand = { type: 'job'; job: ReadSourcesJob } | { type: 'stop' };

export type SourceReaderMessage =
  | { type: 'progress'; rows: number }
  | { type: 'done'; rows: number; notes: string[] }
  | { type: 'failed'; message: string };

/** Reads the job's sources into its file; `signal` cuts the queries and their connections. */
async function readSources(
  job: ReadSourcesJob,
  signal: AbortSignal,
  progress: (rows: number) => void,
): Promise<{ rows: number; notes: string[] }> {
  const stream = await associateSources(
    job.sources.map((source) => ({
      name: source.name,
      open: async () =>
        (await driverOf(source.connection.kind)).open(source.connection, source.query, {
          timeoutMs: job.timeoutMs,
          batch: job.batch,
          signal,
        }),
    })),
    signal,
  );
  const rows = await rowsToCsv(stream, job.file, job.maxRows, progress);
  return { rows, notes: stream.notes() };
}

const stopping = new AbortController();
const post = (m: SourceReaderMessage) => parentPort!.postMessage(m);
parentPort!.on('message', (m: SourceReaderCommand) => {
  if (m.type === 'stop') return stopping.abort();
  readSources(m.job, stopping.signal, (rows) => post({ type: 'progress', rows })).then(
    ({ rows, notes }) => post({ type: 'done', rows, notes }),
    (e: unknown) => post({ type: 'failed', message: reloadProblem(e) }),
  );
});
