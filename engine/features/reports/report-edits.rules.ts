import { In } from 'typeorm';
import type { OpContext } from '../../ops/context.js';
import { me } from '../../ops/context.js';
import { badInput } from '../../core/errors.js';
import { newBase } from '../../core/entity-base.js';
import type { ReportDocument } from '../../render/document.js';
import { validateDocument } from '../../render/validate-document.js';
import { connectionOfProject, sameAppConnectionIn } from '../connections/connections.rules.js';
import { Filter } from '../../model/filters.entity.js';
import { duplicateTarget } from '../projects/projects.rules.js';
import { Report, type DynamicName, type IterationField, type ReportRow } from '../../model/reports.entity.js';
import { ReportTemplate, templateRowFor } from '../../model/report-template.entity.js';
import { templateOf } from './report-templates.rules.js';
import { iterationFieldNames, reachableReport, reportApp, reportDto } from './reports.rules.js';

/**
 * A copy of a report in a project the caller reaches. Within the same project its connection and
 * filters carry over; elsewhere it reads through the target's connection to the same app, and
 * applies no filters (the source's belong to the source's project).
 */
export async function duplicateReport(
  ctx: OpContext,
  id: string,
  target: { projectId: string; organizationId: string },
) {
  const source = await reachableReport(ctx, id);
  const project = await duplicateTarget(ctx, target.projectId, target.organizationId);
  const sameProject = project.id === source.projectId;
  const connectionId =
    sameProject || !source.connectionId
      ? source.connectionId
      : await sameAppConnectionIn(ctx, project.id, source.connectionId);
  const by = me(ctx).user.id;
  const copy = {
    ...source,
    ...newBase(ctx.now()),
    projectId: project.id,
    connectionId,
    name: `${source.name} (copy)`,
    filterIds: sameProject ? source.filterIds : [],
    createdBy: by,
    modifiedBy: by,
  };
  const template = await templateOf(ctx, source);
  if (!template) await ctx.db.getRepository(Report).insert(copy);
  else
    // A template report's copy has its own file (a later upload to one leaves the other as it is).
    await ctx.db.transaction(async (m) => {
      await m.getRepository(Report).insert(copy);
      await m
        .getRepository(ReportTemplate)
        .insert(templateRowFor(copy.id, template.fileName, template.data, 1, by, copy.createdDate));
    });
  return reportDto(copy);
}

export interface ReportSettings {
  name: string;
  description?: string | null;
  isIteration: boolean;
  iterationFields?: IterationField[] | null;
  dynamicNameSeparator?: string | null;
  dynamicNames?: DynamicName[] | null;
}

/** A report's name, iteration and dynamic file names; an iterating report needs fields of its app. */
export async function updateReportSettings(ctx: OpContext, id: string, f: ReportSettings) {
  const row = await reachableReport(ctx, id);
  const iterationFields = f.iterationFields ?? row.iterationFields;
  if (f.isIteration) {
    if (!iterationFields.length)
      throw badInput('An iterating report needs at least one iteration field', [
        { field: 'body.iterationFields', message: 'is required when isIteration is true' },
      ]);
    iterationFieldNames((await reportApp(ctx, row)).meta, iterationFields);
  }
  Object.assign(row, {
    name: f.name,
    description: f.description ?? null,
    isIteration: f.isIteration,
    iterationFields,
    dynamicNameSeparator: f.dynamicNameSeparator === undefined ? row.dynamicNameSeparator : f.dynamicNameSeparator,
    dynamicNames: f.dynamicNames ?? row.dynamicNames,
    modifiedDate: ctx.now(),
    modifiedBy: me(ctx).user.id,
  });
  await ctx.db.getRepository(Report).save(row);
  return reportDto(row);
}

/** A report's connection and filters as a draft has them, checked to be the project's (not saved here). */
export interface DraftSettings {
  connectionId?: string | null;
  filterIds?: string[];
  isIteration?: boolean;
  iterationFields?: IterationField[];
}
export async function withDraftSettings(ctx: OpContext, r: ReportRow, f: DraftSettings): Promise<ReportRow> {
  const next = { ...r };
  if (f.isIteration !== undefined) next.isIteration = f.isIteration;
  if (f.iterationFields) next.iterationFields = f.iterationFields;
  if (f.connectionId !== undefined && f.connectionId !== null)
    next.connectionId = (await connectionOfProject(ctx, r.projectId, f.connectionId, 'body.connectionId')).id;
  if (f.filterIds) {
    const found = f.filterIds.length
      ? await ctx.db.getRepository(Filter).findBy({ id: In(f.filterIds), projectId: r.projectId })
      : [];
    if (f.filterIds.some((fid) => !found.some((x) => x.id === fid)))
      throw badInput("A filter chosen is not one of the project's", [
        { field: 'body.filterIds', message: "must be filters of the report's project" },
      ]);
    next.filterIds = f.filterIds;
  }
  return next;
}

/** Saves the designer's work in one write: the document (checked against the app), data, filters, iteration. */
export async function saveReportDocument(
  ctx: OpContext,
  id: string,
  f: DraftSettings & { document: ReportDocument; dynamicNameSeparator?: string | null; dynamicNames?: DynamicName[] },
) {
  const r = await withDraftSettings(ctx, await reachableReport(ctx, id), f);
  const meta = r.connectionId ? (await reportApp(ctx, r)).meta : null;
  if (meta) validateDocument(ctx.analytics, meta, f.document);
  if (r.isIteration) {
    if (!r.iterationFields.length)
      throw badInput('An iterating report needs at least one iteration field', [
        { field: 'body.iterationFields', message: 'choose the field whose values make one file each' },
      ]);
    if (meta) iterationFieldNames(meta, r.iterationFields);
  }
  r.document = f.document;
  if (f.dynamicNameSeparator !== undefined) r.dynamicNameSeparator = f.dynamicNameSeparator;
  if (f.dynamicNames) r.dynamicNames = f.dynamicNames;
  r.modifiedDate = ctx.now();
  r.modifiedBy = me(ctx).user.id;
  await ctx.db.getRepository(Report).save(r);
  return { ...reportDto(r), document: r.document };
}
