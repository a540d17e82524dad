import { isMainThread } from 'node:worker_threads';

/**
 * How long the native modules that bring mimalloc (resvg for chart pictures, @napi-rs/canvas) keep
 * freed pages before giving them back to the system: a quarter second, not mimalloc's 10 ms.
 * - A chart picture's pixels are 3.5 MB at 1280 pixels wide. Drawn one after another, 15–20 ms
 *   apart, each picture's pages had been given back before the next one took them again: 500–1,700
 *   page faults a picture. Where a fault is dear (14 µs in a virtual machine here), resvg spent
 *   11–31 ms a picture faulting against 4–6 drawing.
 * - Kept a quarter second, a book's pictures reuse the same pages, and an idle process still gives
 *   them back (measured: resident memory after a pause below that of the default).
 * mimalloc reads the variable once, as its module loads, from the process's own environment: only
 * the main thread's `process.env` writes there (a worker's is a copy). So this is set as the engine
 * starts, before any thread, and again before resvg is first loaded (the bench and tests draw
 * pictures without an engine). A value the user set is kept.
 */
export function keepNativeFreedPagesBriefly(): void {
  if (isMainThread && process.env.MIMALLOC_PURGE_DELAY === undefined) process.env.MIMALLOC_PURGE_DELAY = '250';
}
