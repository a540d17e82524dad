// Worker-thread entry: one import, away from the main thread and inside its own memory limit, so
// a huge or hostile file fails that import and never the application. A worker loads DuckDB as it
// starts and then takes the one job it is sent: started while an upload still arrives, it is ready
// when the file is (import-runner.ts).
import { parentPort } from 'node:worker_threads';
import { runImportJob, type ImportJob } from './import-job.js';
import { loadColumnarStore } from './columnar-file.js';

/** The one job a worker is sent. */
export interface ImportJobMessage {
  type: 'job';
  job: ImportJob;
}

export type ImportMessage =
  | { type: 'progress'; percent: number; rows: number }
  | { type: 'done'; outcome: Awaited<ReturnType<typeof runImportJob>> }
  | {
      type: 'failed';
      status: number;
      message: string;
      details: { field: string; message: string }[] | null;
      /** A system error's code (ENOSPC: the disk is full), for the engine to answer it in words. */
      code: string | null;
    };

/** DuckDB says a full disk in words, not by a code: the same failure as a write's ENOSPC. */
const FULL_DISK = /No space left on device|disk is full|SQLITE_FULL/i;

const post = (m: ImportMessage) => parentPort!.postMessage(m);

const run = (job: ImportJob) =>
  runImportJob(job, (p) => post({ type: 'progress', ...p })).then(
    (outcome) => post({ type: 'done', outcome }),
    (e: unknown) => {
      const err = e as {
        status?: number;
        message?: string;
        details?: { field: string; message: string }[] | null;
        code?: string;
      };
      const message = err.message ?? String(e);
      post({
        type: 'failed',
        status: err.status ?? 500,
        message,
        details: err.details ?? null,
        code: typeof err.code === 'string' ? err.code : FULL_DISK.test(message) ? 'ENOSPC' : null,
      });
    },
  );

// Loaded while the job is awaited; a failure to load is said by the job itself when it runs.
void loadColumnarStore().catch(() => undefined);
// A job whose outcome cannot even be posted ends the thread: the runner then says it stopped.
parentPort!.once('message', (m: ImportJobMessage) => {
  run(m.job).catch(() => process.exit(1));
});
