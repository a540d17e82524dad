// Worker-thread entry: one import, away from the main thread and inside its own memory limit, so
// a huge or hostile file fails that import and never the application.
import { parentPort, workerData } from 'node:worker_threads';
import { runImportJob, type ImportJob } from './import-job.js';

export type ImportMessage =
  | { type: 'progress'; percent: number; rows: number }
  | { type: 'done'; outcome: Awaited<ReturnType<typeof runImportJob>> }
  | { type: 'failed'; status: number; message: string; details: { field: string; message: string }[] | null };

const post = (m: ImportMessage) => parentPort!.postMessage(m);

runImportJob(workerData as ImportJob, (p) => post({ type: 'progress', ...p })).then(
  (outcome) => post({ type: 'done', outcome }),
  (e: unknown) => {
    const err = e as { status?: number; message?: string; details?: { field: string; message: string }[] | null };
    post({
      type: 'failed',
      status: err.status ?? 500,
      message: err.message ?? String(e),
      details: err.details ?? null,
    });
  },
);
