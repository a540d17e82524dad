import type { EntityManager } from 'typeorm';

/** A waiting row as a queue carries it: its id (the job's id too) and how urgent it is (higher first). */
export interface WaitingJob {
  id: string;
  priority: number;
}

/**
 * Where waiting work is handed to the servers that take it, when servers share one database
 * (pg-boss there). The table's row stays the truth of the work and the kernel's lease says who
 * holds it while it runs; the queue carries which rows wait, each to one server at a time. A job
 * is sent in the transaction that made its row wait, so neither exists without the other.
 * Delivery is at least once: a job for a row no longer waiting is simply done.
 */
export interface Handoff {
  /** Rows now waiting (new, or back after a dead server): their jobs, in the caller's transaction. */
  send(m: EntityManager, jobs: WaitingJob[]): Promise<void>;
  /** Jobs for waiting rows that have none (rows queued before the queue existed); others are kept. */
  ensure(m: EntityManager, jobs: WaitingJob[]): Promise<void>;
  /** Takes up to `limit` waiting jobs, best first; each goes to one server until done or expired. */
  take(limit: number): Promise<string[]>;
  /** Jobs taken whose rows were claimed, or no longer wait: the queue forgets them. */
  done(ids: string[]): Promise<void>;
  close(): Promise<void>;
}
