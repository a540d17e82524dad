import { In } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput } from '../../core/errors.js';
import type { ListQuery, ListSpec } from '../../core/list-query.js';
import { rawPageOf } from '../../core/list-query.js';
import { Group } from '../../model/groups.entity.js';
import { User } from '../../model/users.entity.js';
import { Project } from '../../model/projects.entity.js';
import { foreignIds } from '../../core/organization-boundary.js';
import { TaskRecipient, type TaskRecipientType, type TaskRow } from '../../model/tasks.entity.js';
import { reachableTask } from './tasks.rules.js';

// A recipient row joined with its user's or group's name and address, so lists filter and sort on them.
const RECIPIENTS = `(SELECT tr.id, tr."taskId", tr."recipientId", tr.type, tr."sendEmail", tr."seeInHub", tr."createdDate",
  CASE WHEN tr.type = 'user' THEN (SELECT u."firstName" || ' ' || u."lastName" FROM users u WHERE u.id = tr."recipientId") ELSE (SELECT g.name FROM groups g WHERE g.id = tr."recipientId") END AS name,
  CASE WHEN tr.type = 'user' THEN (SELECT u.email FROM users u WHERE u.id = tr."recipientId") ELSE NULL END AS "emailAddress",
  CASE WHEN tr.type = 'user' THEN (SELECT u.kind FROM users u WHERE u.id = tr."recipientId") ELSE NULL END AS "userKind"
  FROM task_recipients tr)`;

export const LIST_TASK_RECIPIENTS: ListSpec = {
  sort: {
    Name: 'LOWER(x.name)',
    Type: 'x.type',
    EmailAddress: 'LOWER(x."emailAddress")',
    CreatedDate: 'x."createdDate"',
  },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'x.name', email_address: 'x."emailAddress"' },
  exact: { type: 'x.type' },
};

interface RecipientRaw {
  id: string;
  recipientId: string;
  type: TaskRecipientType;
  sendEmail: number;
  seeInHub: number;
  name: string | null;
  emailAddress: string | null;
  userKind: 'user' | 'recipient' | null;
  createdDate: string;
}

export async function listTaskRecipients(ctx: OpContext, taskId: string, list: ListQuery) {
  const task = await reachableTask(ctx, taskId);
  const qb = ctx.db
    .createQueryBuilder()
    .select('x.*')
    .from(RECIPIENTS, 'x')
    .where('x."taskId" = :task', { task: task.id });
  return rawPageOf(qb, LIST_TASK_RECIPIENTS, list, 'x.id', (r: RecipientRaw) => ({
    id: r.recipientId,
    taskRecipientId: r.id,
    type: r.type,
    name: r.name,
    emailAddress: r.emailAddress,
    userKind: r.userKind ?? null,
    sendEmail: !!r.sendEmail,
    seeInHub: !!r.seeInHub,
    createdDate: iso(r.createdDate),
  }));
}

export interface RecipientInput {
  id: string;
  type: TaskRecipientType;
  sendEmail?: boolean;
  seeInHub?: boolean;
}

/**
 * Users and groups named must exist and belong to the task's organization (a group of none, such as
 * "All users", is everyone's); each is added once (a second add updates its options).
 */
async function checkRecipients(ctx: OpContext, task: TaskRow, items: RecipientInput[]) {
  const ofType = (type: TaskRecipientType) => items.filter((r) => r.type === type).map((r) => r.id);
  const users = new Set((await ctx.db.getRepository(User).findBy({ id: In(ofType('user')) })).map((u) => u.id));
  const groups = new Set((await ctx.db.getRepository(Group).findBy({ id: In(ofType('group')) })).map((g) => g.id));
  const project = await ctx.db.getRepository(Project).findOneByOrFail({ id: task.projectId });
  const taskOrganization = { db: ctx.db, principal: { organizationIds: [project.organizationId] } };
  const elsewhere = new Set([
    ...(await foreignIds(taskOrganization, User as never, ofType('user'))),
    ...(await foreignIds(taskOrganization, Group as never, ofType('group'))),
  ]);
  items.forEach((r, i) => {
    if (!(r.type === 'user' ? users : groups).has(r.id))
      throw badInput(`No ${r.type} has the id ${r.id}`, [
        { field: `body.${i}.id`, message: `must be an existing ${r.type}` },
      ]);
    if (elsewhere.has(r.id))
      throw badInput(`The ${r.type} ${r.id} belongs to another organization than the task`, [
        { field: `body.${i}.id`, message: `must be a ${r.type} of the task's organization` },
      ]);
  });
}

export async function addTaskRecipients(ctx: OpContext, taskId: string, items: RecipientInput[]) {
  const task = await reachableTask(ctx, taskId);
  await checkRecipients(ctx, task, items);
  await ctx.db.transaction(async (m) => {
    for (const r of items) {
      const existing = await m.getRepository(TaskRecipient).findOneBy({ taskId: task.id, recipientId: r.id });
      if (existing)
        await m.getRepository(TaskRecipient).update(existing.id, {
          sendEmail: r.sendEmail ?? existing.sendEmail,
          seeInHub: r.seeInHub ?? existing.seeInHub,
          modifiedDate: ctx.now(),
        });
      else
        await m.getRepository(TaskRecipient).insert({
          ...newBase(ctx.now()),
          taskId: task.id,
          recipientId: r.id,
          type: r.type,
          sendEmail: r.sendEmail ?? true,
          seeInHub: r.seeInHub ?? true,
        });
    }
  });
  return { added: items.length };
}

/** Replaces the task's recipients with the list given (set B's "update recipients"). */
export async function replaceTaskRecipients(ctx: OpContext, taskId: string, items: RecipientInput[]) {
  const task = await reachableTask(ctx, taskId);
  await checkRecipients(ctx, task, items);
  const keep = items.map((r) => r.id);
  await ctx.db.transaction(async (m) => {
    const stale = (await m.getRepository(TaskRecipient).findBy({ taskId: task.id })).filter(
      (r) => !keep.includes(r.recipientId),
    );
    if (stale.length) await m.getRepository(TaskRecipient).delete({ id: In(stale.map((r) => r.id)) });
  });
  return addTaskRecipients(ctx, taskId, items);
}

export async function updateTaskRecipient(ctx: OpContext, taskId: string, r: Required<RecipientInput>) {
  const task = await reachableTask(ctx, taskId);
  const row = await ctx.db.getRepository(TaskRecipient).findOneBy({ taskId: task.id, recipientId: r.id });
  if (!row)
    throw badInput(`The ${r.type} is not a recipient of the task`, [
      { field: 'body.id', message: 'must be a recipient of the task' },
    ]);
  await ctx.db
    .getRepository(TaskRecipient)
    .update(row.id, { sendEmail: r.sendEmail, seeInHub: r.seeInHub, modifiedDate: ctx.now() });
  return { id: r.id, type: row.type, sendEmail: r.sendEmail, seeInHub: r.seeInHub };
}

export async function deleteTaskRecipients(ctx: OpContext, taskId: string, recipientIds: string[]) {
  const task = await reachableTask(ctx, taskId);
  const result = recipientIds.length
    ? await ctx.db.getRepository(TaskRecipient).delete({ taskId: task.id, recipientId: In(recipientIds) })
    : { affected: 0 };
  return { deleted: result.affected ?? 0 };
}
