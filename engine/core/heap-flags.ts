import { setFlagsFromString } from 'node:v8';

// How the server's JavaScript heaps are collected, so that a call is answered at once while a
// thread in the background reads a large template or builds a file (docs/DECISIONS.md, "Calls
// while a template is checked"). Two things held a call on two cores, each measured alone:
// - a render thread's garbage marked and swept by V8's helper threads, which run at the main
//   thread's priority whatever the nice of the thread whose heap it is: bursts of slow calls;
// - the main thread's own young collections: about 1% of calls met one, and a p99 is that 1%.

/**
 * Node's flags for a server process (`npm run serve`, the bench's servers). V8 reads them only as
 * it starts: a collection's helpers cannot be turned off once one may be marking (V8 stops the
 * process when it is tried), nor a heap's young generation resized. package.json's `serve` script
 * names the same flags (a test holds them together).
 * - Every heap is collected on its own thread: a render or import thread's collections stay on
 *   that thread, at its lower priority.
 * - The main thread's young generation is up to 64 MiB a semi-space (V8's default is 16): its
 *   collections come four times less often. Threads get their own size back (below). It grows to
 *   its largest only where the main thread keeps much alive: a reload's rows did (+93 MiB on
 *   2,000,000 rows), so a reload's sources are read in a thread of their own (source-reader.ts).
 * - No memory reducer: V8 collects a heap whole once its thread has allocated little for about
 *   8 s, to give memory back. Collected on its own thread, as above, the main thread's 30 MiB heap
 *   stopped it 24–38 ms, and it fell while the thread was quiet because work was in a thread of
 *   its own: the third of three reloads in a row stalled 22–34 ms, the others 13–17. Heaps are
 *   still collected as they grow; the main thread's stays near 30 MiB. V8 makes the reducer as a
 *   heap is made, so this cannot be set later, and it leaves the flags' hash as it is.
 */
export const SERVER_NODE_FLAGS: readonly string[] = [
  '--single-threaded-gc',
  '--max-semi-space-size=64',
  '--no-memory-reducer',
];

/**
 * What can still be set once the process runs, before any thread starts:
 * - Young collections stay on the thread whose garbage it is, in the desktop too (Electron reads
 *   V8's flags for its main process only from its own command line). V8 asks this flag at each
 *   young collection, so changing it is safe at any time.
 * - Threads started afterwards get V8's default young generation, not the main thread's larger one:
 *   0 is V8's "not set", read when a thread's heap is made (a worker's `resourceLimits` do not
 *   override the flag).
 * The server's entry calls it before anything else (serve-flags.ts), for a second reason: Node's
 * own modules come with their compiled code, signed with a hash of V8's flags as Node was built. A
 * process whose young generation's flag differs compiles each one it loads from source: 32 ms for
 * two dozen of them, against 12 once the flag is back to 0, and about 15 ms of every start when
 * this was set only as the engine started. Set before the server's bundle is read, it also holds
 * the same flags when the bundle's kept code (engine/code-cache.ts) is read and when it is written.
 * The engine calls it again (the desktop, tests), as often as it starts: the same values change
 * nothing, neither the heaps nor the flags' hash.
 */
export function keepCollectionsOnTheirThreads(): void {
  setFlagsFromString('--no-parallel-scavenge --max-semi-space-size=0');
}
