import { lazySchema } from '../../core/lazy-schema.js';
import { z } from 'zod';
import { randomUUID } from 'node:crypto';
import { In, type EntitySchema, type ObjectLiteral } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { newBase } from '../../core/entity-base.js';
import { badInput } from '../../core/errors.js';
import { ReportDocumentSchema } from '../../render/document.js';
import { AnalyticsApp } from '../../model/analytics-apps.entity.js';
import { Connection } from '../../model/connections.entity.js';
import { Filter, FilterValue } from '../../model/filters.entity.js';
import { Report } from '../../model/reports.entity.js';
import { ReportTemplate, templateRowFor, type ReportTemplateRow } from '../../model/report-template.entity.js';
import { TYPE_OF_FORMAT } from '../../render/templates/template-check.js';
import { safeFileName } from '../../core/file-result.js';
import { createProject } from './projects.rules.js';
import { Project, type ProjectRow } from '../../model/projects.entity.js';
import { memberVisible } from '../../access/member-access.js';

export const PROJECT_FILE_FORMAT = 'broadsheet-project';

/** The single file a project exports to and imports from: its content, with ids local to the file. */
export const ProjectFile = lazySchema(() =>
  z.object({
    format: z.literal(PROJECT_FILE_FORMAT),
    version: z.literal(1),
    project: z.object({ name: z.string().trim().min(1).max(300), description: z.string().max(5000).nullable() }),
    connections: z
      .array(z.object({ ref: z.string().max(64), name: z.string().min(1).max(300), appId: z.string().min(1).max(64) }))
      .max(100),
    filters: z
      .array(
        z.object({
          ref: z.string().max(64),
          name: z.string().min(1).max(300),
          description: z.string().max(5000).nullable(),
          values: z
            .array(
              z.object({
                kind: z.enum(['field', 'variable', 'bookmark']),
                targetId: z.string().max(64),
                fieldValues: z.array(z.string().max(1000)).max(10_000).nullable(),
                variableValue: z.string().max(4000).nullable(),
                order: z.number().int(),
              }),
            )
            .max(1000),
        }),
      )
      .max(1000),
    reports: z
      .array(
        z.object({
          name: z.string().min(1).max(300),
          description: z.string().max(5000).nullable(),
          type: z.enum(['Excel', 'Word', 'PowerPoint', 'Html']),
          connectionRef: z.string().max(64).nullable(),
          isIteration: z.boolean(),
          iterationFields: z.array(z.object({ fieldID: z.string().max(64), order: z.number().int() })).max(5),
          dynamicNameSeparator: z.string().max(10).nullable(),
          dynamicNames: z
            .array(
              z.object({
                itemType: z.string().max(64),
                value: z.string().max(200),
                order: z.number().int(),
                variableAnalyticsAppID: z.string().max(64).nullable().optional(),
              }),
            )
            .max(20),
          document: ReportDocumentSchema,
          filterRefs: z.array(z.string().max(64)).max(1000),
          /** A template report's file, in base64 (checked again on import as on upload). */
          template: z
            .object({ fileName: z.string().min(1).max(255), content: z.string().max(40_000_000) })
            .nullable()
            .optional(),
        }),
      )
      .max(5000),
  }),
);
export type ProjectFileData = z.output<typeof ProjectFile>;

export async function exportProject(ctx: OpContext, project: ProjectRow): Promise<ProjectFileData> {
  const connections = await ctx.db.getRepository(Connection).findBy({ projectId: project.id });
  const apps = connections.length
    ? await ctx.db.getRepository(AnalyticsApp).findBy({ id: In(connections.map((c) => c.analyticsAppId)) })
    : [];
  // What a member may not view is not in their export either (permissions mode).
  const filters = await memberVisible(
    ctx,
    ctx.db.getRepository(Filter).createQueryBuilder('f').where('f."projectId" = :p', { p: project.id }),
    'f',
    'filter',
  ).getMany();
  const values = filters.length
    ? await ctx.db.getRepository(FilterValue).findBy({ filterId: In(filters.map((f) => f.id)) })
    : [];
  const reports = await memberVisible(
    ctx,
    ctx.db.getRepository(Report).createQueryBuilder('r').where('r."projectId" = :p', { p: project.id }),
    'r',
    'report',
  ).getMany();
  const exported = new Set(filters.map((f) => f.id));
  const templates = reports.some((r) => r.templateFile)
    ? await ctx.db
        .getRepository(ReportTemplate)
        .findBy({ reportId: In(reports.filter((r) => r.templateFile).map((r) => r.id)) })
    : [];
  return {
    format: PROJECT_FILE_FORMAT,
    version: 1,
    project: { name: project.name, description: project.description },
    connections: connections.map((c) => ({
      ref: c.id,
      name: c.name,
      appId: apps.find((a) => a.id === c.analyticsAppId)!.appId,
    })),
    filters: filters.map((f) => ({
      ref: f.id,
      name: f.name,
      description: f.description,
      values: values
        .filter((v) => v.filterId === f.id)
        .map((v) => ({
          kind: v.kind,
          targetId: v.targetId,
          fieldValues: v.fieldValues,
          variableValue: v.variableValue,
          order: v.order,
        })),
    })),
    reports: reports.map((r) => ({
      name: r.name,
      description: r.description,
      type: r.type,
      connectionRef: r.connectionId,
      isIteration: r.isIteration,
      iterationFields: r.iterationFields,
      dynamicNameSeparator: r.dynamicNameSeparator,
      dynamicNames: r.dynamicNames,
      document: r.document,
      filterRefs: r.filterIds.filter((id) => exported.has(id)),
      template: templateOfRow(templates, r.id),
    })),
  };
}

function templateOfRow(templates: ReportTemplateRow[], reportId: string) {
  const t = templates.find((x) => x.reportId === reportId);
  return t ? { fileName: t.fileName, content: t.data.toString('base64') } : null;
}

/** Each report's template from a project file, checked as an upload is (format, limits, hazards, tag syntax). */
async function importedTemplates(ctx: Pick<OpContext, 'renders'>, file: ProjectFileData) {
  return Promise.all(
    file.reports.map(async (r, i) => {
      if (!r.template) return null;
      const bytes = Buffer.from(r.template.content, 'base64');
      const scan = await ctx.renders.scanTemplate(bytes, r.template.fileName).catch((e: Error) => {
        throw badInput(`The template of report "${r.name}" is refused: ${e.message}`, [
          { field: `body.reports.${i}.template`, message: e.message },
        ]);
      });
      if (TYPE_OF_FORMAT[scan.format] !== r.type)
        throw badInput(`The template of report "${r.name}" is not a ${r.type} file`, [
          { field: `body.reports.${i}.template.fileName`, message: `must be a ${r.type} template` },
        ]);
      if (scan.problems.length)
        throw badInput(
          `The template of report "${r.name}" has problems: ${scan.problems[0].where} ${scan.problems[0].message}`,
          scan.problems.map((p) => ({
            field: `body.reports.${i}.template`,
            message: `${p.where}: ${p.tag} ${p.message}`,
          })),
        );
      return { fileName: safeFileName(r.template.fileName), bytes };
    }),
  );
}

/** Rows per write chunk: small enough that a chunk takes well under a second, so short writes slip in between. */
const CHUNK_ROWS = 1000;

/**
 * Creates a new project from a project file; its connections must name apps registered here.
 * The project is written in chunks, each its own short write on the main queue, and stays hidden
 * (`importing`) until the last one is in; a failure removes what was written, and a crash leaves
 * a hidden project that the next start removes.
 */
export async function importProject(ctx: OpContext, file: ProjectFileData, organizationId: string) {
  const apps = await ctx.db.getRepository(AnalyticsApp).find();
  const missing = file.connections.find((c) => !apps.some((a) => a.appId === c.appId));
  if (missing)
    throw badInput(`The project needs the analytics app "${missing.appId}", which is not registered here`, [
      { field: 'body.connections', message: `unknown app ${missing.appId}` },
    ]);
  const project = await ctx.write(() =>
    createProject(ctx, {
      name: file.project.name,
      description: file.project.description,
      organizationId,
      importing: true,
    }),
  );
  const by = ctx.principal?.user.id ?? null;
  try {
    const connIds = new Map<string, string>(file.connections.map((c) => [c.ref, randomUUID()]));
    const filterIds = new Map<string, string>(file.filters.map((f) => [f.ref, randomUUID()]));
    const connections = file.connections.map((c) => ({
      ...newBase(ctx.now()),
      id: connIds.get(c.ref)!,
      projectId: project.id,
      name: c.name,
      analyticsAppId: apps.find((a) => a.appId === c.appId)!.id,
    }));
    const filters = file.filters.map((f) => ({
      ...newBase(ctx.now()),
      id: filterIds.get(f.ref)!,
      projectId: project.id,
      name: f.name,
      description: f.description,
    }));
    const values = file.filters.flatMap((f) =>
      f.values.map((v) => ({ ...newBase(ctx.now()), filterId: filterIds.get(f.ref)!, ...v })),
    );
    // Templates are hostile input however they arrive: the same checks as an upload, before any write.
    const templates = await importedTemplates(ctx, file);
    const reports = file.reports.map((r, i) => ({
      ...newBase(ctx.now()),
      projectId: project.id,
      connectionId: r.connectionRef ? (connIds.get(r.connectionRef) ?? null) : null,
      name: r.name,
      description: r.description,
      type: r.type,
      isIteration: r.isIteration,
      iterationFields: r.iterationFields,
      dynamicNameSeparator: r.dynamicNameSeparator,
      dynamicNames: r.dynamicNames.map((d) => ({ ...d, variableAnalyticsAppID: d.variableAnalyticsAppID ?? null })),
      document: r.document,
      filterIds: r.filterRefs.map((x) => filterIds.get(x)).filter((x): x is string => !!x),
      templateFile: templates[i]?.fileName ?? null,
      createdBy: by,
      modifiedBy: by,
    }));
    await insertInChunks(ctx, Connection, connections);
    await insertInChunks(ctx, Filter, filters);
    await insertInChunks(ctx, FilterValue, values);
    // Documents can be large: fewer reports a chunk.
    // The file rows are made before the reports are written: TypeORM's multi-row insert on SQLite
    // writes its idea of the inserted keys back into the objects, which would pair files wrongly.
    const templateRows = reports.flatMap((r, i) =>
      templates[i] ? [templateRowFor(r.id, templates[i]!.fileName, templates[i]!.bytes, 1, by, ctx.now())] : [],
    );
    await insertInChunks(ctx, Report, reports, 50);
    // One file a write: a template may be 25 MiB, and the writes of others slip in between.
    await insertInChunks(ctx, ReportTemplate, templateRows, 1);
    await ctx.write(() => ctx.db.getRepository(Project).update(project.id, { importing: false }));
    return { ...project, importing: false };
  } catch (e) {
    await ctx.write(() => ctx.db.getRepository(Project).delete(project.id));
    throw e;
  }
}

async function insertInChunks<T extends ObjectLiteral>(
  ctx: OpContext,
  entity: EntitySchema<T>,
  rows: T[],
  size = CHUNK_ROWS,
) {
  for (let i = 0; i < rows.length; i += size) {
    const chunk = rows.slice(i, i + size);
    // Several hundred rows a statement: SQLite binds at most 32,766 values in one.
    await ctx.write(() =>
      ctx.db.transaction(async (m) => {
        for (let j = 0; j < chunk.length; j += 200)
          await m.getRepository(entity).insert(chunk.slice(j, j + 200) as never);
      }),
    );
  }
}
