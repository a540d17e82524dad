import { In } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput, notFound } from '../../core/errors.js';
import type { AppMeta, Selections } from '../../analytics/model.js';
import { AnalyticsApp } from '../../model/analytics-apps.entity.js';
import { Connection } from '../../model/connections.entity.js';
import { duplicateTarget } from '../projects/projects.rules.js';
import { reachableInProject, reachableProject, visibleProjects } from '../../access/project-reach.js';
import { memberVisible } from '../../access/member-access.js';
import { Report } from '../../model/reports.entity.js';
import { refuseWhileReportsUse } from '../../core/refuse-while-used.js';
import {
  Filter,
  FilterValue,
  type FilterRow,
  type FilterValueKind,
  type FilterValueRow,
} from '../../model/filters.entity.js';

/** The apps a project reads through its connections, with their metadata. */
export async function projectApps(ctx: OpContext, projectId: string): Promise<AppMeta[]> {
  const conns = await ctx.db.getRepository(Connection).findBy({ projectId });
  if (!conns.length) return [];
  const apps = await ctx.db.getRepository(AnalyticsApp).findBy({ id: In(conns.map((c) => c.analyticsAppId)) });
  return Promise.all(apps.map((a) => ctx.analytics.meta(a.appId)));
}

const targetName = (metas: AppMeta[], kind: FilterValueKind, id: string) => {
  for (const m of metas) {
    const list = kind === 'field' ? m.fields : kind === 'variable' ? m.variables : m.bookmarks;
    const hit = (list as { id: string; name: string }[]).find((x) => x.id === id);
    if (hit) return hit.name;
  }
  return null;
};

export async function filterDto(ctx: OpContext, f: FilterRow) {
  const values = await ctx.db.getRepository(FilterValue).find({ where: { filterId: f.id }, order: { order: 'ASC' } });
  const metas = await projectApps(ctx, f.projectId);
  return {
    id: f.id,
    projectId: f.projectId,
    name: f.name,
    description: f.description,
    createdDate: iso(f.createdDate),
    modifiedDate: iso(f.modifiedDate),
    values: values.map((v) => ({
      id: v.id,
      kind: v.kind,
      targetId: v.targetId,
      targetName: targetName(metas, v.kind, v.targetId),
      order: v.order,
      fieldValues: v.fieldValues,
      variableValue: v.variableValue,
    })),
  };
}

export const reachableFilter = (ctx: OpContext, id: string) => reachableInProject(ctx, Filter, id, 'Filter');

export async function saveFilter(
  ctx: OpContext,
  id: string | null,
  f: { name: string; description?: string | null; projectId: string },
) {
  const current = id ? await reachableFilter(ctx, id) : null;
  // A new filter, or one moved to another project: the project must take it.
  if (!current || current.projectId !== f.projectId) await reachableProject(ctx, f.projectId);
  const row: FilterRow = {
    ...(current ?? newBase(ctx.now())),
    name: f.name,
    description: f.description ?? null,
    projectId: f.projectId,
    modifiedDate: ctx.now(),
  };
  await ctx.db.getRepository(Filter).save(row);
  return filterDto(ctx, row);
}

/** Adds a step to a filter, or updates the step named by `valueId`; the target must be in an app of the project. */
export async function upsertFilterValue(
  ctx: OpContext,
  filterId: string,
  valueId: string | null | undefined,
  kind: FilterValueKind,
  targetId: string,
  data: { fieldValues?: string[]; variableValue?: string },
  field: string,
) {
  const filter = await reachableFilter(ctx, filterId);
  const metas = await projectApps(ctx, filter.projectId);
  if (!metas.length) throw badInput('Connect the project to an analytics app before adding filter values');
  if (!targetName(metas, kind, targetId))
    throw badInput(`No ${kind} ${targetId} in the project's apps`, [{ field, message: `unknown ${kind}` }]);
  const repo = ctx.db.getRepository(FilterValue);
  let row: FilterValueRow | null = null;
  if (valueId) {
    row = await repo.findOneBy({ id: valueId, filterId });
    if (!row) throw notFound(`Filter value ${valueId}`);
  }
  const count = await repo.countBy({ filterId });
  const next: FilterValueRow = {
    ...(row ?? { ...newBase(ctx.now()), filterId, order: count }),
    kind,
    targetId,
    fieldValues: data.fieldValues ?? null,
    variableValue: data.variableValue ?? null,
    modifiedDate: ctx.now(),
  };
  await repo.save(next);
  return filterDto(ctx, filter);
}

/** Moves a step up or down, keeping the order dense. */
export async function reorderFilterValue(ctx: OpContext, filterId: string, valueId: string, direction: 'up' | 'down') {
  const filter = await reachableFilter(ctx, filterId);
  const repo = ctx.db.getRepository(FilterValue);
  const values = await repo.find({ where: { filterId }, order: { order: 'ASC' } });
  const i = values.findIndex((x) => x.id === valueId);
  if (i < 0) throw notFound(`Filter value ${valueId}`);
  const j = direction === 'up' ? i - 1 : i + 1;
  if (j >= 0 && j < values.length) [values[i], values[j]] = [values[j], values[i]];
  await ctx.db.transaction(async (m) => {
    for (const [k, v] of values.entries()) await m.getRepository(FilterValue).update(v.id, { order: k });
  });
  return filterDto(ctx, filter);
}

export interface ResolvedFilters {
  selections: Selections;
  variables: Record<string, string>;
}

/**
 * Applies filters in order on one app: a bookmark sets its selections, field values replace the
 * field's selection, a variable value replaces the variable's definition.
 */
export async function resolveFilters(
  ctx: OpContext,
  filterIds: string[],
  meta: AppMeta,
  start: Selections = {},
): Promise<ResolvedFilters> {
  const selections: Selections = { ...start };
  const variables: Record<string, string> = {};
  for (const filterId of filterIds) {
    const filter = await ctx.db.getRepository(Filter).findOneBy({ id: filterId });
    if (!filter) throw badInput(`Filter ${filterId} no longer exists`);
    const values = await ctx.db.getRepository(FilterValue).find({ where: { filterId }, order: { order: 'ASC' } });
    for (const v of values) {
      const missing = () =>
        badInput(`Filter "${filter.name}" refers to a ${v.kind} that is not in the app "${meta.name}"`);
      if (v.kind === 'field') {
        const field = meta.fields.find((f) => f.id === v.targetId);
        if (!field) throw missing();
        selections[field.name] = v.fieldValues ?? [];
      } else if (v.kind === 'bookmark') {
        const b = meta.bookmarks.find((x) => x.id === v.targetId);
        if (!b) throw missing();
        Object.assign(selections, b.selections);
      } else {
        const variable = meta.variables.find((x) => x.id === v.targetId);
        if (!variable) throw missing();
        variables[variable.name] = v.variableValue ?? '';
      }
    }
  }
  return { selections, variables };
}

/** A copy of a filter, with its values in order, in a project the caller reaches. */
export async function duplicateFilter(
  ctx: OpContext,
  id: string,
  target: { projectId: string; organizationId: string },
) {
  const source = await reachableFilter(ctx, id);
  const project = await duplicateTarget(ctx, target.projectId, target.organizationId);
  const copy = {
    ...newBase(ctx.now()),
    projectId: project.id,
    name: `${source.name} (copy)`,
    description: source.description,
  };
  const values = await ctx.db
    .getRepository(FilterValue)
    .find({ where: { filterId: source.id }, order: { order: 'ASC' } });
  await ctx.db.transaction(async (m) => {
    await m.getRepository(Filter).insert(copy);
    if (values.length)
      await m
        .getRepository(FilterValue)
        .insert(values.map((val) => ({ ...val, ...newBase(ctx.now()), filterId: copy.id })));
  });
  return filterDto(ctx, copy);
}

/** Removes steps of a filter; the others keep their order, renumbered without gaps. */
export async function deleteFilterValues(ctx: OpContext, id: string, valueIds: string[]) {
  const filter = await reachableFilter(ctx, id);
  await ctx.db.transaction(async (m) => {
    if (valueIds.length) await m.getRepository(FilterValue).delete({ filterId: filter.id, id: In(valueIds) });
    const rest = await m.getRepository(FilterValue).find({ where: { filterId: filter.id }, order: { order: 'ASC' } });
    for (const [k, val] of rest.entries())
      if (val.order !== k) await m.getRepository(FilterValue).update(val.id, { order: k });
  });
  return filterDto(ctx, filter);
}

/** Filters of the projects the caller reaches (of one project when named), by name. */
export async function listFilters(ctx: OpContext, projectId?: string) {
  const qb = ctx.db.getRepository(Filter).createQueryBuilder('f').orderBy('LOWER(f.name)', 'ASC');
  if (projectId) qb.andWhere('f."projectId" = :p', { p: projectId });
  memberVisible(ctx, visibleProjects(ctx, qb, 'f."projectId"'), 'f', 'filter');
  return Promise.all((await qb.getMany()).map((f) => filterDto(ctx, f)));
}

/** The filters a report applies, in its order; a report outside the caller's projects is 404. */
export async function filtersOfReport(ctx: OpContext, reportId: string) {
  const qb = ctx.db.getRepository(Report).createQueryBuilder('r').where('r.id = :id', { id: reportId });
  const report = await memberVisible(ctx, visibleProjects(ctx, qb, 'r."projectId"'), 'r', 'report').getOne();
  if (!report) throw notFound(`Report ${reportId}`);
  const filters = report.filterIds.length
    ? await ctx.db.getRepository(Filter).findBy({ id: In(report.filterIds) })
    : [];
  const ordered = report.filterIds
    .map((fid) => filters.find((f) => f.id === fid))
    .filter((f): f is NonNullable<typeof f> => !!f);
  return Promise.all(ordered.map((f) => filterDto(ctx, f)));
}

/** Deletes a filter and its steps; refused while reports apply it, naming them. */
export async function deleteFilter(ctx: OpContext, id: string) {
  const filter = await reachableFilter(ctx, id);
  const users = (await ctx.db.getRepository(Report).findBy({ projectId: filter.projectId })).filter((r) =>
    r.filterIds.includes(id),
  );
  refuseWhileReportsUse(`The filter “${filter.name}”`, 'applied', users, (those) => `remove it from ${those}`);
  await ctx.db.transaction(async (tx) => {
    await tx.getRepository(FilterValue).delete({ filterId: id });
    await tx.getRepository(Filter).delete({ id });
  });
  return { deleted: 1 };
}
