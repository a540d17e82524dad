import { In, IsNull, LessThanOrEqual, Not } from 'typeorm';
import type { EngineServices } from '../../ops/context.js';
import { newBase } from '../../core/entity-base.js';
import { Task, TaskTrigger, type TaskRow, type TaskTriggerRow } from '../tasks/tasks.entity.js';
import { scheduleOf } from '../tasks/task-triggers.rules.js';
import { dueSlot, nextFireTimes } from '../tasks/fire-times.js';
import { Request, type RequestRow } from './requests.entity.js';

/** How often the wall clock is checked even when nothing is due (a laptop waking from sleep). */
const CHECK_EVERY_MS = 5_000;

/**
 * Broadsheet's one source of fire times. Each schedule trigger keeps its next fire time (UTC); the
 * scheduler sleeps until the earliest one (at most a few seconds, so a wake from sleep is seen at
 * once), then queues one request per due trigger, keyed by (trigger, scheduled-for) so no slot runs
 * twice, and moves the trigger on. Slots missed while closed or asleep run once, as a catch-up.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = true;

  constructor(
    private readonly services: EngineServices,
    private readonly queued: () => void,
    private readonly options: { timers?: boolean } = {},
  ) {}

  /**
   * Loads the schedules: their stored next fire times are the plan (each is recomputed as it
   * fires), so only an active schedule without one gets it computed here; then what is due runs.
   */
  async start(): Promise<number> {
    this.stopped = false;
    await this.reload(true);
    await this.tick();
    return this.services.db.getRepository(TaskTrigger).countBy({ kind: 'Schedule', isActive: true });
  }

  /** Computes next fire times: of every active schedule, or (`missingOnly`) of those without one. */
  async reload(missingOnly = false): Promise<number> {
    const { db, now } = this.services;
    const triggers = await db
      .getRepository(TaskTrigger)
      .findBy({ kind: 'Schedule', isActive: true, ...(missingOnly ? { nextFireTime: IsNull() } : {}) });
    const changes: { id: string; next: Date | null }[] = [];
    for (const t of triggers) {
      const spec = scheduleOf(t);
      if (!spec) continue;
      // A slot not yet run stays pending (it may be a catch-up); otherwise the next one after now.
      const from =
        t.nextFireTime && (!t.lastScheduledFor || t.nextFireTime > t.lastScheduledFor)
          ? new Date(t.nextFireTime.getTime() - 1)
          : (t.lastScheduledFor ?? now());
      const next = nextFireTimes(spec, from, 1)[0] ?? null;
      if ((next?.getTime() ?? null) !== (t.nextFireTime?.getTime() ?? null)) changes.push({ id: t.id, next });
    }
    if (changes.length) {
      await this.services.write(() =>
        db.transaction(async (m) => {
          for (const c of changes) await m.getRepository(TaskTrigger).update(c.id, { nextFireTime: c.next });
        }),
      );
    }
    return triggers.length;
  }

  /** A schedule was saved, enabled or removed: sleep until the new earliest time. */
  wake(): void {
    if (!this.stopped) void this.tick();
  }

  /** Queues what is due now and sets the timer for the next; one tick at a time. */
  tick(): Promise<void> {
    if (this.ticking) return this.ticking.then(() => this.tick());
    this.ticking = this.fireDue()
      .catch((e: unknown) =>
        this.services.log.error('The scheduler could not fire due tasks', { error: (e as Error).message }),
      )
      .finally(() => {
        this.ticking = null;
      });
    return this.ticking.then(() => this.arm());
  }

  private async fireDue() {
    const { db, now } = this.services;
    const at = now();
    const due = await db.getRepository(TaskTrigger).find({
      where: { kind: 'Schedule', isActive: true, nextFireTime: LessThanOrEqual(at) },
      order: { nextFireTime: 'ASC' },
    });
    if (!due.length) return;
    const tasks = await db.getRepository(Task).findBy({ id: In([...new Set(due.map((t) => t.taskId))]) });
    let queued = 0;
    await this.services.write(() =>
      db.transaction(async (m) => {
        for (const t of due) {
          const spec = scheduleOf(t);
          if (!spec) continue;
          const task = tasks.find((x) => x.id === t.taskId);
          const slot = dueSlot(spec, t.lastScheduledFor, t.nextFireTime ?? at, at);
          const next = nextFireTimes(spec, slot && slot.scheduledFor > at ? slot.scheduledFor : at, 1)[0] ?? null;
          // A disabled task lets its slots pass: enabling it later does not run what it missed.
          if (slot && task?.isActive) {
            // The unique (trigger, scheduled-for) key is the guarantee; the check keeps the count honest.
            if (!(await m.getRepository(Request).existsBy({ triggerId: t.id, scheduledFor: slot.scheduledFor }))) {
              await m
                .createQueryBuilder()
                .insert()
                .into(Request)
                .values(scheduledRequest(task, t, slot.scheduledFor, slot.catchUp, at))
                .orIgnore()
                .execute();
              queued++;
            }
          }
          await m.getRepository(TaskTrigger).update(t.id, {
            lastFireTime: slot && task?.isActive ? at : t.lastFireTime,
            lastScheduledFor: slot?.scheduledFor ?? t.lastScheduledFor,
            nextFireTime: next,
          });
        }
      }),
    );
    if (queued) this.queued();
  }

  private async arm() {
    if (this.stopped || this.options.timers === false) return;
    if (this.timer) clearTimeout(this.timer);
    // NULLs sort first in SQLite: schedules with nothing next (a Once that ran) are left out.
    const earliest = await this.services.db.getRepository(TaskTrigger).findOne({
      where: { kind: 'Schedule', isActive: true, nextFireTime: Not(IsNull()) },
      order: { nextFireTime: 'ASC' },
      select: { id: true, nextFireTime: true },
    });
    const wait = earliest?.nextFireTime
      ? Math.max(0, earliest.nextFireTime.getTime() - this.services.now().getTime())
      : CHECK_EVERY_MS;
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), Math.min(wait, CHECK_EVERY_MS));
    this.timer.unref?.();
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
    await this.services.write(async () => {
      await db.getRepository(Request).insert(rows);
      for (const e of events)
        await db.getRepository(TaskTrigger).update(e.id, { lastFireTime: at, lastScheduledFor: at });
    });
    this.queued();
    return rows.length;
  }

  stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
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
  };
}
