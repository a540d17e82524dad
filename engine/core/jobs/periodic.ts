/**
 * Runs a check every so often until stopped: the timer does not keep the process alive, and a
 * check that fails is reported, never thrown into the event loop. Hosts and tests that drive the
 * check themselves (an injected clock) leave the timer off.
 */
export class Periodic {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly everyMs: number,
    private readonly check: () => Promise<unknown>,
    private readonly failed: (e: Error) => void,
    private readonly timers = true,
  ) {}

  start() {
    if (!this.timers || this.timer) return;
    this.timer = setInterval(() => void this.check().catch((e: unknown) => this.failed(e as Error)), this.everyMs);
    this.timer.unref?.();
  }

  stop() {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
