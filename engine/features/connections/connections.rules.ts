import type { OpContext } from '../../ops/context.js';
import { badInput } from '../../core/errors.js';
import { Connection, type ConnectionRow } from './connections.entity.js';

/** A connection of the project, or a 400 naming the input field that chose it. */
export async function connectionOfProject(ctx: OpContext, projectId: string, connectionId: string, field: string): Promise<ConnectionRow> {
  const c = await ctx.db.getRepository(Connection).findOneBy({ id: connectionId, projectId });
  if (!c) throw badInput('The connection is not one of the project\'s', [{ field, message: 'is not a connection of the project' }]);
  return c;
}

/** The project's first connection: a project with one connection has its reports read through it without asking. */
export async function firstConnectionOf(ctx: OpContext, projectId: string): Promise<ConnectionRow | null> {
  return ctx.db.getRepository(Connection).findOne({ where: { projectId }, order: { createdDate: 'ASC' } });
}
