import type { EntitySchema } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { memberVisible, type ContentKind } from '../../access/member-access.js';
import { allowedOn } from '../../access/can.js';
import { Report } from '../../model/reports.entity.js';
import { Filter } from '../../model/filters.entity.js';
import { Condition } from '../../model/conditions.entity.js';
import { Task } from '../../model/tasks.entity.js';
import { reachableProject } from '../../access/project-reach.js';

// What the caller may do in a project, for the screens: the operations they may call on the project
// and on each of its reports, filters, conditions and tasks. Not a second copy of the rules: each
// answer is the check that enforces the operation (roles, then the project's or the object's member
// permissions), asked without acting. Screens hide what is not there instead of offering a click
// the server refuses.

type Row = { id: string; projectId: string };

const CONTENT: [ContentKind, EntitySchema<Row>][] = [
  ['report', Report as unknown as EntitySchema<Row>],
  ['filter', Filter as unknown as EntitySchema<Row>],
  ['condition', Condition as unknown as EntitySchema<Row>],
  ['task', Task as unknown as EntitySchema<Row>],
];

export async function projectAccess(ctx: OpContext, projectId: string) {
  const project = await reachableProject(ctx, projectId);
  const ops = ctx.memberOperations();
  const callable = new Set(ctx.callableOperations(ctx.principal!));
  const out: Record<'project', string[]> &
    Record<'reports' | 'filters' | 'conditions' | 'tasks', Record<string, string[]>> = {
    project: await allowedOn(ctx, 'project', { ...project, projectId: project.id }, ops, callable),
    reports: {},
    filters: {},
    conditions: {},
    tasks: {},
  };
  for (const [kind, entity] of CONTENT) {
    const qb = ctx.db
      .getRepository(entity)
      .createQueryBuilder('a')
      .select(['a.id', 'a.projectId'])
      .where('a."projectId" = :projectId', { projectId });
    const rows = await memberVisible(ctx, qb, 'a', kind).getMany();
    const into = out[`${kind}s` as 'reports'];
    for (const row of rows) into[row.id] = await allowedOn(ctx, kind, row, ops, callable);
  }
  return out;
}
