import { z } from 'zod';
import { withSetBIdsSchema } from '../../core/set-b-names.js';
import { ReportResult } from './reports.rules.js';
import { ReportDocumentSchema } from '../../render/document.js';
import { lazySchema } from '../../core/lazy-schema.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const TemplatePart = lazySchema(() =>
  z.object({
    fileName: z.string(),
    size: z.number(),
    sha256: z.string(),
    version: z.number(),
    modifiedDate: z.string(),
  }),
);

/** A report with its designer document and its template file (a template report). */
export const ReportsGetResult = lazySchema(() =>
  ReportResult.extend({
    document: ReportDocumentSchema,
    template: TemplatePart.nullable(),
  }),
);

export const ReportsSaveDocumentResult = lazySchema(() => ReportResult.extend({ document: ReportDocumentSchema }));

export const ReportsPreviewResult = lazySchema(() =>
  z.object({
    html: z.string(),
    iterating: z.boolean(),
    iterationValues: z.array(z.array(z.string())),
    iterationValue: z.array(z.string()).nullable(),
    /** Said when the selections leave no data (the preview is of an empty report), else null. */
    warning: z.string().nullable(),
  }),
);

const TagsFound = lazySchema(() => z.array(z.object({ tag: z.string(), where: z.string() })));

export const ReportsCreateFromTemplateResult = lazySchema(() =>
  ReportResult.extend({
    template: z.object({ fileName: z.string(), size: z.number(), version: z.number() }),
    tags: TagsFound,
  }),
);

export const ReportsUploadTemplateResult = lazySchema(() =>
  ReportResult.extend({ template: TemplatePart, tags: TagsFound }),
);

export const ReportsCheckTemplateResult = lazySchema(() =>
  z.object({
    fileName: z.string(),
    format: z.enum(['xlsx', 'html', 'docx', 'pptx']),
    tags: z.array(z.object({ tag: z.string(), where: z.string() })),
  }),
);

/**
 * One object of the template palette in the reference shape: `itemID` is the tag to paste; objects
 * nest (a sheet's charts, a chart's columns).
 */
export const TemplateItemResult = lazySchema(() =>
  z.object({
    id: z.string(),
    itemID: z.string(),
    title: z.string(),
    type: z.string(),
    get objects(): z.ZodNullable<z.ZodArray<typeof TemplateItemResult>> {
      return z.array(TemplateItemResult).nullable();
    },
    columns: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
  }),
);

export const TemplateItemsResult = lazySchema(() =>
  z.object({
    nodes: z.array(
      z.object({ name: z.string(), type: z.string(), icon: z.string(), objects: z.array(TemplateItemResult) }),
    ),
  }),
);

export const ReportBResult = lazySchema(() => withSetBIdsSchema(ReportResult, 'projectId', 'connectionId'));
