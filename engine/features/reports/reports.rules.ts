import { memberVisible } from '../../access/member-access.js';
import { z } from 'zod';
import type { OpContext } from '../../ops/context.js';
import { me } from '../../ops/context.js';
import { iso, newBase } from '../../core/entity-base.js';
import { badInput } from '../../core/errors.js';
import type { ListSpec } from '../../core/list-query.js';
import { v } from '../../core/validation.js';
import { formatsOf, REPORT_TYPES } from '../../render/formats.js';
import { EMPTY_DOCUMENT, type ReportDocument } from '../../render/document.js';
import type { AppMeta } from '../../analytics/model.js';
import { Connection } from '../../model/connections.entity.js';
import { providerAppId } from '../analytics-apps/analytics-apps.rules.js';
import { reachableInProject, reachableProject, visibleProjects } from '../../access/project-reach.js';
import { connectionOfProject, firstConnectionOf } from '../connections/connections.rules.js';
import { Report, type IterationField, type ReportRow, type ReportType } from '../../model/reports.entity.js';
import { ReportTemplate, templateRowFor } from '../../model/report-template.entity.js';
import { pageOf, ListQuery } from '../../core/list-query.js';
import { lazySchema } from '../../core/lazy-schema.js';

export const reportType = () =>
  z
    .string()
    .max(40)
    .transform((s, c) => {
      const t = REPORT_TYPES.find((x) => x.toLowerCase() === s.trim().toLowerCase());
      if (!t) c.addIssue({ code: 'custom', message: `must be one of: ${REPORT_TYPES.join(', ')}` });
      return (t ?? 'Word') as ReportType;
    });

export const IterationFieldsInput = z.array(z.object({ fieldID: v.uuid(), order: v.int() })).max(5);
export const DynamicNamesInput = z
  .array(
    z.object({ itemType: v.text(), value: z.string().max(200), order: v.int(), variableAnalyticsAppID: v.nuuid() }),
  )
  .max(20);

export const LIST_REPORTS: ListSpec = {
  sort: {
    Name: 'LOWER(r.name)',
    Description: 'LOWER(r.description)',
    Type: 'r.type',
    'Project.Name': '(SELECT LOWER(p.name) FROM projects p WHERE p.id = r."projectId")',
    IsIteration: 'r."isIteration"',
  },
  defaultSort: { by: 'Name', direction: 'asc' },
  text: { name: 'r.name', description: 'r.description', type: 'r.type' },
  // `projectId` is how the reference product's public clients ask for one project's reports.
  uuid: { project_id: 'r."projectId"', projectId: 'r."projectId"' },
};

/** A report as answered: the reference's fields, its output formats and, for a template report, its file's name. */
export const ReportResult = lazySchema(() =>
  z.object({
    id: z.guid(),
    projectId: z.guid(),
    connectionId: z.guid().nullable(),
    name: z.string(),
    description: z.string().nullable(),
    type: z.enum(REPORT_TYPES as [ReportType, ...ReportType[]]),
    outputFormats: z.array(z.string()),
    templateFile: z.string().nullable(),
    isIteration: z.boolean(),
    iterationFields: z.array(z.object({ fieldID: z.string(), order: z.number().int() })),
    dynamicNameSeparator: z.string().nullable(),
    dynamicNames: z.array(
      z.object({
        itemType: z.string(),
        value: z.string(),
        order: z.number().int(),
        variableAnalyticsAppID: z.string().nullable(),
      }),
    ),
    filterIds: z.array(z.guid()),
    createdDate: z.iso.datetime().nullable(),
    modifiedDate: z.iso.datetime().nullable(),
  }),
);

export function reportDto(r: ReportRow): z.output<typeof ReportResult> {
  return {
    id: r.id,
    projectId: r.projectId,
    connectionId: r.connectionId,
    name: r.name,
    description: r.description,
    type: r.type,
    outputFormats: formatsOf(r),
    templateFile: r.templateFile ?? null,
    isIteration: r.isIteration,
    iterationFields: r.iterationFields,
    dynamicNameSeparator: r.dynamicNameSeparator,
    // A name part without an app variable answers null there: the interface names the field on every part.
    dynamicNames: r.dynamicNames.map((d) => ({ ...d, variableAnalyticsAppID: d.variableAnalyticsAppID ?? null })),
    filterIds: r.filterIds,
    createdDate: iso(r.createdDate),
    modifiedDate: iso(r.modifiedDate),
  };
}

export const reachableReport = (ctx: OpContext, id: string): Promise<ReportRow> =>
  reachableInProject(ctx, Report, id, 'Report');

/** The provider's app id and metadata behind a report's connection (or the app named instead). */
export async function reportApp(
  ctx: OpContext,
  report: ReportRow,
  overrideAppId?: string | null,
): Promise<{ appId: string; meta: AppMeta }> {
  if (overrideAppId) return { appId: overrideAppId, meta: await ctx.analytics.meta(overrideAppId) };
  if (!report.connectionId)
    throw badInput(`The report "${report.name}" has no connection; connect it to an analytics app`, [
      { field: 'connectionId', message: 'is not set' },
    ]);
  const conn = await ctx.db.getRepository(Connection).findOneBy({ id: report.connectionId });
  if (!conn) throw badInput("The report's connection no longer exists");
  const appId = await providerAppId(ctx, conn.analyticsAppId);
  return { appId, meta: await ctx.analytics.meta(appId) };
}

/** Iteration fields by name, checked against the app: a missing field is a clear 400. */
export function iterationFieldNames(meta: AppMeta, fields: IterationField[], input = 'body.iterationFields'): string[] {
  return [...fields]
    .sort((a, b) => a.order - b.order)
    .map((f, i) => {
      const field = meta.fields.find((x) => x.id === f.fieldID);
      if (!field)
        throw badInput(`Iteration field ${f.fieldID} is not a field of the app "${meta.name}"`, [
          { field: `${input}.${i}.fieldID`, message: 'is not a field of the app' },
        ]);
      return field.name;
    });
}

/** Creates a report; a template report comes with its checked file, written in the same transaction. */
export async function createReport(
  ctx: OpContext,
  f: {
    name: string;
    description?: string | null;
    projectId: string;
    type: ReportType;
    connectionId?: string | null;
    document?: ReportDocument;
    template?: { fileName: string; bytes: Buffer };
  },
) {
  await reachableProject(ctx, f.projectId);
  const connectionId = f.connectionId
    ? (await connectionOfProject(ctx, f.projectId, f.connectionId, 'body.connectionID')).id
    : ((await firstConnectionOf(ctx, f.projectId))?.id ?? null);
  const row: ReportRow = {
    ...newBase(ctx.now()),
    projectId: f.projectId,
    connectionId,
    name: f.name,
    description: f.description ?? null,
    type: f.type,
    isIteration: false,
    iterationFields: [],
    dynamicNameSeparator: null,
    dynamicNames: [],
    document: f.document ?? { ...EMPTY_DOCUMENT, blocks: [{ id: 'title', type: 'heading', text: f.name, level: 1 }] },
    filterIds: [],
    templateFile: f.template?.fileName ?? null,
    createdBy: me(ctx).user.id,
    modifiedBy: me(ctx).user.id,
  };
  const template = f.template;
  if (!template) await ctx.db.getRepository(Report).insert(row);
  else
    await ctx.db.transaction(async (m) => {
      await m.getRepository(Report).insert(row);
      await m
        .getRepository(ReportTemplate)
        .insert(templateRowFor(row.id, template.fileName, template.bytes, 1, row.createdBy, row.createdDate));
    });
  return row;
}

/** The reports of the projects the caller reaches, one page. */
export async function listReports(ctx: OpContext, list: ListQuery) {
  return pageOf(
    memberVisible(
      ctx,
      visibleProjects(ctx, ctx.db.getRepository(Report).createQueryBuilder('r'), 'r."projectId"'),
      'r',
      'report',
    ),
    LIST_REPORTS,
    list,
    'r.id',
    reportDto,
  );
}

/** Deletes a report of a project the caller reaches; its document, iteration and names go with it. */
export async function deleteReport(ctx: OpContext, id: string) {
  await reachableReport(ctx, id);
  await ctx.db.getRepository(Report).delete({ id });
  return { deleted: 1 };
}
