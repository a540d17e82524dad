import { lazySchema } from '../../core/lazy-schema.js';
// The task page's Save: the whole task as the page holds it (settings, e-mail, reports, recipients,
// triggers), written in one transaction. A part the engine refuses is named and nothing is written,
// so a failure half-way can no longer leave half a task.
import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import { asPart as part, inOneTransaction } from '../../ops/one-transaction.js';
import { v } from '../../core/validation.js';
import { TaskRecipient, TaskReport, TaskTrigger } from '../../model/tasks.entity.js';
import { EmailB, emailOfB, ExternalEventA, RecipientA, ScheduleA, TaskReportB, TaskUpdateA } from './tasks.inputs.js';
import { reachableTask, taskDto, updateTask, updateTaskEmail } from './tasks.rules.js';
import { deleteTaskReports, saveTaskReport } from './task-reports.rules.js';
import { addTaskRecipients, deleteTaskRecipients } from './task-recipients.rules.js';
import { deleteTriggers, saveExternalEvent, saveSchedule } from './task-triggers.rules.js';
import { taskReportInputB } from './task-report-input.js';

/** An item the task already has carries its id; one without is new. */
const stored = { id: v.uuid().optional() };

/**
 * The e-mail as set B takes it, but its sender may be empty: the mail server's own sender, read when
 * the mail is sent (as a task made on the screens stores it), so a task read whole saves back as it was.
 */
const SavedEmail = lazySchema(() => EmailB.extend({ from: v.nmailbox(320) }));

export const TaskSaveInput = lazySchema(() =>
  z.object({
    settings: TaskUpdateA,
    email: SavedEmail.optional(),
    reports: z.array(TaskReportB.safeExtend(stored)).max(1_000),
    recipients: z.array(RecipientA).max(10_000),
    schedules: z.array(ScheduleA.safeExtend(stored)).max(1_000),
    events: z.array(ExternalEventA.safeExtend(stored)).max(1_000),
  }),
);
export type TaskSave = z.output<typeof TaskSaveInput>;

const gone = (ids: string[], kept: (string | undefined)[]) => ids.filter((id) => !kept.includes(id));

/** Writes the whole task or nothing; answers the stored task as `app.tasks.get` does. */
export async function saveWholeTask(ctx: OpContext, taskId: string, body: TaskSave) {
  const saved = await inOneTransaction(ctx, async (tx) => {
    const task = await reachableTask(tx, taskId);
    await part('Settings', 'settings', () => updateTask(tx, task.id, body.settings));
    if (body.email) {
      const email = body.email;
      const sender = email.from ?? null;
      await part('E-mail', 'email', () =>
        updateTaskEmail(tx, task.id, { ...emailOfB({ ...email, from: '' }), from: sender }),
      );
    }
    // Removals first, so an entry removed and added again is not a duplicate.
    const reports = (await tx.db.getRepository(TaskReport).findBy({ taskId: task.id })).map((r) => r.id);
    const goneReports = gone(
      reports,
      body.reports.map((r) => r.id),
    );
    if (goneReports.length) await part('Reports', 'reports', () => deleteTaskReports(tx, task.id, goneReports));
    const triggers = (await tx.db.getRepository(TaskTrigger).findBy({ taskId: task.id })).map((t) => t.id);
    const goneTriggers = gone(
      triggers,
      [...body.schedules, ...body.events].map((t) => t.id),
    );
    if (goneTriggers.length) await part('Triggers', 'schedules', () => deleteTriggers(tx, task.id, goneTriggers));
    const recipients = (await tx.db.getRepository(TaskRecipient).findBy({ taskId: task.id })).map((r) => r.recipientId);
    const goneRecipients = gone(
      recipients,
      body.recipients.map((r) => r.id),
    );
    if (goneRecipients.length)
      await part('Recipients', 'recipients', () => deleteTaskRecipients(tx, task.id, goneRecipients));

    for (const [i, { id, ...r }] of body.reports.entries())
      await part(`Report ${i + 1}`, `reports.${i}`, () => saveTaskReport(tx, task.id, id ?? null, taskReportInputB(r)));
    if (body.recipients.length)
      await part('Recipients', 'recipients', () => addTaskRecipients(tx, task.id, body.recipients));
    for (const [i, { id, ...s }] of body.schedules.entries())
      await part(`Schedule “${s.name}”`, `schedules.${i}`, () => saveSchedule(tx, task.id, id ?? null, s));
    for (const [i, { id, ...e }] of body.events.entries())
      await part(`Event “${e.name}”`, `events.${i}`, () => saveExternalEvent(tx, task.id, id ?? null, e));
    return reachableTask(tx, task.id);
  });
  // Heard once it is stored: the schedules of the task as it now stands.
  ctx.scheduler.wake();
  return taskDto(saved);
}
