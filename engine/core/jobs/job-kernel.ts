import type { EntityManager } from 'typeorm';
import { Periodic } from './periodic.js';
import type { ClaimColumns, ClaimStore, RowPatch } from './claims.js';
import { Pump } from './pump.js';

/** What one kind of work tells the kernel: which rows are ready, how to do one, how to recover one. */
export interface JobWorker<Row extends ClaimColumns> {
  /** Rows ready to be claimed now, best first, `limit` at most, none of `held` (held here already). */
  ready(limit: number, held: ReadonlySet<string>): Promise<Row[]>;
  /** What a claim sets besides status, owner, lease and attempt (a start time). */
  claimed?(now: Date): RowPatch<Row>;
  /** After a claim: which of the rows offered by `ready` this node took (the others went elsewhere or changed). */
  tried?(offered: Row[], claimed: Row[]): Promise<void>;
  /** Rows a closing node gives back, in the transaction that puts them back to waiting. */
  givenBack?(rows: Row[], m: EntityManager): Promise<void>;
  /** Prepares a claimed batch at once (one look-up for all of it). */
  prepare?(rows: Row[]): Promise<void>;
  /** Does one job and settles its row through the kernel's store; the signal asks it to stop. */
  run(row: Row, signal: AbortSignal): Promise<void>;
  /** A row whose holder stopped renewing its lease (`own`: this node before a restart): the worker takes it over. */
  recover(row: Row, own: boolean): Promise<void>;
  /** When to look again though nothing woke the kernel (a retry's due time). */
  nextDue?(): Promise<Date | null>;
  /** The status a claimed row goes back to when the kernel closes before starting it. */
  waiting(row: Row): string;
}

export interface JobKernelOptions {
  /** What the work is called in the engine's log. */
  name: string;
  concurrency: number;
  /** Rows claimed at once (default: the free slots); more are held, leased, until a slot frees. */
  batch?: number;
  /** The lease a claim takes; renewed every third of it while held. */
  leaseMs: number;
  now: () => Date;
  log: (message: string, error: Error) => void;
  /** Heartbeats, lapsed-lease sweeps and due-time timers run (tests with an injected clock drive them). */
  timers: boolean;
}

interface Held<Row> {
  row: Row;
  controller: AbortController;
  done: Promise<void>;
}

/** Real time between looks at the queue when nothing wakes it. */
const MAX_WAIT_MS = 5_000;

/**
 * Broadsheet's one job kernel, under the request runner, the mail outbox and directory syncs: it
 * claims ready rows for this node with a lease, runs them `concurrency` at a time, renews the
 * leases of what it holds, and hands rows whose holder stopped renewing (a node that died) to the
 * worker's recovery. Recovery never touches a live node's work: only lapsed leases, and at start
 * this node's own rows from before the restart.
 */
export class JobKernel<Row extends ClaimColumns> {
  private readonly running = new Map<string, Held<Row>>();
  private readonly buffer: Row[] = [];
  private readonly pump: Pump;
  private readonly heartbeat: Periodic;
  private readonly sweep: Periodic;
  private closed = false;

  constructor(
    readonly store: ClaimStore<Row>,
    private readonly worker: JobWorker<Row>,
    private readonly o: JobKernelOptions,
  ) {
    const failed = (what: string) => (e: Error) => o.log(`${o.name}: ${what}`, e);
    this.pump = new Pump(() => this.cycle(), {
      now: o.now,
      failed: failed('the queue could not be read'),
      timers: o.timers,
      maxWaitMs: MAX_WAIT_MS,
      // Work another engine on the same data queued wakes no one here: look every few seconds.
      poll: true,
    });
    this.heartbeat = new Periodic(
      o.leaseMs / 3,
      () => this.renewLeases(),
      failed('leases could not be renewed'),
      o.timers,
    );
    this.sweep = new Periodic(
      o.leaseMs / 2,
      () => this.recover(false),
      failed('lapsed work could not be taken over'),
      o.timers,
    );
  }

  /** At start: this node's work from before a restart and lapsed leases are recovered, then the queue runs. */
  async start(): Promise<number> {
    const n = await this.recover(true);
    this.heartbeat.start();
    this.sweep.start();
    this.nudge();
    return n;
  }

  /** Looks for ready work; settles when the look (and what it started) has been set going. */
  wake(): Promise<void> {
    return this.pump.wake();
  }

  /** Looks for ready work without waiting for the look. */
  nudge(): void {
    this.pump.nudge();
  }

  isHeld(id: string): boolean {
    return this.running.has(id) || this.buffer.some((r) => r.id === id);
  }

  heldRows(): Row[] {
    return [...[...this.running.values()].map((h) => h.row), ...this.buffer];
  }

  /** Asks a running job to stop at its next safe point; settles when it has. False when not held here. */
  async abort(id: string): Promise<boolean> {
    const held = this.running.get(id);
    if (!held) return false;
    held.controller.abort();
    await held.done;
    return true;
  }

  /** Runs a row this node inserted already claimed (work asked for here, answered when done). */
  adopt(row: Row): Promise<void> {
    return this.launch(row).done;
  }

  /** Takes over rows whose holder stopped renewing; answers how many. */
  async recover(own: boolean): Promise<number> {
    const lapsed = (await this.store.expired(own)).filter((r) => !this.isHeld(r.id));
    for (const row of lapsed) await this.worker.recover(row, own || row.claimedBy === this.store.owner);
    if (lapsed.length) this.nudge();
    return lapsed.length;
  }

  /** Renews the leases of what this node holds (its heartbeat does this every third of a lease). */
  async renewLeases(): Promise<void> {
    await this.store.heartbeat(this.heldRows().map((r) => r.id));
  }

  private async cycle(): Promise<Date | null> {
    while (!this.closed) {
      while (this.buffer.length && this.running.size < this.o.concurrency) this.launch(this.buffer.shift()!);
      const free = this.o.concurrency - this.running.size;
      if (free <= 0 || this.buffer.length) return null; // a finishing job wakes the kernel
      const held = new Set(this.heldRows().map((r) => r.id));
      const ready = await this.worker.ready(Math.max(free, this.o.batch ?? 0), held);
      if (!ready.length) return (await this.worker.nextDue?.()) ?? null;
      const claimed = await this.store.claim(
        ready.map((r) => r.id),
        this.worker.claimed?.(this.o.now()) ?? {},
      );
      await this.worker.tried?.(ready, claimed);
      if (!claimed.length) continue; // another node took them: look again
      const order = new Map(ready.map((r, i) => [r.id, i]));
      claimed.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      await this.worker.prepare?.(claimed);
      this.buffer.push(...claimed);
    }
    return null;
  }

  /** Starts a job; its `done` never fails (a fault outside the job's own handling is logged). */
  private launch(row: Row): Held<Row> {
    const controller = new AbortController();
    const held: Held<Row> = { row, controller, done: Promise.resolve() };
    this.running.set(row.id, held);
    held.done = this.worker
      .run(row, controller.signal)
      .catch((e: unknown) => this.o.log(`${this.o.name}: a job failed outside its own handling`, e as Error))
      .finally(() => {
        this.running.delete(row.id);
        this.nudge();
      });
    return held;
  }

  /**
   * Stops: no new work; running jobs are asked to stop (`abort`, after `graceMs` in which those close
   * to done may finish) or finish; rows claimed but not started go back as they were.
   */
  async close(abort: boolean, graceMs = 0): Promise<void> {
    this.closed = true;
    this.sweep.stop();
    await this.pump.close();
    const all = [...this.running.values()];
    const untried = this.buffer.splice(0);
    if (abort && graceMs > 0 && all.length) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.all(all.map((h) => h.done)), new Promise((r) => (timer = setTimeout(r, graceMs)))]);
      clearTimeout(timer);
    }
    // Held until here: a job finishing in its grace still holds its claim while it settles.
    this.heartbeat.stop();
    if (abort) for (const h of all) h.controller.abort();
    await this.store.release(
      untried,
      (r) => this.worker.waiting(r),
      this.worker.givenBack && ((rows, m) => this.worker.givenBack!(rows, m)),
    );
    await Promise.all(all.map((h) => h.done));
  }
}
