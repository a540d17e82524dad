import type { EntitySchema } from 'typeorm';
import { EngineError } from '../../core/errors.js';
import type { MemberOperation, OpContext } from '../../ops/context.js';
import { checkMemberAccess, checkProjectAccess, memberVisible, type ContentKind } from '../../access/member-access.js';
import type { MemberObjectKind } from '../../model/members.entity.js';
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

/** The operations declared on `kind` that the caller may call on one object. */
async function allowedOn(
  ctx: OpContext,
  kind: MemberObjectKind,
  object: Row & { permissionsMode?: boolean; createdBy?: string | null },
  ops: readonly MemberOperation[],
  callable: Set<string>,
): Promise<string[]> {
  const answers = new Map<string, boolean>();
  const out: string[] = [];
  for (const op of ops) {
    // Creating content is asked of its project.
    const declared = op.member[kind] || (kind === 'project' && Object.values(op.member).includes('create'));
    if (!declared || !callable.has(op.id)) continue;
    // Checks depend on the action (and, on a project, on what the operation creates in it).
    const key = kind === 'project' ? JSON.stringify(op.member) : op.member[kind]!;
    let allowed = answers.get(key);
    if (allowed === undefined) {
      const asked: OpContext = { ...ctx, operation: { id: op.id, method: op.method, member: op.member } };
      try {
        if (kind === 'project')
          await checkProjectAccess(asked, object as Row & { permissionsMode: boolean; createdBy: string | null });
        else await checkMemberAccess(asked, kind as ContentKind, object, kind);
        allowed = true;
      } catch (e) {
        if (!(e instanceof EngineError) || (e.status !== 403 && e.status !== 404)) throw e;
        allowed = false;
      }
      answers.set(key, allowed);
    }
    if (allowed) out.push(op.id);
  }
  return out;
}

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
