import type { OpContext } from '../../ops/context.js';
import { me } from '../../ops/context.js';
import { badInput } from '../../core/errors.js';
import { FileResult, safeFileName } from '../../core/file-result.js';
import {
  checkAgainstApp,
  templateProblemsError,
  TYPE_OF_FORMAT,
  type ScannedTemplate,
} from '../../render/templates/template-check.js';
import { tagText } from '../../render/templates/tags.js';
import { resolveFilters } from '../filters/filters.rules.js';
import { Report, type ReportRow, type ReportType } from '../../model/reports.entity.js';
import { ReportTemplate, templateRowFor, type ReportTemplateRow } from '../../model/report-template.entity.js';
import { reachableReport, reportApp, reportDto } from './reports.rules.js';

/** The MIME type of each template format, for downloads and the desktop's "open in Office". */
export const TEMPLATE_MIME: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
};

export const TEMPLATE_FILE_MIMES: readonly string[] = [...new Set(Object.values(TEMPLATE_MIME))];

/** An uploaded file: its name and its bytes in base64 (HTML may come as text). */
export interface TemplateUpload {
  fileName: string;
  content: string;
  encoding?: 'base64' | 'text';
}

export const uploadBytes = (u: TemplateUpload) => Buffer.from(u.content, u.encoding === 'text' ? 'utf8' : 'base64');

/** A template report's file, or null for a block report. */
export async function templateOf(ctx: OpContext, report: ReportRow): Promise<ReportTemplateRow | null> {
  if (!report.templateFile) return null;
  return ctx.db.getRepository(ReportTemplate).findOneBy({ reportId: report.id });
}

/** The tags of a checked template, as the designer sees them: each tag with where it is. */
export function tagSummary(scan: ScannedTemplate) {
  return scan.tags.filter((t) => t.tag).map((t) => ({ tag: tagText(t.tag!), where: t.where }));
}

/**
 * Checks a template file for a report of this type against its app: the format must be the
 * report's, the file safe, and every tag known and in its place. All problems come in one 400.
 */
export async function checkTemplateFile(
  ctx: OpContext,
  report: Pick<ReportRow, 'type' | 'connectionId' | 'filterIds' | 'name'> & Partial<ReportRow>,
  upload: TemplateUpload,
) {
  const bytes = uploadBytes(upload);
  if (!bytes.length) throw badInput('The template file is empty', [{ field: 'body.content', message: 'is empty' }]);
  const scan = await ctx.renders.scanTemplate(bytes, upload.fileName);
  const type = TYPE_OF_FORMAT[scan.format];
  if (type !== report.type)
    throw badInput(
      `${report.type === 'Excel' ? 'An' : 'A'} ${report.type} report takes a ${extensionOf(report.type)} template, not "${upload.fileName}"`,
      [{ field: 'body.fileName', message: `must be a ${extensionOf(report.type)} file` }],
    );
  let problems = scan.problems;
  if (report.connectionId) {
    const { meta } = await reportApp(ctx, report as ReportRow);
    const filtered = await resolveFilters(ctx, report.filterIds ?? [], meta);
    problems = checkAgainstApp(scan, ctx.analytics, meta, filtered.variables);
  }
  if (problems.length) throw templateProblemsError(problems);
  return { bytes, scan };
}

const extensionOf = (type: ReportType) => ({ Word: '.docx', Excel: '.xlsx', PowerPoint: '.pptx', Html: '.html' })[type];

/** Saves a checked template as the report's file (a new version), in one write with the report. */
export async function saveTemplate(ctx: OpContext, report: ReportRow, fileName: string, bytes: Buffer) {
  const repo = ctx.db.getRepository(ReportTemplate);
  const previous = await repo.findOneBy({ reportId: report.id });
  const now = ctx.now();
  const row = templateRowFor(report.id, fileName, bytes, (previous?.version ?? 0) + 1, me(ctx).user.id, now);
  await ctx.db.transaction(async (m) => {
    await m.getRepository(ReportTemplate).save(row);
    await m
      .getRepository(Report)
      .update(report.id, { templateFile: fileName, modifiedDate: now, modifiedBy: me(ctx).user.id });
  });
  report.templateFile = fileName;
  report.modifiedDate = now;
  return row;
}

/** Uploads a new version of a report's template, checked before anything is saved. */
export async function uploadTemplate(ctx: OpContext, id: string, upload: TemplateUpload) {
  const report = await reachableReport(ctx, id);
  const { bytes, scan } = await checkTemplateFile(ctx, report, upload);
  const row = await saveTemplate(ctx, report, safeFileName(upload.fileName), bytes);
  return { ...reportDto(report), template: templateInfo(row), tags: tagSummary(scan) };
}

/** Checks a file as the report's template would be, saving nothing: the tags found, or the 400 with every problem. */
export async function checkTemplateOnly(ctx: OpContext, id: string, upload: TemplateUpload) {
  const report = await reachableReport(ctx, id);
  const { scan } = await checkTemplateFile(ctx, report, upload);
  return { fileName: upload.fileName, format: scan.format, tags: tagSummary(scan) };
}

export const templateInfo = (t: ReportTemplateRow) => ({
  fileName: t.fileName,
  size: t.size,
  sha256: t.sha256,
  version: t.version,
  modifiedDate: t.modifiedDate.toISOString(),
});

/** The report's template file as it was uploaded. */
export async function downloadTemplate(ctx: OpContext, id: string): Promise<FileResult> {
  const report = await reachableReport(ctx, id);
  const t = await templateOf(ctx, report);
  if (!t)
    throw badInput(`The report "${report.name}" is built in the designer and has no template file`, [
      { field: 'id', message: 'is not a template report' },
    ]);
  const ext = t.fileName.toLowerCase().split('.').pop() ?? '';
  return new FileResult(t.fileName, TEMPLATE_MIME[ext] ?? 'application/octet-stream', t.data);
}
