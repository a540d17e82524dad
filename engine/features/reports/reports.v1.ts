import { defineOp } from '../../ops/op.js';
import { idParam } from '../../core/validation.js';
import type { OpContext } from '../../ops/context.js';
import type { AppMeta } from '../../analytics/model.js';
import { LIST_REPORTS, listReports, reachableReport, reportApp } from './reports.rules.js';
import { ReportResult } from './reports.rules.js';
import { TemplateItemResult, TemplateItemsResult } from './reports.results.js';
import type { z } from 'zod';

type TemplateItem = z.output<typeof TemplateItemResult>;
const item = (
  id: string,
  itemID: string,
  title: string,
  type: string,
  objects: TemplateItem[] | null = null,
  columns?: { id: string; name: string }[],
): TemplateItem => ({ id, itemID, title, type, objects, ...(columns ? { columns } : {}) });

/** A chart's name as a tag takes it: by id when the name has the tag's separator in it. */
const chartRef = (c: { id: string; name: string }) => (c.name.includes(':') || c.name.includes('}') ? c.id : c.name);

/**
 * What a report can use from its app, as the reference product's template editors read it: nodes
 * by kind (`{ name, type, icon, objects }`), each object with the tag to paste as `itemID`; a chart
 * under its sheet with its columns, whose own tags repeat a row.
 */
async function templateItems(ctx: OpContext, id: string) {
  const report = await reachableReport(ctx, id);
  const { meta } = await reportApp(ctx, report);
  // Only what the report's kind of file takes: sheets repeat in Excel, slides in PowerPoint; slides
  // take no levels.
  const takes = {
    sheet: report.type === 'Excel',
    slide: report.type === 'PowerPoint',
    level: report.type !== 'PowerPoint',
  };
  const chartItem = (c: AppMeta['charts'][number]) => {
    const columns = [...c.dimensions, ...c.measures.map((m) => m.label)].map((name, i) => ({
      id: `${c.id}:${i}`,
      name,
    }));
    const columnItems = columns.map((col) => item(col.id, `{{column:${chartRef(c)}:${col.name}}}`, col.name, 'Column'));
    return item(c.id, `{{table:${chartRef(c)}}}`, c.name, CHART_TYPE[c.type] ?? 'Chart', columnItems, columns);
  };
  const node = (name: string, type: string, icon: string, objects: TemplateItem[]) => ({ name, type, icon, objects });
  const onSheets = new Set(meta.sheets.flatMap((s) => s.chartIds));
  return {
    nodes: [
      node(
        'Variables',
        'variable',
        'variable',
        meta.variables.map((v) => item(v.id, `{{${v.name}}}`, v.name, 'Variable')),
      ),
      node(
        'Fields',
        'field',
        'field',
        meta.fields.map((f) =>
          item(f.id, `{{field:${f.name}}}`, f.name, 'Field', [
            ...(takes.level
              ? [item(`${f.id}:level`, `{{#level:${f.name}}}…{{/level:${f.name}}}`, `Level per ${f.name}`, 'Level')]
              : []),
            ...(takes.sheet
              ? [item(`${f.id}:sheet`, `{{sheet:${f.name}}}`, `Sheet per ${f.name}`, 'SheetPerValue')]
              : []),
            ...(takes.slide
              ? [item(`${f.id}:slide`, `{{slide:${f.name}}}`, `Slide per ${f.name}`, 'SlidePerValue')]
              : []),
          ]),
        ),
      ),
      node('Table', 'table', 'table', [
        ...meta.sheets.map((sh) =>
          item(
            sh.id,
            '',
            sh.name,
            'Sheet',
            sh.chartIds
              .map((cid) => meta.charts.find((c) => c.id === cid))
              .filter((c) => !!c)
              .map(chartItem),
          ),
        ),
        ...meta.charts.filter((c) => !onSheets.has(c.id)).map(chartItem),
      ]),
      node(
        'Image',
        'image',
        'image',
        meta.charts.map((c) => item(`${c.id}:image`, `{{image:${chartRef(c)}}}`, c.name, 'Image')),
      ),
      node(
        'Bookmarks',
        'bookmark',
        'bookmark',
        meta.bookmarks.map((b) => item(b.id, '', b.name, 'Bookmark')),
      ),
      node('Rows', 'row', 'row', [item('deleterow', '{{deleterow}}', 'Delete this row', 'DeleteRow')]),
    ],
  };
}

const CHART_TYPE: Record<string, string> = {
  table: 'StraightTable',
  bar: 'BarChart',
  line: 'LineChart',
  pie: 'PieChart',
  combo: 'ComboChart',
};

export const reportsV1 = [
  defineOp({
    id: 'v1.reports.listOwn',
    summary: 'List the reports of the authenticated user (of the projects their roles reach)',
    http: { method: 'GET', path: '/api/v1/reports' },
    permission: 'viewProject',
    member: { report: 'view' },
    list: LIST_REPORTS,
    result: ReportResult,
    handler: (ctx, { list }) => listReports(ctx, list),
  }),
  defineOp({
    id: 'app.reports.templateItems',
    summary:
      'The tags a template report can use, by kind (variables, fields and levels, tables with their columns under their sheets, images, bookmarks, rows): nodes[] of { name, type, icon, objects: [{ id, itemID, title, type, objects, columns }] }',
    http: { method: 'GET', path: '/api/v1/reports/{id}/template-items' },
    permission: 'viewProject',
    objects: { 'params.id': 'report' },
    member: { report: 'view' },
    input: { params: idParam },
    result: TemplateItemsResult,
    handler: (ctx, { params }) => templateItems(ctx, params.id),
  }),
] as const;
