import { Worker } from 'node:worker_threads';
import { findBundledWorker } from '../../core/bundled-worker.js';
import { SourcesUnread } from './reload-problem.js';
import type { ReadSourcesJob, SourceReaderCommand, SourceReaderMessage } from './source-reader.js';

/**
 * Reads a reload's sources into its CSV file in a thread of its own (source-reader.ts): the main
 * thread only hears progress by rows. A stop (`signal`) is passed on: the thread cuts its queries
 * and answers; the thread ends either way.
 */
export function readSourcesInThread(
  job: ReadSourcesJob,
  signal: AbortSignal,
  progress: (rows: number) => void,
): Promise<{ rows: number; notes: string[] }> {
  const worker = new Worker(findBundledWorker('source-reader.cjs'));
  const send = (m: SourceReaderCommand) => worker.postMessage(m);
  const stop = () => send({ type: 'stop' });
  signal.addEventListener('abort', stop);
  return new Promise<{ rows: number; notes: string[] }>((resolve, reject) => {
    worker.on('message', (m: SourceReaderMessage) => {
      if (m.type === 'progress') progress(m.rows);
      else if (m.type === 'done') resolve({ rows: m.rows, notes: m.notes });
      else reject(new SourcesUnread(m.message));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new SourcesUnread(`The reading thread stopped (${code}) before it finished`)));
    send({ type: 'job', job });
    if (signal.aborted) stop();
  }).finally(() => {
    signal.removeEventListener('abort', stop);
    void worker.terminate().catch(() => undefined);
  });
}
