/**
 * Watches a long job for progress: each step calls `step(what)`; when none comes for `stallMs`, the
 * signal aborts with a reason naming the last step, so the job stops (and its lock is released)
 * instead of hanging for good. Real time: a stall is the machine's, not the engine clock's.
 */
export function stallWatch(stallMs: number, named?: (what: string) => void) {
  const controller = new AbortController();
  let last = performance.now();
  let doing = 'starting';
  const stall = () =>
    controller.abort(
      new Error(`it made no progress for ${Math.round(stallMs / 1000)} s while ${doing}, so it was stopped`),
    );
  const timer = setInterval(
    () => {
      if (performance.now() - last >= stallMs) stall();
    },
    Math.max(50, Math.min(5_000, stallMs / 4)),
  );
  timer.unref();
  return {
    signal: controller.signal,
    step(what?: string) {
      const now = performance.now();
      // A step that comes back later than the limit was as stuck as one the timer catches.
      if (now - last >= stallMs && !controller.signal.aborted) stall();
      last = now;
      if (what) {
        doing = what;
        named?.(what);
      }
      controller.signal.throwIfAborted();
    },
    stop: () => clearInterval(timer),
  };
}
