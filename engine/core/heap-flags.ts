import { setFlagsFromString } from 'node:v8';

/**
 * Young collections stay on the thread whose garbage it is. V8 spreads each young collection over
 * its helper threads, and those run at the main thread's priority whatever the nice of the thread
 * whose heap it is: a render thread reading a large template collects every few milliseconds, and
 * on two cores the main thread's calls lost the core in bursts (the p99 of a call during a
 * 100,000-tag check: 2.7 ms against 0.9 ms idle; 1.6 ms with this). V8 asks the flag at each young
 * collection, so it is safe to set at any time; the engine sets it first, before any render, chart
 * or import thread starts. What else was measured, and why it is not set (docs/DECISIONS.md, "Calls
 * while a template is checked"):
 * - The other collector helpers (`--single-threaded-gc`) cannot be turned off once the process runs:
 *   V8 stops the process when a marking had started with them.
 * - A larger young generation for the main thread is a start flag, and the reload's rows become CSV
 *   on the main thread: 64 MiB a semi-space took a 2,000,000-row reload from 291 to 384 MiB added.
 */
export function keepCollectionsOnTheirThreads(): void {
  setFlagsFromString('--no-parallel-scavenge');
}
