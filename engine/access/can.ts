// What a caller may do, asked without acting: the one entry screens and rules share. Each answer is
// the check that enforces the operation (its role flag, then the project's or the object's member
// permissions), run with the operation's declaration and its refusal caught; never a second copy of
// the rules.
import { EngineError } from '../core/errors.js';
import type { MemberOperation, OpContext } from '../ops/context.js';
import type { MemberObjectKind } from '../model/members.entity.js';
import { checkMemberAccess, checkProjectAccess, type ContentKind } from './member-access.js';

type Row = { id: string; projectId: string };
type Project = Row & { permissionsMode: boolean; createdBy: string | null };

/**
 * Whether the caller may call `op` on one object of `kind` (a project, or content of one): its role
 * flag (`callable`, the operations their roles permit) and the member check it would meet.
 */
export async function can(
  ctx: OpContext,
  op: MemberOperation,
  kind: MemberObjectKind,
  object: Row | Project,
  callable: ReadonlySet<string>,
): Promise<boolean> {
  if (!callable.has(op.id)) return false;
  const asked: OpContext = { ...ctx, operation: { id: op.id, method: op.method, member: op.member } };
  try {
    if (kind === 'project') await checkProjectAccess(asked, object as Project);
    else await checkMemberAccess(asked, kind as ContentKind, object, kind);
    return true;
  } catch (e) {
    if (!(e instanceof EngineError) || (e.status !== 403 && e.status !== 404)) throw e;
    return false;
  }
}

/** The operations declared on `kind` that the caller may call on one object. */
export async function allowedOn(
  ctx: OpContext,
  kind: MemberObjectKind,
  object: Row & { permissionsMode?: boolean; createdBy?: string | null },
  ops: readonly MemberOperation[],
  callable: ReadonlySet<string>,
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
      allowed = await can(ctx, op, kind, object, callable);
      answers.set(key, allowed);
    }
    if (allowed) out.push(op.id);
  }
  return out;
}
