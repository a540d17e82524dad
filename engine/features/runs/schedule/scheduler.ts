import { In, IsNull, LessThanOrEqual, Not, type EntityManager, type FindOptionsWhere } from 'typeorm';
import type { BaseServices, EngineServices } from '../../../ops/context.js';

/** What the scheduler is built from: the base, and the runner it queues fired work for. */
type SchedulerServices = BaseServices & Pick<EngineServices, 'requests'>;
import { newBase, sqliteText } from '../../../core/entity-base.js';
import { Pump } from '../../../core/jobs/pump.js';
import { Task, TaskTrigger, type TaskRow, type TaskTriggerRow } from '../../../model/tasks.entity.js';
import { dueSlot, nextFireTimes } from '../../schedules/fire-times.js';
import { Request, type RequestRow } from '../../../model/requests.entity.js';
import type { DueRow, FirePlan, Scheduled, ScheduleSource } from './schedule-source.js';
import { UNCLAIMED } from '../../../core/jobs/claims.js';
import { scheduleOf } from '../../schedules/schedule-spec.js';
import { asTimestamp, onPostgres, sql } from '../../../core/sql.js';
import { keptEntities } from '../../../core/kept-reads.js';
import { nextTurn } from '../../../core/next-turn.js';
import type { WorkerModule } from '../../../ops/worker-module.js';

/** How often the wall clock is checked even when nothing is due (a laptop waking from sleep). */
const CHECK_EVERY_MS = 5_000;
/** Due rows one server fires in one transaction (servers sharing PostgreSQL share a busy minute's). */
const FIRE_BATCH = 500;
/** Schedules a reload reads, computes and writes at a time. */
const RELOAD_PAGE = 500;
/** Schedules computed between two turns of the event loop: about 5 ms of croner's work. */
const ROWS_PER_TURN = 100;

type AnySource = ScheduleSource<any>;

/**
 * Broadsheet's one source of fire times, for task triggers and directory syncs alike. Each
 * schedule keeps its next fire time (UTC); the scheduler sleeps until the earliest one (at most a
 * few seconds, so a wake from sleep is seen at once), then writes one piece of work per due slot,
 * keyed by (schedule, slot) so no slot is worked twice whatever the number of engines, and moves
 * the schedule on. Slots missed while closed or asleep are worked once, as a catch-up.
 */
export class Scheduler implements WorkerModule {
  readonly name = 'scheduler';
  private readonly sources: AnySource[];
  private readonly pump: Pump;
  private started = false;

  constructor(
    private readonly services: SchedulerServices,
    private readonly queued: () => void,
    options: { timers?: boolean; sources?: AnySource[] } = {},
  ) {
    this.sources = [taskSchedules(services, queued), ...(options.sources ?? [])];
    this.pump = new Pump(() => this.cycle(), {
      now: services.now,
      failed: (e) => services.log.error('The scheduler could not fire due work', { error: e.message }),
      timers: options.timers !== false,
      maxWaitMs: CHECK_EVERY_MS,
      poll: true,
    });
  }

  /**
   * Loads the schedules: their stored next fire times are the plan (each is recomputed as it
   * fires), so only an active schedule without one gets it computed here; then what is due runs.
   */
  async start(): Promise<number> {
    this.started = true;
    this.pump.reopen();
    await this.reload(true);
    await this.tick();
    return this.services.db.getRepository(TaskTrigger).countBy({ kind: 'Schedule', isActive: true });
  }

  /** Computes next fire times: of every active schedule, or (`missingOnly`) of those without one. */
  async reload(missingOnly = false): Promise<number> {
    let n = 0;
    for (const source of this.sources) n += await this.reloadSource(source, missingOnly);
    return n;
  }

  /**
   * A source's rows a page at a time, in id order, pipelined: the next page is read and the last
   * page's changes written on the database's thread while this thread computes (croner's work is
   * most of a reload, so the reads and writes cost next to nothing beside it). Each page's changes
   * are one statement: a next fire time is a plan recomputed from its row, not a fact to keep
   * with others, so a reload cut short leaves every row either moved or as it was.
   */
  private async reloadSource<T extends Scheduled>(source: ScheduleSource<T>, missingOnly: boolean) {
    let total = 0;
    let page = this.reloadPage(source, missingOnly, null);
    let writing: Promise<unknown> = Promise.resolve();
    try {
      for (;;) {
        const rows = await page;
        total += rows.length;
        const more = rows.length === RELOAD_PAGE;
        if (more) page = this.reloadPage(source, missingOnly, rows.at(-1)!.id);
        const changes = await this.recomputed(source, rows);
        await writing;
        writing = changes.length ? this.writeNextTimes(source, changes) : Promise.resolve();
        if (!more) break;
      }
      await writing;
    } catch (e) {
      // Nothing left in flight, and no failure of it unseen: the first failure is the answer.
      await Promise.allSettled([page, writing]);
      throw e;
    }
    return total;
  }

  /** A page of a source's active rows (without a next fire time, with `missingOnly`) after an id. */
  private reloadPage<T extends Scheduled>(source: ScheduleSource<T>, missingOnly: boolean, after: string | null) {
    const qb = this.services.db
      .getRepository(source.entity)
      .createQueryBuilder('s')
      .select(['id', 'nextFireTime', 'lastScheduledFor', ...source.timing].map((c) => `s.${c}`))
      .where(source.active as Record<string, unknown>);
    if (missingOnly) qb.andWhere('s.nextFireTime IS NULL');
    if (after !== null) qb.andWhere('s.id > :after', { after });
    return keptEntities(qb.orderBy('s.id', 'ASC').limit(RELOAD_PAGE));
  }

  /**
   * The rows whose next fire time moves, and where to. The event loop turns every few
   * milliseconds: callers are answered during a reload, and the page read and write just asked
   * for reach the database's thread (their way through TypeORM is a chain of promises).
   */
  private async recomputed<T extends Scheduled>(source: ScheduleSource<T>, rows: T[]) {
    const changes: { id: string; next: Date | null }[] = [];
    const now = this.services.now();
    for (const [i, t] of rows.entries()) {
      if (i % ROWS_PER_TURN === 0) await nextTurn();
      // A slot not yet run stays pending (it may be a catch-up); otherwise the next one after now.
      const from =
        t.nextFireTime && (!t.lastScheduledFor || t.nextFireTime > t.lastScheduledFor)
          ? new Date(t.nextFireTime.getTime() - 1)
          : (t.lastScheduledFor ?? source.since?.(t) ?? now);
      const next = this.nextAfter(source, t, from);
      if ((next?.getTime() ?? null) !== (t.nextFireTime?.getTime() ?? null)) changes.push({ id: t.id, next });
    }
    return changes;
  }

  /** New next fire times, in one statement (one update a row was most of a reload of 10,000). */
  private writeNextTimes<T extends Scheduled>(source: ScheduleSource<T>, changes: { id: string; next: Date | null }[]) {
    const { db } = this.services;
    const table = source.entity.options.tableName!;
    return this.services.write(() =>
      sql(
        db,
        `UPDATE "${table}" SET "nextFireTime" = ${asTimestamp(db, 'v.column2')} FROM (VALUES ${changes.map(() => '(?, ?)').join(', ')}) AS v WHERE "${table}"."id" = v.column1`,
        changes.flatMap((c) => [c.id, c.next && sqliteText(c.next)]),
      ),
    );
  }

  /** The first fire time after `from`, or null (no rule, or one that cannot be read: an unknown zone). */
  private nextAfter<T extends Scheduled>(source: ScheduleSource<T>, row: T, from: Date): Date | null {
    try {
      const spec = source.spec(row);
      return spec ? (nextFireTimes(spec, from, 1)[0] ?? null) : null;
    } catch {
      return null;
    }
  }

  /** A schedule was saved, enabled or removed: sleep until the new earliest time. */
  wake(): void {
    if (this.started) this.pump.nudge();
  }

  /** Fires what is due now and sets the timer for the next; settles when that is written. */
  tick(): Promise<void> {
    return this.pump.wake();
  }

  /** Fires each source's due rows; answers the earliest next fire time of all. */
  private async cycle(): Promise<Date | null> {
    let earliest: Date | null = null;
    for (const source of this.sources) {
      await this.fireDue(source);
      // NULLs sort first in SQLite: schedules with nothing next (a Once that ran) are left out.
      const first = await this.services.db.getRepository(source.entity).findOne({
        where: { ...source.active, nextFireTime: Not(IsNull()) },
        order: { nextFireTime: 'ASC' },
        select: { id: true, nextFireTime: true },
      });
      if (first?.nextFireTime && (!earliest || first.nextFireTime < earliest)) earliest = first.nextFireTime;
    }
    return earliest;
  }

  /**
   * Fires a source's due rows. On SQLite the due rows are read under the write lock, in the same
   * turn as the runs they make are written: schedulers of several engines on one file take turns,
   * and the second finds the slot fired (its next time moved) instead of making a run the unique
   * (trigger, slot) key would then have to refuse.
   */
  private async fireDue<T extends Scheduled>(source: ScheduleSource<T>) {
    if (onPostgres(this.services.db)) return this.fireDueSkippingLocked(source);
    const { db, now } = this.services;
    const queued = await this.services.write(async () => {
      const at = now();
      const rows = await db.getRepository(source.entity).find({
        where: { ...source.active, nextFireTime: LessThanOrEqual(at) } as FindOptionsWhere<T>,
        order: { nextFireTime: 'ASC' } as never,
      });
      if (!rows.length) return false;
      const fired = await this.plan(source, rows, at);
      // Work first (the transaction's first statement takes the write lock: no stale read to upgrade).
      return db.transaction((m) => this.write(m, source, fired));
    });
    if (queued) source.queued();
  }

  /**
   * Servers sharing PostgreSQL: each takes due rows a batch at a time, locked `FOR UPDATE SKIP
   * LOCKED` in the transaction that writes their runs and moves them on. A row another server is
   * firing is passed over, never fired twice (once that server commits, its next time has moved),
   * and firing takes no store-wide lock, so a morning's thousands of schedules hold up no one's
   * writes and are shared between the servers.
   */
  private async fireDueSkippingLocked<T extends Scheduled>(source: ScheduleSource<T>) {
    const { db, now } = this.services;
    let queued = false;
    for (let full = true; full; ) {
      const at = now();
      const taken = await db.transaction(async (m) => {
        const rows = await m
          .getRepository(source.entity)
          .createQueryBuilder('s')
          .where(source.active as Record<string, unknown>)
          .andWhere('s."nextFireTime" <= :at', { at })
          .orderBy('s."nextFireTime"', 'ASC')
          .limit(FIRE_BATCH)
          .setLock('pessimistic_write')
          .setOnLocked('skip_locked')
          .getMany();
        if (rows.length && (await this.write(m, source, await this.plan(source, rows, at)))) queued = true;
        return rows.length;
      });
      full = taken === FIRE_BATCH;
    }
    if (queued) source.queued();
  }

  /** Each due row's slot and next fire time, and what firing them writes (read outside the write). */
  private async plan<T extends Scheduled>(source: ScheduleSource<T>, rows: T[], at: Date) {
    const due: (DueRow<T> & { next: Date | null })[] = [];
    for (const row of rows) {
      let slot: DueRow<T>['slot'] = null;
      try {
        const spec = source.spec(row);
        slot = spec ? dueSlot(spec, row.lastScheduledFor, row.nextFireTime ?? at, at) : null;
      } catch {
        slot = null;
      }
      due.push({
        row,
        slot,
        next: this.nextAfter(source, row, slot && slot.scheduledFor > at ? slot.scheduledFor : at),
      });
    }
    return { due, plan: await source.plan(due, at) };
  }

  /** Writes the work of due rows and moves each on to its next fire time; answers whether any work was made. */
  private async write<T extends Scheduled>(
    m: EntityManager,
    source: ScheduleSource<T>,
    { due, plan }: { due: (DueRow<T> & { next: Date | null })[]; plan: FirePlan<T> },
  ) {
    for (const w of plan.work)
      await m.createQueryBuilder().insert().into(w.entity).values(w.values).orIgnore().execute();
    await plan.written?.(m);
    for (const d of due)
      await m.getRepository(source.entity).update(d.row.id, {
        ...plan.changes.get(d.row.id),
        lastScheduledFor: d.slot?.scheduledFor ?? d.row.lastScheduledFor,
        nextFireTime: d.next,
      } as never);
    return plan.work.length > 0;
  }

  /** An analytics app was reloaded: the tasks listening to it run (within their start and end dates). */
  async onReload(appId: string): Promise<number> {
    const { db, now } = this.services;
    const at = now();
    const events = (
      await db.getRepository(TaskTrigger).findBy({ kind: 'ExternalEvent', isActive: true, appId })
    ).filter((t) => (!t.startDate || t.startDate <= at) && (!t.endDate || t.endDate > at));
    if (!events.length) return 0;
    const tasks = (await db.getRepository(Task).findBy({ id: In(events.map((e) => e.taskId)) })).filter(
      (t) => t.isActive,
    );
    const rows = events.flatMap((e) => {
      const task = tasks.find((t) => t.id === e.taskId);
      return task ? [scheduledRequest(task, e, at, false, at)] : [];
    });
    if (!rows.length) return 0;
    await this.services.write(() =>
      db.transaction(async (m) => {
        await m.getRepository(Request).insert(rows);
        await this.services.requests.queued(m, rows);
        for (const e of events)
          await m.getRepository(TaskTrigger).update(e.id, { lastFireTime: at, lastScheduledFor: at });
      }),
    );
    this.queued();
    return rows.length;
  }

  close(): Promise<void> {
    this.started = false;
    return this.pump.close();
  }
}

/** Task triggers of kind Schedule: a due slot of an active task queues its scheduled request. */
function taskSchedules(services: SchedulerServices, queued: () => void): ScheduleSource<TaskTriggerRow> {
  return {
    name: 'Task schedules',
    entity: TaskTrigger,
    active: { kind: 'Schedule', isActive: true },
    timing: ['schedule', 'timeZone', 'startDate', 'endDate'],
    spec: scheduleOf,
    async plan(due, at) {
      const ids = [...new Set(due.map((d) => d.row.taskId))];
      const tasks = new Map((await services.db.getRepository(Task).findBy({ id: In(ids) })).map((t) => [t.id, t]));
      const work: { entity: typeof Request; values: RequestRow }[] = [];
      const changes = new Map<string, Partial<TaskTriggerRow>>();
      for (const { row, slot } of due) {
        const task = tasks.get(row.taskId);
        // A disabled task lets its slots pass: enabling it later does not run what it missed.
        if (!slot || !task?.isActive) continue;
        work.push({ entity: Request, values: scheduledRequest(task, row, slot.scheduledFor, slot.catchUp, at) });
        changes.set(row.id, { lastFireTime: at });
      }
      // A slot another server fired already inserts nothing; its job finds no request and is done.
      return {
        work,
        changes,
        written: (m) =>
          services.requests.queued(
            m,
            work.map((w) => w.values),
          ),
      };
    },
    queued,
  };
}

/** The request a trigger makes for one slot. */
export function scheduledRequest(
  task: TaskRow,
  t: TaskTriggerRow,
  scheduledFor: Date,
  catchUp: boolean,
  now: Date,
): RequestRow {
  return {
    ...newBase(now),
    kind: 'ScheduledTask',
    title: task.name,
    projectId: task.projectId,
    taskId: task.id,
    reportId: null,
    triggerId: t.id,
    scheduledFor,
    catchUp,
    status: 'queued',
    priority: t.priority ?? 0,
    execution: t.execution === 'Serial' ? 'Serial' : 'Parallel',
    config: null,
    outputFormats: '',
    progressDone: 0,
    progressTotal: 0,
    files: [],
    message: null,
    createdBy: null,
    startedDate: null,
    endedDate: null,
    ...UNCLAIMED,
  };
}
