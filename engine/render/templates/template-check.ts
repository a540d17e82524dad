import { EngineError } from '../../core/errors.js';
import type { AnalyticsPort } from '../../analytics/port.js';
import type { AppMeta } from '../../analytics/model.js';
import { tagKey, tagText, type TemplateTag } from './tags.js';
import { tagTree, type TagOccurrence, type TagTree, type TemplateProblem } from './template-data.js';
import {
  openOfficePackage,
  TEMPLATE_LIMITS,
  templateFormatOf,
  type OfficePackage,
  type TemplateFormat,
} from './template-package.js';
import { templateChart, templateField } from './resolve-template.js';

/** The report type each template format makes. */
export const TYPE_OF_FORMAT = { docx: 'Word', xlsx: 'Excel', pptx: 'PowerPoint', html: 'Html' } as const;

/** A tag found, with what its place allows. */
interface PlacedTag extends TagOccurrence {
  /** In a row that can repeat (a table row in Word, PowerPoint and HTML; any row of a sheet). */
  inRow: boolean;
  /** Where pictures can go here: Word text, a PowerPoint picture's alt text, HTML. */
  picture: boolean;
  /** A place that takes values only (Word's notes, comments, SmartArt): no rows, levels, tables or pictures. */
  valuesOnly?: boolean;
}

export interface ScannedTemplate {
  format: TemplateFormat;
  tags: PlacedTag[];
  /** What is wrong whatever the app: unknown syntax, misplaced tags, unpaired levels, hazards. */
  problems: TemplateProblem[];
  tree: TagTree;
}

const problem = (o: TagOccurrence, message: string): TemplateProblem => ({ where: o.where, tag: o.raw, message });

/** Wraps each repeated sheet's or slide's tags in the level its {{sheet:F}} or {{slide:F}} makes. */
function withRepeats<T extends TagOccurrence>(tags: T[], unit: (t: T) => string | number): T[] {
  const out: T[] = [];
  const units = [...new Set(tags.map(unit))];
  for (const u of units) {
    const own = tags.filter((t) => unit(t) === u);
    const repeat = own.find((t) => t.tag?.kind === 'sheet' || t.tag?.kind === 'slide')?.tag as
      | (TemplateTag & { field: string })
      | undefined;
    if (repeat)
      out.push({ ...own[0], tag: { kind: 'levelOpen', field: repeat.field } }, ...own, {
        ...own[0],
        tag: { kind: 'levelClose', field: repeat.field },
      });
    else out.push(...own);
  }
  return out;
}

/** Reads a template's tags with where each is, and what is wrong with it whatever the app. */
export async function scanTemplate(
  bytes: Buffer,
  fileName: string,
): Promise<ScannedTemplate & { pkg: OfficePackage | null }> {
  const format = templateFormatOf(fileName);
  if (!format)
    throw new EngineError(
      400,
      `"${fileName}" is not a template Broadsheet takes: upload a .docx, .xlsx, .pptx or .html file`,
      [{ field: 'templateFile', message: 'must be a .docx, .xlsx, .pptx or .html file' }],
    );
  const problems: TemplateProblem[] = [];
  let tags: PlacedTag[];
  let pkg: OfficePackage | null = null;
  if (format === 'html') {
    const source = bytes.toString('utf8');
    if (bytes.includes(0))
      throw new EngineError(400, 'The HTML template is not text', [
        { field: 'templateFile', message: 'is not an HTML text file' },
      ]);
    // Each format's reader (and the library under it) is loaded when a template of that format is read.
    const { htmlHazards, htmlTags } = await import('./html-fill.js');
    problems.push(...htmlHazards(source).map((h) => ({ where: h.where, tag: '', message: h.message })));
    tags = htmlTags(source).map((t) => ({ ...t, picture: true }));
  } else {
    pkg = await openOfficePackage(bytes, format);
    const { parseXml, partOf } = await import('./xml.js');
    // Every XML part is read once here, the ones no tag is in too (a chart, a drawing, a pivot): a
    // damaged part is a 400 naming it and its line at upload, not a failure at the first run.
    // The parts the tags are read from are not parsed a second time: a 100,000-tag document took
    // half the check's time and garbage to parse twice.
    const read = new Map<string, ReturnType<typeof parseXml>>();
    for (const [path, data] of pkg.parts)
      if (/\.(xml|rels)$/i.test(path)) read.set(path, parseXml(data.toString('utf8'), path));
    const afresh = partOf(pkg);
    const readPart = (path: string) => read.get(path) ?? afresh(path);
    if (format === 'docx')
      tags = (await import('./docx-fill.js')).docxTags(pkg, readPart).map((t) => ({ ...t, picture: !t.valuesOnly }));
    else if (format === 'pptx')
      tags = (await import('./pptx-fill.js'))
        .pptxTags(pkg, readPart)
        .map((t) => ({ ...t, inRow: t.place === 'row', picture: t.place === 'picture' || t.place === 'chart' }));
    else {
      const { readWorkbook, workbookTags } = await import('./xlsx-workbook.js');
      tags = workbookTags(readWorkbook(pkg)).map((t) => ({ ...t, inRow: true, picture: false }));
    }
  }
  // Each tag is weighed against the app and filled per value: a bound keeps a crafted file from
  // holding a thread (and its memory) for minutes.
  if (tags.length > TEMPLATE_LIMITS.tags)
    throw new EngineError(
      400,
      `The template has ${tags.length.toLocaleString('en')} tags; at most ${TEMPLATE_LIMITS.tags.toLocaleString('en')} are taken`,
      [{ field: 'templateFile', message: `has more than ${TEMPLATE_LIMITS.tags.toLocaleString('en')} tags` }],
    );
  for (const t of tags) {
    if (!t.tag) {
      problems.push(
        problem(
          t,
          `is no tag Broadsheet knows (a variable name, =expression, field:, image:, table:, column:Chart:Column, #level:/ /level:, ${format === 'xlsx' ? 'sheet:' : format === 'pptx' ? 'slide:' : ''} or deleterow)`.replace(
            ', ,',
            ',',
          ),
        ),
      );
      continue;
    }
    const misplaced = placementProblem(t.tag, t, format);
    if (misplaced) problems.push(problem(t, misplaced));
  }
  // A repeated sheet's or slide's tags are its level's: wrapped in it for the tree.
  const ordered =
    format === 'pptx'
      ? withRepeats(tags as (PlacedTag & { slide: number })[], (t) => t.slide)
      : format === 'xlsx'
        ? withRepeats(tags as (PlacedTag & { sheet: string })[], (t) => t.sheet)
        : tags;
  const { tree, problems: levelProblems } = tagTree(ordered);
  problems.push(...levelProblems);
  return { format, tags, problems, tree, pkg };
}

function placementProblem(tag: TemplateTag, t: PlacedTag, format: TemplateFormat): string | null {
  if (t.valuesOnly && !['variable', 'expression', 'field'].includes(tag.kind))
    return 'is not taken in footnotes, endnotes, comments or SmartArt: only variables, expressions and fields are filled there';
  switch (tag.kind) {
    case 'column':
      return t.inRow ? null : 'belongs in a table row (the row repeats per data row)';
    case 'deleterow':
      return t.inRow ? null : 'belongs in a table row (it removes that row)';
    case 'sheet':
      return format === 'xlsx'
        ? null
        : 'repeats a sheet, and only an Excel template has sheets (use {{#level:…}} here)';
    case 'slide':
      return format === 'pptx'
        ? null
        : 'repeats a slide, and only a PowerPoint template has slides (use {{#level:…}} here)';
    case 'image':
      if (format === 'pptx' && !t.picture)
        return 'goes in the alt text of a picture or a native chart on the slide (the picture is replaced by the chart at its size; the native chart takes its data)';
      return null;
    case 'levelOpen':
    case 'levelClose':
      return format === 'pptx' ? 'is not taken on slides: repeat the slide with {{slide:…}}' : null;
    default:
      return null;
  }
}

/** Checks every tag of a scanned template against the app: names it must know, expressions that must compile. */
export function checkAgainstApp(
  scan: ScannedTemplate,
  provider: AnalyticsPort,
  meta: AppMeta,
  variables: Record<string, string> = {},
): TemplateProblem[] {
  const out: TemplateProblem[] = [...scan.problems];
  const checked = new Set<string>();
  for (const t of scan.tags) {
    const tag = t.tag;
    if (!tag) continue;
    const key = `${t.where}|${tagText(tag)}`;
    if (checked.has(key)) continue;
    checked.add(key);
    const bad = appProblem(tag, provider, meta, variables);
    if (bad) out.push(problem(t, bad));
  }
  return inReadingOrder(scan, out);
}

/**
 * Problems in the order a designer reads the file, each said once: a level's close is not faulted
 * again for the field its open named, nor for a missing open when that open was no tag at all.
 */
function inReadingOrder(scan: ScannedTemplate, problems: TemplateProblem[]): TemplateProblem[] {
  const index = new Map<string, number>();
  scan.tags.forEach((t, i) => {
    const key = `${t.where}|${t.raw}`;
    if (!index.has(key)) index.set(key, i);
  });
  const tagAt = (p: TemplateProblem) => scan.tags[index.get(`${p.where}|${p.tag}`) ?? -1]?.tag ?? null;
  const sorted = problems
    .map((p, i) => ({ p, i, at: index.get(`${p.where}|${p.tag}`) ?? Number.MAX_SAFE_INTEGER }))
    .sort((a, b) => a.at - b.at || a.i - b.i)
    .map((x) => x.p);
  const unknownFields = new Set<string>();
  let openNotRead = false;
  return sorted.filter((p) => {
    const tag = tagAt(p);
    if (!tag && /^\{\{\s*#/.test(p.tag)) openNotRead = true;
    if (tag?.kind === 'levelOpen' && p.message.startsWith('names no field')) unknownFields.add(tagKey(tag));
    if (tag?.kind === 'levelClose' && p.message.startsWith('names no field') && unknownFields.has(tagKey(tag)))
      return false;
    if (p.message === 'closes a level that was not opened' && openNotRead) return false;
    return true;
  });
}

function appProblem(
  tag: TemplateTag,
  provider: AnalyticsPort,
  meta: AppMeta,
  variables: Record<string, string>,
): string | null {
  switch (tag.kind) {
    case 'variable':
      return meta.variables.some((v) => v.name.toLowerCase() === tag.name.toLowerCase()) ||
        Object.hasOwn(variables, tag.name)
        ? null
        : `names no variable of the app "${meta.name}"`;
    case 'expression':
      try {
        provider.checkExpression(meta, tag.expression, 'templateFile');
        return null;
      } catch (e) {
        if (e instanceof EngineError && e.status === 400) return `is not a valid expression: ${e.message}`;
        throw e;
      }
    case 'field':
    case 'levelOpen':
    case 'levelClose':
    case 'sheet':
    case 'slide':
      return templateField(meta, tag.field) ? null : `names no field of the app "${meta.name}"`;
    case 'image':
    case 'table':
      return templateChart(meta, tag.chart) ? null : `names no chart of the app "${meta.name}"`;
    case 'column': {
      const chart = templateChart(meta, tag.chart);
      if (!chart) return `names no chart of the app "${meta.name}"`;
      const columns = [...chart.dimensions, ...chart.measures.map((m) => m.label)];
      return columns.some((c) => c.toLowerCase() === tag.column.toLowerCase())
        ? null
        : `names no column of "${chart.name}" (it has ${columns.join(', ')})`;
    }
    case 'deleterow':
      return null;
  }
}

/** The problems as the 400 an upload answers: every one at its place, in one answer. */
export function templateProblemsError(problems: TemplateProblem[]): EngineError {
  const first = problems[0];
  const summary =
    problems.length === 1
      ? `The template's tag ${first.tag || ''} at ${first.where} ${first.message}`.replace('tag  at', 'content at')
      : `${problems.length} problems in the template need fixing; the first: ${first.tag || ''} at ${first.where} ${first.message}`;
  return new EngineError(
    400,
    summary,
    problems.map((p) => ({ field: `templateFile:${p.where}`, message: `${p.tag ? `${p.tag} ` : ''}${p.message}` })),
  );
}
