/**
 * One loop of work at a time, woken on demand: a wake while a cycle runs asks for one more cycle
 * after it (never two at once), and a cycle may answer when it wants to look again (a retry's due
 * time, the next fire time). That time is read on the engine's clock; the timer waits at most
 * `maxWaitMs` of real time, so a jump of the clock (a laptop waking from sleep) is seen soon. Hosts
 * and tests that drive the work themselves (an injected clock) leave the timer off.
 */
export class Pump {
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly cycle: () => Promise<Date | null>,
    private readonly o: {
      now: () => Date;
      failed: (e: Error) => void;
      timers: boolean;
      /** The longest real wait between cycles, so a changed clock or a missed wake is seen. */
      maxWaitMs: number;
      /** Look again after `maxWaitMs` even when the cycle named no time. */
      poll?: boolean;
    },
  ) {}

  /** Runs a cycle now (or right after the one running); settles when the work it asked for is done. */
  wake(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const run = this.cycle()
      .catch((e: unknown) => {
        this.o.failed(e as Error);
        return null;
      })
      .then((next) => {
        this.running = null;
        if (this.again) {
          this.again = false;
          return this.wake();
        }
        this.arm(next);
      });
    this.running = run;
    return run;
  }

  private arm(next: Date | null) {
    if (this.closed || !this.o.timers || (!next && !this.o.poll)) return;
    const wait = next ? Math.max(0, next.getTime() - this.o.now().getTime()) : this.o.maxWaitMs;
    this.timer = setTimeout(() => this.nudge(), Math.min(wait, this.o.maxWaitMs));
    this.timer.unref?.();
  }

  /** Wakes it without waiting for the cycle (whose own failures it reports). */
  nudge(): void {
    this.wake().catch((e: unknown) => this.o.failed(e as Error));
  }

  /** Wakes again after a close (a scheduler stopped and started again). */
  reopen(): void {
    this.closed = false;
  }

  /** Stops waking; settles when the cycle under way ends. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}
