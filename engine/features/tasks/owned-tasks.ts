import type { EntityManager } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { newBase } from '../../core/entity-base.js';
import {
  Task,
  TaskRecipient,
  TaskReport,
  TaskTrigger,
  type TaskReportRow,
  type TaskRow,
  type TaskTriggerRow,
} from '../../model/tasks.entity.js';

// A task another area keeps as its own (a subscription's hidden task): that area says what the task
// is; the tasks area alone writes its rows.

/** A task and all its parts, as its owner wants them now. */
export interface OwnedTask {
  task: TaskRow;
  reports: Pick<TaskReportRow, 'reportId' | 'format' | 'options' | 'fileOpenPassword' | 'fileWritePassword'>[];
  /** Users mailed by the task. */
  recipientUserIds: string[];
  /** The task's one trigger, given the one it had (so it can keep the slots it already ran). */
  trigger: (previous: TaskTriggerRow | null) => TaskTriggerRow;
}

/** Writes an owned task whole, in the caller's transaction: its parts are replaced, its trigger handed its predecessor. */
export async function writeOwnedTask(m: EntityManager, o: OwnedTask, replacing: boolean, now: Date): Promise<void> {
  const taskId = o.task.id;
  await m.getRepository(Task).save(o.task);
  const previous = replacing ? await m.getRepository(TaskTrigger).findOneBy({ taskId }) : null;
  if (replacing) {
    await m.getRepository(TaskReport).delete({ taskId });
    await m.getRepository(TaskRecipient).delete({ taskId });
    await m.getRepository(TaskTrigger).delete({ taskId });
  }
  if (o.reports.length)
    await m.getRepository(TaskReport).insert(o.reports.map((r) => ({ ...newBase(now), taskId, ...r })));
  if (o.recipientUserIds.length)
    await m.getRepository(TaskRecipient).insert(
      o.recipientUserIds.map((recipientId) => ({
        ...newBase(now),
        taskId,
        recipientId,
        type: 'user' as const,
        sendEmail: true,
        seeInHub: false,
      })),
    );
  await m.getRepository(TaskTrigger).save(o.trigger(previous));
}

/** Removes owned tasks (their owners' rows go with them by cascade); their live runs must be stopped first. */
export async function removeOwnedTasks(ctx: OpContext, taskIds: string[]): Promise<void> {
  await ctx.write(() => ctx.db.getRepository(Task).delete(taskIds));
  ctx.scheduler.wake();
}
