import type { EntityManager, EntitySchema, FindOptionsWhere } from 'typeorm';
import type { ScheduleSpec, DueSlot } from '../../schedules/fire-times.js';

/** A row the scheduler keeps: its stored next fire time and the latest slot it handled. */
export interface Scheduled {
  id: string;
  nextFireTime: Date | null;
  lastScheduledFor: Date | null;
}

/** A due row and the slot it fires for (null: a slot passed without work, such as a disabled task's). */
export interface DueRow<T extends Scheduled> {
  row: T;
  slot: DueSlot | null;
}

/** What firing due rows writes: work rows (each keyed by its row and slot) and changes to the rows. */
export interface FirePlan<T extends Scheduled> {
  work: { entity: EntitySchema<any>; values: object }[];
  changes: Map<string, Partial<T>>;
  /** Runs in the transaction that wrote the work (servers sharing a queue send its jobs there). */
  written?(m: EntityManager): Promise<void>;
}

/**
 * One kind of schedule the scheduler fires (task triggers, directory syncs): the scheduler keeps
 * the fire times, the DST rule and catch-up once; the source says which rows are schedules, what
 * their rule is, and what a slot makes. The work a slot makes carries a unique (row, slot) key, so
 * a slot is worked once however many engines fire it.
 */
export interface ScheduleSource<T extends Scheduled> {
  name: string;
  entity: EntitySchema<T>;
  /** The rows that are schedules now. */
  active: FindOptionsWhere<T>;
  /**
   * The columns `spec` and `since` read: a reload reads these alone (with the id and fire times),
   * as most of a reload's time besides croner was making whole rows.
   */
  timing: readonly (keyof T & string)[];
  spec(row: T): ScheduleSpec | null;
  /** Where a row's first fire time is counted from when it has none (default: now). */
  since?(row: T): Date | null;
  /** Reads what firing needs (outside the write) and answers what to write. */
  plan(due: DueRow<T>[], at: Date): Promise<FirePlan<T>>;
  /** Work was written: the queue that takes it looks. */
  queued(): void;
}
