import { z } from 'zod';
import { withSetBIdsSchema } from '../../core/set-b-names.js';
import { ReportResult } from './reports.rules.js';
import { ReportDocumentSchema } from '../../render/document.js';

// What this feature's operations answer in `data` (for a list: one item); see `result` on defineOp.

export const TemplatePart = z.object({
  fileName: z.string(),
  size: z.number(),
  sha256: z.string(),
  version: z.number(),
  modifiedDate: z.string(),
});

/** A report with its designer document and its template file (a template report). */
export const ReportsGetResult = ReportResult.extend({
  document: ReportDocumentSchema,
  template: TemplatePart.nullable(),
});

export const ReportsSaveDocumentResult = ReportResult.extend({ document: ReportDocumentSchema });

export const ReportsPreviewResult = z.object({
  html: z.string(),
  iterating: z.boolean(),
  iterationValues: z.array(z.array(z.string())),
  iterationValue: z.array(z.string()).nullable(),
});

const TagsFound = z.array(z.object({ tag: z.string(), where: z.string() }));

export const ReportsCreateFromTemplateResult = ReportResult.extend({
  template: z.object({ fileName: z.string(), size: z.number(), version: z.number() }),
  tags: TagsFound,
});

export const ReportsUploadTemplateResult = ReportResult.extend({ template: TemplatePart, tags: TagsFound });

export const ReportsCheckTemplateResult = z.object({
  fileName: z.string(),
  format: z.enum(['xlsx', 'html', 'docx', 'pptx']),
  tags: z.array(z.object({ tag: z.string(), where: z.string() })),
});

/** One object of the template palette in the reference shape: `itemID` is the tag to paste; objects nest (a sheet's charts, a chart's columns). */
export const TemplateItemResult = z.object({
  id: z.string(),
  itemID: z.string(),
  title: z.string(),
  type: z.string(),
  get objects(): z.ZodNullable<z.ZodArray<typeof TemplateItemResult>> {
    return z.array(TemplateItemResult).nullable();
  },
  columns: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
});

export const TemplateItemsResult = z.object({
  nodes: z.array(
    z.object({ name: z.string(), type: z.string(), icon: z.string(), objects: z.array(TemplateItemResult) }),
  ),
});

export const ReportBResult = withSetBIdsSchema(ReportResult, 'projectId', 'connectionId');
