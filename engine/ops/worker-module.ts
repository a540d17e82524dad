import type { WorkContext } from './context.js';

/**
 * An area's background work (a queue's kernel, a schedule) as the composition root composes it:
 * the root lists the areas' workers once, starts them in that order and stops them in the reverse,
 * so a worker stops while what it hands work to still runs (the runs stop before the outbox that
 * sends their mail; the scheduler before the runs it queues).
 */
export interface WorkerModule {
  /** Names the context its rules run in, so the log and the audit say which worker did it. */
  readonly name: string;
  /** Takes back what a crash or a dead server cut off, then goes on; `work` is the context its rules run in. */
  start(work: WorkContext): unknown;
  /** Stops taking work; what is under way gets `graceMs` where the worker lets it finish. */
  close(o: { graceMs: number }): Promise<void> | void;
}
