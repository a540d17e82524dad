import { z } from 'zod';
import { In } from 'typeorm';
import type { OpContext } from '../../core/context.js';
import { newBase } from '../../core/entity-base.js';
import { badInput } from '../../core/errors.js';
import { ReportDocumentSchema } from '../../render/document.js';
import { AnalyticsApp } from '../analytics-apps/analytics-apps.entity.js';
import { Connection } from '../connections/connections.entity.js';
import { Filter, FilterValue } from '../filters/filters.entity.js';
import { Report } from '../reports/reports.entity.js';
import { createProject } from './projects.rules.js';
import type { ProjectRow } from './projects.entity.js';

export const PROJECT_FILE_FORMAT = 'broadsheet-project';

/** The single file a project exports to and imports from: its content, with ids local to the file. */
export const ProjectFile = z.object({
  format: z.literal(PROJECT_FILE_FORMAT),
  version: z.literal(1),
  project: z.object({ name: z.string().trim().min(1).max(300), description: z.string().max(5000).nullable() }),
  connections: z.array(z.object({ ref: z.string(), name: z.string().min(1).max(300), appId: z.string().min(1).max(64) })).max(100),
  filters: z.array(z.object({
    ref: z.string(), name: z.string().min(1).max(300), description: z.string().nullable(),
    values: z.array(z.object({ kind: z.enum(['field', 'variable', 'bookmark']), targetId: z.string(), fieldValues: z.array(z.string()).nullable(), variableValue: z.string().nullable(), order: z.number().int() })).max(1000),
  })).max(1000),
  reports: z.array(z.object({
    name: z.string().min(1).max(300), description: z.string().nullable(), type: z.enum(['Excel', 'Word', 'PowerPoint', 'Html']), connectionRef: z.string().nullable(),
    isIteration: z.boolean(), iterationFields: z.array(z.object({ fieldID: z.string(), order: z.number().int() })),
    dynamicNameSeparator: z.string().nullable(), dynamicNames: z.array(z.object({ itemType: z.string(), value: z.string(), order: z.number().int(), variableAnalyticsAppID: z.string().nullable().optional() })),
    document: ReportDocumentSchema, filterRefs: z.array(z.string()),
  })).max(5000),
});
export type ProjectFileData = z.output<typeof ProjectFile>;

export async function exportProject(ctx: OpContext, project: ProjectRow): Promise<ProjectFileData> {
  const connections = await ctx.db.getRepository(Connection).findBy({ projectId: project.id });
  const apps = connections.length ? await ctx.db.getRepository(AnalyticsApp).findBy({ id: In(connections.map((c) => c.analyticsAppId)) }) : [];
  const filters = await ctx.db.getRepository(Filter).findBy({ projectId: project.id });
  const values = filters.length ? await ctx.db.getRepository(FilterValue).findBy({ filterId: In(filters.map((f) => f.id)) }) : [];
  const reports = await ctx.db.getRepository(Report).findBy({ projectId: project.id });
  return {
    format: PROJECT_FILE_FORMAT,
    version: 1,
    project: { name: project.name, description: project.description },
    connections: connections.map((c) => ({ ref: c.id, name: c.name, appId: apps.find((a) => a.id === c.analyticsAppId)!.appId })),
    filters: filters.map((f) => ({
      ref: f.id, name: f.name, description: f.description,
      values: values.filter((v) => v.filterId === f.id).map((v) => ({ kind: v.kind, targetId: v.targetId, fieldValues: v.fieldValues, variableValue: v.variableValue, order: v.order })),
    })),
    reports: reports.map((r) => ({
      name: r.name, description: r.description, type: r.type, connectionRef: r.connectionId, isIteration: r.isIteration, iterationFields: r.iterationFields,
      dynamicNameSeparator: r.dynamicNameSeparator, dynamicNames: r.dynamicNames, document: r.document, filterRefs: r.filterIds,
    })),
  };
}

/** Creates a new project from a project file; its connections must name apps registered here. */
export async function importProject(ctx: OpContext, file: ProjectFileData, organizationId: string) {
  const apps = await ctx.db.getRepository(AnalyticsApp).find();
  const missing = file.connections.find((c) => !apps.some((a) => a.appId === c.appId));
  if (missing) throw badInput(`The project needs the analytics app "${missing.appId}", which is not registered here`, [{ field: 'body.connections', message: `unknown app ${missing.appId}` }]);
  return ctx.db.transaction(async (m) => {
    const project = await createProject(ctx, { name: file.project.name, description: file.project.description, organizationId }, m);
    const connIds = new Map<string, string>();
    for (const c of file.connections) {
      const row = { ...newBase(ctx.now()), projectId: project.id, name: c.name, analyticsAppId: apps.find((a) => a.appId === c.appId)!.id };
      await m.getRepository(Connection).insert(row);
      connIds.set(c.ref, row.id);
    }
    const filterIds = new Map<string, string>();
    for (const f of file.filters) {
      const row = { ...newBase(ctx.now()), projectId: project.id, name: f.name, description: f.description };
      await m.getRepository(Filter).insert(row);
      filterIds.set(f.ref, row.id);
      for (const v of f.values) await m.getRepository(FilterValue).insert({ ...newBase(ctx.now()), filterId: row.id, ...v });
    }
    for (const r of file.reports) {
      await m.getRepository(Report).insert({
        ...newBase(ctx.now()), projectId: project.id, connectionId: r.connectionRef ? (connIds.get(r.connectionRef) ?? null) : null, name: r.name, description: r.description,
        type: r.type, isIteration: r.isIteration, iterationFields: r.iterationFields, dynamicNameSeparator: r.dynamicNameSeparator,
        dynamicNames: r.dynamicNames.map((d) => ({ ...d, variableAnalyticsAppID: d.variableAnalyticsAppID ?? null })), document: r.document,
        filterIds: r.filterRefs.map((x) => filterIds.get(x)).filter((x): x is string => !!x), createdBy: ctx.principal?.user.id ?? null, modifiedBy: ctx.principal?.user.id ?? null,
      });
    }
    return project;
  });
}
