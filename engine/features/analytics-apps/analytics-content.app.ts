import { lazySchema } from '../../core/lazy-schema.js';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { defineOp } from '../../ops/op.js';
import { APP_STORE } from './app-store.js';
import { TEXT_MAX, v } from '../../core/validation.js';
import { badInput, conflict, notFound } from '../../core/errors.js';
import type { OpContext } from '../../ops/context.js';
import type { AppMeta, ChartDef } from '../../analytics/model.js';
import { IMPORT_BODY_LIMIT, UPLOAD_BODY_LIMIT } from '../../core/limits.js';
import { providerAppId } from './analytics-apps.rules.js';
import { APP_CHANGE_REFUSAL, sharedAppRefusal } from '../../access/app-change-wall.js';
import { Measure, Sort } from '../../render/document.js';
import {
  AnalyticsChartDataResult,
  AnalyticsChartPictureResult,
  AnalyticsEvaluateResult,
  AnalyticsFieldValuesResult,
  AnalyticsGetResult,
} from './analytics-apps.results.js';
import { DeletedResult } from '../common.results.js';
import { isTenantAdministrator } from '../../access/tenant-administrator.js';

const appParam = lazySchema(() => z.object({ id: v.uuid() }));
const itemParam = lazySchema(() => z.object({ id: v.uuid(), itemId: z.string().min(1).max(64) }));
export const SelectionsInput = z
  .record(
    z.string().min(1).max(200),
    z.array(z.union([z.string().max(1000), z.number()]).transform(String)).max(10_000),
  )
  .default({});

const VariableInput = lazySchema(() =>
  z.object({
    id: z.string().max(64).optional(),
    name: v.text().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { message: 'must be a name such as vTotalSales' }),
    definition: v.text(TEXT_MAX.text),
    description: v.nstr(),
  }),
);
const ChartInput = lazySchema(() =>
  z.object({
    id: z.string().max(64).optional(),
    name: v.text(),
    type: z.enum(['bar', 'line', 'pie', 'combo', 'table']),
    dimensions: z.array(v.text()).max(5),
    measures: z.array(Measure).min(1, { message: 'needs at least one measure' }).max(10),
    sort: Sort.nullable().optional(),
    limit: z.number().int().min(1).max(10_000).nullable().optional(),
  }),
);
const BookmarkInput = lazySchema(() =>
  z.object({ id: z.string().max(64).optional(), name: v.text(), selections: SelectionsInput }),
);
const SheetInput = lazySchema(() =>
  z.object({
    id: z.string().max(64).optional(),
    name: v.text(),
    chartIds: z.array(z.string().max(64)).max(100),
  }),
);

/** A chart's data asked of the app: a saved chart, or dimensions and measures, under selections. */
const ChartDataInput = lazySchema(() =>
  z.object({
    chartId: z.string().max(64).optional(),
    dimensions: z.array(v.text()).max(5).optional(),
    measures: z.array(Measure).max(10).optional(),
    sort: Sort.nullable().optional(),
    limit: z.number().int().min(1).max(10_000).nullable().optional(),
    selections: SelectionsInput,
  }),
);
/** An upload names its file (and may say its format) in the query: the body is the file itself. */
const UploadQuery = lazySchema(() =>
  z.object({
    fileName: v.text().max(260),
    format: z.enum(['csv', 'xlsx', 'json']).optional(),
  }),
);

/** The format an import says, or its file name's extension tells. */
function importFormat(given: { fileName: string; format?: 'csv' | 'xlsx' | 'json' }, part: 'body' | 'query') {
  const format =
    given.format ??
    (/\.xlsx$/i.test(given.fileName)
      ? 'xlsx'
      : /\.json$/i.test(given.fileName)
        ? 'json'
        : /\.(csv|txt|tsv)$/i.test(given.fileName)
          ? 'csv'
          : null);
  if (!format)
    throw badInput('Say the format (csv, xlsx or json) or name the file with its extension', [
      { field: `${part}.format`, message: 'is required for this file name' },
    ]);
  return format;
}

const ImportInput = lazySchema(() =>
  z.object({
    fileName: v.text().max(260),
    format: z.enum(['csv', 'xlsx', 'json']).optional(),
    /** Text for CSV and JSON; base64 for XLSX (or any format when `encoding` says so). */
    content: z
      .string()
      .min(1, { message: 'the file is empty' })
      .max(IMPORT_BODY_LIMIT, { message: 'is larger than the import limit' }),
    encoding: z.enum(['text', 'base64']).default('text'),
  }),
);

const checkFields = (meta: AppMeta, names: string[], field: string) => {
  for (const n of names)
    if (!meta.fields.some((f) => f.name.toLowerCase() === n.toLowerCase()))
      throw badInput(`Unknown field "${n}"`, [{ field, message: `unknown field "${n}"` }]);
};

type Collection = 'variables' | 'charts' | 'bookmarks' | 'sheets';

/** An item of a collection as stored and answered: what was given, with its id. */
const stored = <T extends z.ZodRawShape>(input: z.ZodObject<T>) => lazySchema(() => input.extend({ id: z.string() }));

/** Saves an item of one of the app's collections: a new id when none is given, names unique. */
async function saveItem<T extends { id: string; name: string }>(
  ctx: OpContext,
  appId: string,
  collection: Collection,
  input: Omit<T, 'id'> & { id?: string },
  check: (meta: AppMeta) => Promise<void> | void,
) {
  const meta = await ctx.analytics.meta(appId);
  await check(meta);
  const list = meta[collection] as unknown as T[];
  if (list.some((x) => x.name.toLowerCase() === input.name.toLowerCase() && x.id !== input.id))
    throw conflict(`"${input.name}" already exists`, [{ field: 'body.name', message: 'is already used' }]);
  if (input.id && !list.some((x) => x.id === input.id)) throw notFound(`${collection.slice(0, -1)} ${input.id}`);
  const item = { ...input, id: input.id ?? randomUUID() } as T;
  const next = await ctx.embedded.updateMeta(appId, (m) => {
    const items = m[collection] as unknown as T[];
    const i = items.findIndex((x) => x.id === item.id);
    if (i >= 0) items[i] = item;
    else items.push(item);
  });
  return (next[collection] as unknown as T[]).find((x) => x.id === item.id)!;
}

async function deleteItem(ctx: OpContext, appId: string, collection: Collection, itemId: string) {
  const meta = await ctx.analytics.meta(appId);
  if (!(meta[collection] as { id: string }[]).some((x) => x.id === itemId))
    throw notFound(`${collection.slice(0, -1)} ${itemId}`);
  await ctx.embedded.updateMeta(appId, (m) => {
    (m[collection] as { id: string }[]) = (m[collection] as { id: string }[]).filter((x) => x.id !== itemId);
    if (collection === 'charts') for (const s of m.sheets) s.chartIds = s.chartIds.filter((c) => c !== itemId);
  });
  return { deleted: 1 };
}

const path = (suffix = '') => `/api/app/analytics/{id}${suffix}`;

/** `result` is the item as stored (the input with its id), passed in so its type stays the collection's own. */
function collectionOps<I extends z.ZodObject, R extends z.ZodObject, S extends string>(
  collection: Collection,
  singular: S,
  input: I,
  result: R,
  check: (ctx: OpContext, meta: AppMeta, body: z.output<I>) => Promise<void> | void,
) {
  // The ids stay literal types (app.analytics.saveChart…), so the renderer's client is typed per operation.
  const Name = (singular[0].toUpperCase() + singular.slice(1)) as Capitalize<S>;
  return [
    defineOp({
      id: `app.analytics.save${Name}` as const,
      summary: `Create or update a ${singular} of an analytics app`,
      http: { method: 'POST', path: path(`/${collection}`) },
      permission: 'updateProject',
      objects: { 'params.id': 'analyticsApp', 'body.id': 'none', 'body.chartIds[]': 'none' },
      writes: APP_STORE,
      input: { params: appParam, body: input },
      result,
      handler: async (ctx, { params, body }) => {
        const appId = await providerAppId(ctx, params.id);
        return saveItem<z.output<R> & { id: string; name: string }>(ctx, appId, collection, body as never, (meta) =>
          check(ctx, meta, body as z.output<I>),
        );
      },
    }),
    defineOp({
      id: `app.analytics.delete${Name}` as const,
      summary: `Delete a ${singular} of an analytics app`,
      http: { method: 'DELETE', path: path(`/${collection}/{itemId}`) },
      permission: 'updateProject',
      objects: { 'params.id': 'analyticsApp', 'params.itemId': 'none' },
      writes: APP_STORE,
      input: { params: itemParam },
      result: DeletedResult,
      handler: async (ctx, { params }) =>
        deleteItem(ctx, await providerAppId(ctx, params.id), collection, params.itemId),
    }),
  ];
}

export const analyticsContentApp = [
  defineOp({
    id: 'app.analytics.access',
    summary:
      'Whether the caller may change an analytics app (its data, sources, variables, charts and bookmarks), and why not: the checks that enforce it, asked without acting',
    http: { method: 'GET', path: path('/access') },
    permission: 'viewProject',
    objects: { 'params.id': 'analyticsApp' },
    input: { params: appParam },
    result: z.object({ mayChange: z.boolean(), why: z.string().nullable() }),
    handler: async (ctx, { params }) => {
      await providerAppId(ctx, params.id);
      const p = ctx.principal;
      const byRole = !p || isTenantAdministrator(p) || p.permissions.updateProject === true;
      const why = byRole ? await sharedAppRefusal({ db: ctx.db, principal: p }, [params.id]) : APP_CHANGE_REFUSAL;
      return { mayChange: why === null, why };
    },
  }),
  defineOp({
    id: 'app.analytics.get',
    summary: "An analytics app's fields, variables, charts, bookmarks and sheets",
    http: { method: 'GET', path: path() },
    permission: 'viewProject',
    objects: { 'params.id': 'analyticsApp' },
    input: { params: appParam },
    result: AnalyticsGetResult,
    handler: async (ctx, { params }) => ctx.analytics.meta(await providerAppId(ctx, params.id)),
  }),
  defineOp({
    id: 'app.analytics.import',
    summary: "Import a CSV, XLSX or JSON file as the app's data (a reload); progress events while it loads",
    http: { method: 'POST', path: path('/import'), bodyLimit: IMPORT_BODY_LIMIT },
    permission: 'updateProject',
    objects: { 'params.id': 'analyticsApp' },
    writes: APP_STORE,
    input: { params: appParam, body: ImportInput },
    result: AnalyticsGetResult,
    handler: async (ctx, { params, body }) => {
      const appId = await providerAppId(ctx, params.id);
      const format = importFormat(body, 'body');
      const encoding = format === 'xlsx' ? 'base64' : body.encoding;
      const content = Buffer.from(body.content, encoding === 'base64' ? 'base64' : 'utf8');
      ctx.emit({ type: 'analytics.import.progress', payload: { appId: params.id, percent: 0, rows: 0 } });
      return ctx.embedded.importFile(appId, format, content, body.fileName, (p) =>
        ctx.emit({ type: 'analytics.import.progress', payload: { ...p, appId: params.id } }),
      );
    },
  }),
  defineOp({
    id: 'app.analytics.upload',
    summary:
      "Import a CSV, XLSX or JSON file sent as the request body (application/octet-stream, streamed to disk as it arrives) as the app's data; progress events while it loads",
    http: { method: 'POST', path: path('/upload'), bodyLimit: UPLOAD_BODY_LIMIT },
    permission: 'updateProject',
    objects: { 'params.id': 'analyticsApp' },
    writes: APP_STORE,
    upload: true,
    whileUploading: (services) => services.embedded.prepareImport(),
    input: { params: appParam, query: UploadQuery },
    result: AnalyticsGetResult,
    handler: async (ctx, { params, query, upload }) => {
      const appId = await providerAppId(ctx, params.id);
      const format = importFormat(query, 'query');
      if (!upload.size) throw badInput('The file is empty', [{ field: 'body', message: 'the file is empty' }]);
      ctx.emit({ type: 'analytics.import.progress', payload: { appId: params.id, percent: 0, rows: 0 } });
      return ctx.embedded.importFromFile(appId, format, upload.path, query.fileName, (p) =>
        ctx.emit({ type: 'analytics.import.progress', payload: { ...p, appId: params.id } }),
      );
    },
  }),
  defineOp({
    id: 'app.analytics.fieldValues',
    summary: "A field's possible values under the other fields' selections",
    http: { method: 'POST', path: path('/field-values') },
    permission: 'viewProject',
    objects: { 'params.id': 'analyticsApp' },
    readOnly: true,
    input: {
      params: appParam,
      body: z.object({
        field: v.text(),
        selections: SelectionsInput,
        search: z.string().max(200).optional(),
        limit: z.number().int().min(1).max(100_000).optional(),
      }),
    },
    result: AnalyticsFieldValuesResult,
    handler: async (ctx, { params, body }) =>
      ctx.analytics.fieldValues(await providerAppId(ctx, params.id), body.field, body.selections, body),
  }),
  defineOp({
    id: 'app.analytics.evaluate',
    summary: 'Evaluate an expression (or $(variable)) under selections',
    http: { method: 'POST', path: path('/evaluate') },
    permission: 'viewProject',
    objects: { 'params.id': 'analyticsApp' },
    readOnly: true,
    input: { params: appParam, body: z.object({ expression: v.text().max(2000), selections: SelectionsInput }) },
    result: AnalyticsEvaluateResult,
    handler: async (ctx, { params, body }) => ({
      value: await ctx.analytics.evaluate(await providerAppId(ctx, params.id), body.expression, body.selections),
    }),
  }),
  defineOp({
    id: 'app.analytics.chartData',
    summary: "A saved chart's data, or that of dimensions and measures given, under selections",
    http: { method: 'POST', path: path('/chart-data') },
    permission: 'viewProject',
    objects: { 'body.chartId': 'none', 'params.id': 'analyticsApp' },
    readOnly: true,
    input: {
      params: appParam,
      body: ChartDataInput,
    },
    result: AnalyticsChartDataResult,
    handler: async (ctx, { params, body }) => {
      const appId = await providerAppId(ctx, params.id);
      let chart: Pick<ChartDef, 'dimensions' | 'measures' | 'sort' | 'limit'> = {
        dimensions: body.dimensions ?? [],
        measures: body.measures ?? [],
        sort: body.sort,
        limit: body.limit,
      };
      if (body.chartId) {
        const found = (await ctx.analytics.meta(appId)).charts.find((c) => c.id === body.chartId);
        if (!found) throw notFound(`Chart ${body.chartId}`);
        chart = found;
      }
      if (!chart.measures.length && !chart.dimensions.length)
        throw badInput('Give a chart or dimensions and measures', [{ field: 'body.measures', message: 'is required' }]);
      return ctx.analytics.chartData(appId, chart, body.selections);
    },
  }),
  defineOp({
    id: 'app.analytics.chartPicture',
    summary: 'A saved chart drawn as SVG under selections (the live picture in the app screen)',
    http: { method: 'POST', path: path('/chart-picture') },
    permission: 'viewProject',
    objects: { 'body.chartId': 'none', 'params.id': 'analyticsApp' },
    readOnly: true,
    input: { params: appParam, body: z.object({ chartId: z.string().min(1).max(64), selections: SelectionsInput }) },
    result: AnalyticsChartPictureResult,
    handler: async (ctx, { params, body }) => {
      const appId = await providerAppId(ctx, params.id);
      const chart = (await ctx.analytics.meta(appId)).charts.find((c) => c.id === body.chartId);
      if (!chart) throw notFound(`Chart ${body.chartId}`);
      const data = await ctx.analytics.chartData(appId, chart, body.selections);
      // The chart library loads on the first picture, not at start.
      const [{ chartSvg }, { chartBlock, drawnKind }] = await Promise.all([
        import('../../render/chart-svg.js'),
        import('../../render/chart-block.js'),
      ]);
      const svg = chartSvg(chartBlock(chart.name, drawnKind(chart.type), data));
      return { svg };
    },
  }),
  ...collectionOps('variables', 'variable', VariableInput, stored(VariableInput), (ctx, meta, body) => {
    ctx.analytics.checkExpression(meta, body.definition, 'body.definition');
  }),
  ...collectionOps('charts', 'chart', ChartInput, stored(ChartInput), (ctx, meta, body) => {
    checkFields(meta, body.dimensions, 'body.dimensions');
    body.measures.forEach((m, k) => ctx.analytics.checkExpression(meta, m.expression, `body.measures.${k}.expression`));
  }),
  ...collectionOps('bookmarks', 'bookmark', BookmarkInput, stored(BookmarkInput), (_ctx, meta, body) =>
    checkFields(meta, Object.keys(body.selections), 'body.selections'),
  ),
  ...collectionOps('sheets', 'sheet', SheetInput, stored(SheetInput), (_ctx, meta, body) => {
    const missing = body.chartIds.find((c) => !meta.charts.some((x) => x.id === c));
    if (missing)
      throw badInput(`Chart ${missing} is not in the app`, [
        { field: 'body.chartIds', message: `unknown chart ${missing}` },
      ]);
  }),
] as const;
