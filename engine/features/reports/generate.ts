import { performance } from 'node:perf_hooks';
import type { OpContext } from '../../ops/context.js';
import { badInput, nullIfRefused } from '../../core/errors.js';
import { FileResult, safeFileName } from '../../core/file-result.js';
import { zipFiles } from '../../core/zip.js';
import type { AppMeta, Selections } from '../../analytics/model.js';
import type { AnalyticsPort } from '../../analytics/port.js';
import { iteratingReads } from '../../analytics/iterating-reads.js';
import type { ReportDocument } from '../../render/document.js';
import { FILE_TYPES, formatsOf, type OutputFormat, type ProtectionOptions } from '../../render/formats.js';
import { resolveTemplateData } from '../../render/templates/resolve-template.js';
import { templateProblemsError } from '../../render/templates/template-check.js';
import { templateOf } from './report-templates.rules.js';
import { resolveReport } from '../../render/resolve.js';
import { resolveFilters } from '../filters/filters.rules.js';
import type { ReportRow } from '../../model/reports.entity.js';
import { iterationFieldNames, reportApp } from './reports.rules.js';

export interface GenerateRequest {
  format: OutputFormat;
  selections?: Selections;
  bookmarkId?: string | null;
  appId?: string | null;
  protection?: ProtectionOptions;
  /** A document to use instead of the saved one (live preview of unsaved changes). */
  document?: ReportDocument;
  /** Chooses which iteration values to make files for (a preview makes the first, or the one picked). */
  choose?: (combos: string[][]) => string[][];
  /** Called after each file, for progress. */
  progress?: (done: number, total: number) => void;
  /** Called with each file's time from its first query to its last byte, in ms (benchmarks). */
  timing?: (ms: number) => void;
  /** Filters applied after the report's own (a task report's), in order. */
  extraFilterIds?: string[];
  /** Leaves the report's own filters out (an on-demand request's `ignoreExistingFilters`). */
  ignoreReportFilters?: boolean;
  /** Asked once under the filtered selections: false makes no files (a task report's conditions). */
  admit?: (selections: Selections, variables: Record<string, string>) => Promise<boolean>;
  /** Asked for each iteration value under its selections: false skips that value's file. */
  admitEach?: (selections: Selections, variables: Record<string, string>, iteration: string[]) => Promise<boolean>;
  /** Takes each file as it is made (a run writes it to disk); the answer then holds no bytes. */
  onFile?: (file: GeneratedFile) => Promise<void>;
  /** Stops between files: the files in flight finish, no new one starts, and the call rejects. */
  signal?: AbortSignal;
  /** Told when the selections leave no data (the report will be empty), in words to log and show. */
  warn?: (message: string) => void;
  /** A template report answers an HTML look at each filled file instead of the file (the designer's preview). */
  templatePreview?: boolean;
  /** Variables to read under each file's selections (a task report's recipients, folder, hub user). */
  evaluate?: string[];
  /** `selections` narrow the filters' instead of replacing them (a subscriber's, see `narrowed`). */
  narrow?: boolean;
}

export interface GeneratedFile {
  name: string;
  format: OutputFormat;
  data: Buffer;
  /** The iteration values this file was made for (empty without iteration). */
  iteration: string[];
  /** The values of the variables asked for in `evaluate`, under this file's selections. */
  variables?: Record<string, string | null>;
}

/** Checks a report type offers a format; Png draws the report's first chart. */
export function checkFormat(report: ReportRow, format: OutputFormat, document: ReportDocument) {
  if (format === 'Png' && !report.templateFile) {
    if (!document.blocks.some((b) => b.type === 'chart'))
      throw badInput('Png draws one chart, and this report has none', [
        { field: 'query.outputFormat', message: 'needs a chart in the report' },
      ]);
    return;
  }
  const offered = formatsOf(report);
  if (!offered.includes(format))
    throw badInput(`A ${report.type} report offers ${offered.join(', ')}, not ${format}`, [
      { field: 'query.outputFormat', message: `must be one of: ${offered.join(', ')}` },
    ]);
}

/** Builds a file name from the report's dynamic name tokens joined by its separator. */
async function fileName(
  ctx: Pick<OpContext, 'analytics'>,
  report: ReportRow,
  appId: string,
  iterFields: string[],
  iteration: string[],
  selections: Selections,
  now: Date,
) {
  const sep = report.dynamicNameSeparator ?? '_';
  const tokens = [...report.dynamicNames].sort((a, b) => a.order - b.order);
  const parts: string[] = [];
  if (!tokens.length) parts.push(report.name, ...iteration);
  for (const t of tokens) {
    const kind = t.itemType.toLowerCase().replace(/[\s_-]/g, '');
    if (kind === 'reportname') parts.push(report.name);
    else if (kind === 'text') parts.push(t.value);
    else if (kind === 'date') parts.push(now.toISOString().slice(0, t.value === 'YYYY-MM' ? 7 : 10));
    else if (kind === 'fieldvalue' || kind === 'iterationvalue') {
      const idx = iterFields.findIndex((f) => f.toLowerCase() === t.value.toLowerCase());
      parts.push(idx >= 0 ? iteration[idx] : iteration.join(sep));
    } else if (kind === 'variable') {
      const value = await ctx.analytics.evaluate(appId, `$(${t.value})`, selections).catch(nullIfRefused);
      parts.push(value === null ? '' : String(value));
    } else
      throw badInput(`Unknown dynamic name item "${t.itemType}"`, [
        { field: 'dynamicNames', message: 'itemType must be ReportName, Text, FieldValue, Date or Variable' },
      ]);
  }
  return safeFileName(parts.filter((p) => p !== '').join(sep), safeFileName(report.name));
}

/** Each named variable's value under the selections, as text; a name may be written `$(name)`. */
async function variableValues(
  ctx: Pick<OpContext, 'analytics'>,
  appId: string,
  names: string[],
  selections: Selections,
) {
  const out: Record<string, string | null> = {};
  for (const n of names) {
    const value = await ctx.analytics.evaluate(appId, `$(${variableName(n)})`, selections).catch(nullIfRefused);
    out[n] = value === null ? null : String(value);
  }
  return out;
}

/** `vRegion` from `vRegion` or `$(vRegion)`. */
export const variableName = (n: string) =>
  n
    .trim()
    .replace(/^\$\((.*)\)$/, '$1')
    .trim();

/**
 * The caller's selections within what the filters already selected: a field both select keeps only
 * the values both name. An empty selection means "everything" to a provider, so when the two share
 * no value the filter's stands: a subscriber's choice can narrow a filter, never widen it.
 */
export function narrowed(base: Selections, extra: Selections): Selections {
  const out: Selections = { ...base };
  for (const [field, values] of Object.entries(extra)) {
    if (!values.length) continue;
    const key = Object.keys(base).find((k) => k.toLowerCase() === field.toLowerCase());
    if (!key || !base[key].length) out[field] = values;
    else {
      const both = values.filter((x) => base[key].includes(x));
      if (both.length) out[key] = both;
    }
  }
  return out;
}

/** Runs `fn` over items with at most `limit` at once, keeping the order of results; stops on `signal`. */
async function inParallel<T, R>(
  items: T[],
  limit: number,
  fn: (item: T, index: number) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  let failed = false;
  const worker = async () => {
    // After one failure no worker starts another item.
    while (next < items.length && !failed) {
      signal?.throwIfAborted();
      const i = next++;
      try {
        out[i] = await fn(items[i], i);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  // Every worker settles before the call does, so a caller cleaning up after a failure or a stop
  // finds nothing still writing.
  const settled = await Promise.allSettled(Array.from({ length: Math.min(limit, items.length) }, worker));
  const first = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (first) throw first.reason;
  return out;
}

/**
 * One request's files: filters, then the bookmark, then the caller's selections; one file per
 * iteration value where the report iterates; each rendered in the worker pool.
 */
const said = (field: string, values: string[]) =>
  `${field} = ${values.length > 3 ? `${values.slice(0, 3).join(', ')} and ${values.length - 3} more` : values.join(', ')}`;

/**
 * Whether the selections leave no data: which field's values the app does not have, or that the
 * fields together match nothing; null when something is selected and found (or nothing is selected).
 * A report made from nothing is empty without an error, so this is said beside it.
 */
export async function selectionMatchingNothing(
  ctx: Pick<OpContext, 'analytics'>,
  appId: string,
  selections: Selections,
): Promise<string | null> {
  // (A field named with "]" cannot be written in an expression: it is not checked.)
  const fields = Object.keys(selections).filter((f) => selections[f]?.length && !f.includes(']'));
  if (!fields.length) return null;
  const rows = (sel: Selections, field: string) =>
    ctx.analytics.evaluate(appId, `Count([${field}])`, sel).then((n) => Number(n ?? 0));
  try {
    if ((await rows(selections, fields[0])) > 0) return null;
    for (const f of fields)
      if ((await rows({ [f]: selections[f] }, f)) === 0)
        return `The selection ${said(f, selections[f])} matches nothing in the app: it has no such ${f}, so the report is empty`;
    return `The selections ${fields.map((f) => said(f, selections[f])).join('; ')} match nothing together in the app, so the report is empty`;
  } catch {
    // The check only adds a word: a selection it cannot ask about is left to the report itself.
    return null;
  }
}

export async function generateFiles(ctx: OpContext, report: ReportRow, req: GenerateRequest): Promise<GeneratedFile[]> {
  const document = req.document ?? report.document;
  checkFormat(report, req.format, document);
  const { appId, meta } = await reportApp(ctx, report, req.appId);
  const filterIds = [...(req.ignoreReportFilters ? [] : report.filterIds), ...(req.extraFilterIds ?? [])];
  const filtered = await resolveFilters(ctx, filterIds, meta);
  let selections: Selections = filtered.selections;
  if (req.bookmarkId) {
    const b = meta.bookmarks.find((x) => x.id === req.bookmarkId || x.name === req.bookmarkId);
    if (!b)
      throw badInput(`The bookmark "${req.bookmarkId}" is not in the app`, [
        { field: 'body.bookmarkId', message: 'unknown bookmark' },
      ]);
    selections = { ...selections, ...b.selections };
  }
  selections = req.narrow ? narrowed(selections, req.selections ?? {}) : { ...selections, ...(req.selections ?? {}) };
  if (req.warn) {
    const nothing = await selectionMatchingNothing(ctx, appId, selections);
    if (nothing) req.warn(nothing);
  }
  if (req.admit && !(await req.admit(selections, filtered.variables))) return [];
  const iterFields = report.isIteration ? iterationFieldNames(meta, report.iterationFields, 'iterationFields') : [];
  const all = iterFields.length ? await ctx.analytics.iterationValues(appId, iterFields, selections) : [[]];
  const combos = req.choose && iterFields.length ? req.choose(all) : all;
  // Several files: each expression and chart is asked once for all of them, grouped by the iterated fields.
  const reads = {
    analytics: combos.length > 1 ? iteratingReads(ctx.analytics, appId, iterFields, selections) : ctx.analytics,
  };
  const now = ctx.now();
  const fill = await templateFiller(ctx, report, req, appId, meta, filtered.variables);
  let done = 0;
  // Two files in flight per render thread keep the pool busy while the next file's queries run;
  // more in flight measured no faster here and doubled each file's latency and the memory held.
  const files = await inParallel(
    combos,
    Math.max(2, ctx.renders.threads * 2),
    async (combo): Promise<GeneratedFile | null> => {
      const started = performance.now();
      const sel: Selections = { ...selections };
      iterFields.forEach((f, i) => (sel[f] = [combo[i]]));
      if (req.admitEach && iterFields.length && !(await req.admitEach(sel, filtered.variables, combo))) {
        req.progress?.(++done, combos.length);
        return null;
      }
      const data = fill
        ? await fill(sel, reads.analytics)
        : await ctx.renders.render({
            format: req.format,
            report: await resolveReport({
              provider: reads.analytics,
              appId,
              title: report.name,
              document,
              selections: sel,
              variables: filtered.variables,
              now,
            }),
            protection: req.protection,
          });
      const name = `${await fileName(reads, report, appId, iterFields, combo, sel, now)}.${FILE_TYPES[req.format].extension}`;
      req.timing?.(performance.now() - started);
      const variables = req.evaluate?.length ? await variableValues(reads, appId, req.evaluate, sel) : undefined;
      const file: GeneratedFile = {
        name,
        format: req.format,
        data,
        iteration: combo,
        ...(variables ? { variables } : {}),
      };
      // A stop lets the files in flight finish rendering but keeps none of them.
      req.signal?.throwIfAborted();
      if (req.onFile) {
        await req.onFile(file);
        file.data = Buffer.alloc(0);
      }
      req.progress?.(++done, combos.length);
      return file;
    },
    req.signal,
  );
  return files.filter((f): f is GeneratedFile => f !== null);
}

/**
 * For a template report, what makes one file under a selection: the template's tags resolved here
 * into plain values, then filled in a render thread. The template is read and checked once a run.
 */
async function templateFiller(
  ctx: OpContext,
  report: ReportRow,
  req: GenerateRequest,
  appId: string,
  meta: AppMeta,
  variables: Record<string, string>,
) {
  if (!report.templateFile) return null;
  const template = await templateOf(ctx, report);
  if (!template)
    throw badInput(`The template file of "${report.name}" is missing: upload it again`, [
      { field: 'templateFile', message: 'is missing' },
    ]);
  const scan = await ctx.renders.scanTemplate(template.data, template.fileName);
  if (scan.problems.length) throw templateProblemsError(scan.problems);
  const bytes = new Uint8Array(template.data);
  const settings = report.document.settings;
  return async (selections: Selections, provider: AnalyticsPort) => {
    const data = await resolveTemplateData({
      provider,
      appId,
      meta,
      title: report.name,
      tree: scan.tree,
      selections,
      variables,
      decimalSeparator: settings?.decimalSeparator,
      groupSeparator: settings?.groupSeparator,
    });
    return ctx.renders.fillTemplate({
      fileName: template.fileName,
      bytes,
      data,
      format: req.format,
      protection: req.protection,
      preview: req.templatePreview,
    });
  };
}

/** One file as is; several (an iteration) zipped together, names made unique. */
export async function asDownload(report: ReportRow, files: GeneratedFile[]): Promise<FileResult> {
  if (files.length === 1) return new FileResult(files[0].name, FILE_TYPES[files[0].format].mime, files[0].data);
  const data = await zipFiles(files.map((f) => ({ name: f.name, read: async () => f.data })));
  return new FileResult(`${safeFileName(report.name)}.zip`, 'application/zip', data);
}
