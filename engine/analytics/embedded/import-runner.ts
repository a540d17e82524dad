import { stat } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { EngineError } from '../../core/errors.js';
import { findBundledWorker } from '../../core/bundled-worker.js';
import type { ImportJob, ImportOutcome, JobProgress } from './import-job.js';
import type { ImportJobMessage, ImportMessage } from './import-worker.js';

/** The heap one import may use (the worker's old generation), in MiB. */
export const DEFAULT_IMPORT_MEMORY_MB = 1024;
/** What parsing a JSON file whole takes at least, as a multiple of its size (its text, then its objects). */
const JSON_HEAP_FACTOR = 4;

const needsMoreMemory = (memoryMb: number) =>
  new EngineError(
    413,
    `The file needs more than the ${memoryMb} MiB one import may use; split it or remove columns you do not need`,
    [{ field: 'body.content', message: `needs more than ${memoryMb} MiB to import` }],
  );

/** How long a worker started ahead of its job waits for it (an upload that never came) before it goes. */
const SPARE_WAIT_MS = 60_000;

/** A worker started ahead of its job, loading DuckDB while the file it will read still arrives. */
let spare: { worker: Worker; memoryMb: number; timer: NodeJS.Timeout } | null = null;

/** Ends a worker thread; one already gone has nothing left to end. */
const end = (worker: Worker): void => {
  worker.terminate().catch(() => undefined);
};

function startWorker(memoryMb: number): Worker {
  return new Worker(findBundledWorker('import-worker.cjs'), {
    resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 64 },
  });
}

/**
 * Starts the next import's worker now (an upload has begun arriving, a reload has begun reading):
 * the thread and DuckDB load in the 0.2 s they take while the file is still coming, not after it.
 * One is kept at most; unused, it goes after a minute, and it never keeps the process alive.
 */
export function prepareImportWorker(memoryMb: number): void {
  if (spare?.memoryMb === memoryMb) {
    spare.timer.refresh();
    return;
  }
  dropSpareImportWorker();
  const worker = startWorker(memoryMb);
  worker.unref();
  const gone = () => {
    if (spare?.worker !== worker) return;
    clearTimeout(spare.timer);
    spare = null;
  };
  worker.once('exit', gone).once('error', gone);
  const timer = setTimeout(() => {
    gone();
    end(worker);
  }, SPARE_WAIT_MS).unref();
  spare = { worker, memoryMb, timer };
}

/** Whether a worker started ahead of its job is waiting for it. */
export const importThreadWaiting = () => spare !== null;

/** Ends the worker kept for a next import, if any (the engine closing). */
export function dropSpareImportWorker(): void {
  if (!spare) return;
  const { worker, timer } = spare;
  clearTimeout(timer);
  spare = null;
  end(worker);
}

/** The worker started ahead for this memory limit, or a new one. */
function takeWorker(memoryMb: number): Worker {
  if (spare?.memoryMb !== memoryMb) return startWorker(memoryMb);
  const { worker, timer } = spare;
  clearTimeout(timer);
  spare = null;
  worker.ref();
  return worker;
}

/**
 * Runs an import job in its own worker thread with a memory limit and relays its progress. When the
 * worker runs out of memory or dies, that import fails with a clear message; the process goes on.
 */
export async function runImportInWorker(
  job: ImportJob,
  memoryMb: number,
  progress: (p: JobProgress) => void,
): Promise<ImportOutcome> {
  // JSON is parsed whole: its text and the objects it makes need several times the file's size. A
  // file that cannot fit is refused before it is read, because a worker that runs out of memory in
  // one large allocation (the text itself) can abort the whole process, not just its own thread.
  if (job.format === 'json' && (await stat(job.source)).size * JSON_HEAP_FACTOR > memoryMb * 1024 * 1024)
    throw needsMoreMemory(memoryMb);
  return new Promise((resolve, reject) => {
    const worker = takeWorker(memoryMb);
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
      // One job a thread: its file is closed and synced before it says done, so nothing is cut short.
      end(worker);
    };
    worker.on('message', (m: ImportMessage) => {
      if (m.type === 'progress') progress({ percent: m.percent, rows: m.rows });
      else if (m.type === 'done') settle(() => resolve(m.outcome));
      else
        settle(() =>
          reject(
            m.status >= 400 && m.status < 500
              ? new EngineError(m.status, m.message, m.details)
              : Object.assign(new Error(m.message), m.code ? { code: m.code } : {}),
          ),
        );
    });
    worker.on('error', (e: Error & { code?: string }) =>
      settle(() => reject(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? needsMoreMemory(memoryMb) : e)),
    );
    worker.on('exit', (code) => settle(() => reject(new Error(`The import worker stopped (exit code ${code})`))));
    worker.postMessage({ type: 'job', job } satisfies ImportJobMessage);
  });
}
