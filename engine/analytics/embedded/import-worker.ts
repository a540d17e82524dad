// Worker-thread entry: one import, away from the main thread and inside its own memory limit, so
// a huge or hostile file fails that import and never the application.
import { parentPort, workerData } from 'node:worker_threads';
import { runImportJob, type ImportJob } from './import-job.js';

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

runImportJob(workerData as ImportJob, (p) => post({ type: 'progress', ...p })).then(
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
