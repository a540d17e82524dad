import { badInput } from '../../core/errors.js';
import type { AnalyticsPort } from '../../analytics/port.js';
import { iteratingReads } from '../../analytics/iterating-reads.js';
import type { AppMeta, ChartDef, Selections } from '../../analytics/model.js';
import { formatCell } from '../number-format.js';
import { chartBlock, drawnKind } from '../chart-block.js';
import type { Cell } from '../document.js';
import { tagKey, tagText, type TemplateTag } from './tags.js';
import {
  emptyScope,
  type ChartValue,
  type ScalarValue,
  type TableValue,
  type TagTree,
  type TemplateData,
  type TemplateScope,
} from './template-data.js';

export interface ResolveTemplateInput {
  provider: AnalyticsPort;
  appId: string;
  meta: AppMeta;
  title: string;
  tree: TagTree;
  selections: Selections;
  variables?: Record<string, string>;
  decimalSeparator?: string;
  groupSeparator?: string;
}

/** A chart of the app by id or name (the palette offers names; ids survive a rename). */
export function templateChart(meta: AppMeta, name: string): ChartDef | undefined {
  const wanted = name.trim().toLowerCase();
  return (
    meta.charts.find((c) => c.id.toLowerCase() === wanted) ?? meta.charts.find((c) => c.name.toLowerCase() === wanted)
  );
}

/** The field of the app a tag names, by name without case. */
export function templateField(meta: AppMeta, name: string) {
  const wanted = name.trim().toLowerCase();
  return meta.fields.find((f) => f.name.toLowerCase() === wanted);
}

/**
 * Resolves every tag of a template under the selections into plain values, and each level's
 * content once per value of its field with that value selected (levels nest). Runs on the main
 * thread with the provider; the render threads then only fill.
 */
export async function resolveTemplateData(input: ResolveTemplateInput): Promise<TemplateData> {
  const { provider, appId, meta, variables } = input;
  const dec = input.decimalSeparator ?? '.';
  const grp = input.groupSeparator ?? (dec === ',' ? '.' : ',');
  const scalar = (raw: Cell) => ({ raw, text: formatCell(raw, dec, grp) });
  /**
   * Values shown one under another (a row repeated per value) keep the same decimals: a whole
   * number among amounts with cents shows its ".00", as a column of the chart does.
   */
  const aligned = (values: ScalarValue[]): ScalarValue[] =>
    values.some((v) => typeof v.raw === 'number' && !Number.isInteger(v.raw))
      ? values.map((v) =>
          typeof v.raw === 'number' && Number.isInteger(v.raw)
            ? { raw: v.raw, text: formatCell(v.raw, dec, grp, { decimals: 2 }) }
            : v,
        )
      : values;
  const fail = (tag: TemplateTag, message: string) =>
    badInput(`The template's tag ${tagText(tag)} ${message}`, [
      { field: 'templateFile', message: `${tagText(tag)} ${message}` },
    ]);

  const chartTable = async (
    tag: TemplateTag & { chart: string },
    sel: Selections,
    reads: AnalyticsPort,
  ): Promise<{ table: TableValue; chart: ChartValue }> => {
    const chart = templateChart(meta, tag.chart);
    if (!chart) throw fail(tag, 'names no chart of the app');
    const data = await reads.chartData(appId, chart, sel, variables);
    const table: TableValue = {
      columns: [
        ...data.dimensions.map((label) => ({ label, numeric: false })),
        ...data.measures.map((label) => ({ label, numeric: true })),
      ],
      rows: data.rows,
      display: [],
    };
    // One number of decimals a column: 2 when any of its numbers has a fraction, else none (not
    // "173,935,716" above "167,529,651.50").
    const places = table.columns.map((_, j) =>
      data.rows.some((r) => typeof r[j] === 'number' && !Number.isInteger(r[j])) ? 2 : 0,
    );
    table.display = data.rows.map((r) => r.map((v, j) => formatCell(v, dec, grp, { decimals: places[j] })));
    const drawn: ChartValue = chartBlock(chart.name, drawnKind(chart.type), data);
    return { table, chart: drawn };
  };

  const fieldValues = async (name: string, tag: TemplateTag, sel: Selections, reads: AnalyticsPort) => {
    const field = templateField(meta, name);
    if (!field) throw fail(tag, 'names no field of the app');
    return (await reads.iterationValues(appId, [field.name], sel)).map((combo) => combo[0]);
  };

  /** The values of expressions and variables under a selection, by tag key. */
  const scalarsOf = async (
    tags: TemplateTag[],
    sel: Selections,
    reads: AnalyticsPort,
  ): Promise<Record<string, ScalarValue>> => {
    const out: Record<string, ScalarValue> = {};
    await Promise.all(
      tags.map(async (tag) => {
        if (tag.kind === 'expression')
          out[tagKey(tag)] = scalar(await reads.evaluate(appId, tag.expression, sel, variables));
        if (tag.kind === 'variable')
          out[tagKey(tag)] = scalar(await reads.evaluate(appId, `$(${tag.name})`, sel, variables));
      }),
    );
    return out;
  };

  /**
   * A scope's tags under `sel`, read through `reads`: inside a level or a repeated row, reads grouped
   * by the level's field, so each expression and chart is asked once for all its values (and once
   * per outer value where levels nest), not once per value.
   */
  const resolveScope = async (tree: TagTree, sel: Selections, reads: AnalyticsPort): Promise<TemplateScope> => {
    const scope = emptyScope();
    const work = tree.tags.map(async (tag) => {
      const key = tagKey(tag);
      switch (tag.kind) {
        case 'variable': {
          if (
            !meta.variables.some((v) => v.name.toLowerCase() === tag.name.toLowerCase()) &&
            !(variables && tag.name in variables)
          )
            throw fail(tag, 'names no variable of the app');
          scope.scalars[key] = scalar(await reads.evaluate(appId, `$(${tag.name})`, sel, variables));
          return;
        }
        case 'expression':
          scope.scalars[key] = scalar(await reads.evaluate(appId, tag.expression, sel, variables));
          return;
        case 'field': {
          const field = templateField(meta, tag.field);
          const numeric = field && (field.type === 'integer' || field.type === 'decimal');
          scope.fields[key] = aligned(
            (await fieldValues(tag.field, tag, sel, reads)).map((v) =>
              scalar(numeric && v !== '' && Number.isFinite(Number(v)) ? Number(v) : v),
            ),
          );
          return;
        }
        case 'table':
        case 'column':
        case 'image': {
          if (scope.tables[key]) return;
          const { table, chart } = await chartTable(tag, sel, reads);
          if (tag.kind === 'column' && !table.columns.some((c) => c.label.toLowerCase() === tag.column.toLowerCase()))
            throw fail(tag, `names no column of the chart (it has ${table.columns.map((c) => c.label).join(', ')})`);
          scope.tables[key] = table;
          scope.charts[key] = chart;
          return;
        }
        default:
          return;
      }
    });
    const levels = [...tree.levels.entries()].map(async ([key, level]) => {
      const field = templateField(meta, level.field);
      if (!field) throw fail({ kind: 'levelOpen', field: level.field }, 'names no field of the app');
      const values = await fieldValues(level.field, { kind: 'levelOpen', field: level.field }, sel, reads);
      // Grouped even for one value: inside a run, the level's reads are then one read for all files.
      const inner = iteratingReads(reads, appId, [field.name], sel);
      scope.levels[key] = await Promise.all(
        values.map(async (value) => ({
          value,
          scope: await resolveScope(level.tree, { ...sel, [field.name]: [value] }, inner),
        })),
      );
    });
    // A row repeated per value of a field: its expressions once per value, with that value selected.
    const rows = [...(tree.rows ?? new Map<string, { field: string; tags: TemplateTag[] }>()).entries()].map(
      async ([key, row]) => {
        const field = templateField(meta, row.field);
        if (!field) return;
        const values = await fieldValues(row.field, { kind: 'field', field: row.field }, sel, reads);
        const inner = iteratingReads(reads, appId, [field.name], sel);
        const perValue = await Promise.all(
          values.map((value) => scalarsOf(row.tags, { ...sel, [field.name]: [value] }, inner)),
        );
        for (const tag of new Set(perValue.flatMap((r) => Object.keys(r)))) {
          const column = aligned(perValue.map((r) => r[tag]).filter(Boolean));
          let k = 0;
          for (const r of perValue) if (r[tag]) r[tag] = column[k++];
        }
        (scope.rowScalars ??= {})[key] = perValue;
      },
    );
    await Promise.all([...work, ...levels, ...rows]);
    return scope;
  };

  return {
    title: input.title,
    decimalSeparator: dec,
    groupSeparator: grp,
    root: await resolveScope(input.tree, input.selections, provider),
  };
}
