import type { DataSource, EntitySchema, ObjectLiteral, SelectQueryBuilder } from 'typeorm';

// Organizations are boundaries: a user sees and changes only what belongs to their organizations
// (tenant administrators see all). Each bounded kind states, once, which of its rows lie inside a
// set of organizations; id lookups (core/rows) and lists both ask that same question, so a row of
// another organization answers 404 by id and never appears in a list.

/** What the boundary needs of a caller: the organizations they belong to, or null for all of them. */
export interface BoundedCaller {
  db: DataSource;
  principal?: { organizationIds: string[] | null } | null;
}

/** SQL over alias `x` that holds for the rows inside the organizations bound to `:...orgs`. */
type Inside = (x: string) => string;

const BOUNDARIES = new Map<string, Inside>();

/** Declares how rows of an entity belong to organizations (called where the entity is defined). */
export function boundByOrganization(entity: EntitySchema<ObjectLiteral>, inside: Inside): void {
  BOUNDARIES.set(entity.options.name, inside);
}

/** SQL over a project id column: the project lies inside the organizations (for what lives in a project). */
export const projectInside = (column: string) =>
  `${column} IN (SELECT bp.id FROM projects bp WHERE bp."organizationId" IN (:...orgs))`;

/** SQL over a task id column: the task's project lies inside the organizations. */
export const taskInside = (column: string) =>
  `${column} IN (SELECT bt.id FROM tasks bt JOIN projects btp ON btp.id = bt."projectId" WHERE btp."organizationId" IN (:...orgs))`;

/** The organizations the caller is limited to, or null when nothing limits them (no caller: the engine itself). */
export function organizationScope(ctx: BoundedCaller): string[] | null {
  return ctx.principal?.organizationIds ?? null;
}

/** Limits a list to the rows inside the caller's organizations (a caller of none sees none). */
export function withinOrganizations<T extends ObjectLiteral>(
  ctx: BoundedCaller,
  qb: SelectQueryBuilder<T>,
  entity: EntitySchema<T>,
  alias: string,
): SelectQueryBuilder<T> {
  const orgs = organizationScope(ctx);
  const inside = BOUNDARIES.get(entity.options.name);
  if (!orgs || !inside) return qb;
  return orgs.length ? qb.andWhere(`(${inside(alias)})`, { orgs }) : qb.andWhere('1 = 0');
}

/** Whether rows of an entity belong to organizations (a kind nothing bounds is tenant-wide). */
export const isBounded = (entity: EntitySchema<ObjectLiteral>) => BOUNDARIES.has(entity.options.name);

/**
 * Of the given ids, those that exist and lie outside the caller's organizations (an id that does not
 * exist is not one of them: its handler says it is missing). Empty when nothing limits the caller.
 */
export async function foreignIds(
  ctx: BoundedCaller,
  entity: EntitySchema<ObjectLiteral>,
  ids: string[],
): Promise<string[]> {
  const orgs = organizationScope(ctx);
  const inside = BOUNDARIES.get(entity.options.name);
  if (!orgs || !inside || !ids.length) return [];
  const qb = ctx.db
    .getRepository(entity)
    .createQueryBuilder('x')
    .select('x.id', 'id')
    .where('x.id IN (:...ids)', { ids });
  // CASE keeps a NULL answer of the rule (a row of no organization where the rule does not share it) outside.
  if (orgs.length) qb.andWhere(`(CASE WHEN (${inside('x')}) THEN 0 ELSE 1 END) = 1`, { orgs });
  return (await qb.getRawMany<{ id: string }>()).map((r) => r.id);
}
