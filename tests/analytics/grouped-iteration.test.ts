// A report that iterates a field asks each chart and variable once for every value, grouped by the
// iterated fields, and each file gets what it would have got asking alone: the same values, each
// chart's own sort, ties and top N within its value, nested fields, a variable given to the run;
// a read outside the iteration (other selections, a value with no rows) is asked as it came.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedProvider } from '../../engine/analytics/embedded/embedded-provider.js';
import { iteratingReads } from '../../engine/analytics/iterating-reads.js';
import type { AnalyticsPort } from '../../engine/analytics/port.js';
import { resolveTemplateData } from '../../engine/render/templates/resolve-template.js';
import type { TagTree } from '../../engine/render/templates/template-data.js';

let dir: string;
let provider: EmbeddedProvider;

const lines = Array.from({ length: 1200 }, (_, k) => ({
  region: k % 7 === 0 ? '' : `Region ${k % 5}`,
  year: 2020 + (k % 3),
  product: `Product ${k % 23}`,
  units: k % 11,
  price: (k % 40) / 4,
}));

/** The port, counting what it is asked: per-value reads and grouped ones. */
function counted(port: AnalyticsPort) {
  const calls = { evaluate: 0, chartData: 0, grouped: 0 };
  const wrapped: AnalyticsPort = {
    meta: (a) => port.meta(a),
    fieldValues: (...a) => port.fieldValues(...a),
    iterationValues: (...a) => port.iterationValues(...a),
    checkExpression: (...a) => port.checkExpression(...a),
    onReload: (l) => port.onReload(l),
    evaluate: (...a) => (calls.evaluate++, port.evaluate(...a)),
    chartData: (...a) => (calls.chartData++, port.chartData(...a)),
    // A port without grouped reads stays without them.
    ...(port.evaluateGrouped && {
      evaluateGrouped: (...a) => (calls.grouped++, port.evaluateGrouped!(...a)),
      chartDataGrouped: (...a) => (calls.grouped++, port.chartDataGrouped!(...a)),
    }),
  };
  return { port: wrapped, calls };
}

/** The provider counted twice: as it is, and without grouped reads (every value asked alone, as before). */
function singleAndGrouped() {
  const { evaluateGrouped: _e, chartDataGrouped: _c, ...alone } = counted(provider).port;
  return { single: counted(alone), grouped: counted(provider) };
}

const topProducts = {
  dimensions: ['Product'],
  measures: [{ label: 'Revenue', expression: 'Sum(Units * Price)' }],
  sort: { by: 'measure' as const, index: 0, direction: 'desc' as const },
  limit: 4,
};
const byYear = { dimensions: ['Year'], measures: [{ label: 'Lines', expression: 'Count(Units)' }] };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bs-grouped-'));
  provider = new EmbeddedProvider(dir);
  await provider.createApp('sales', 'Sales');
  const file = join(dir, 'sales.csv');
  await writeFile(
    file,
    [
      'Region,Year,Product,Units,Price',
      ...lines.map((l) => [l.region, l.year, l.product, l.units, l.price].join(',')),
    ].join('\n'),
  );
  await provider.importFromFile('sales', 'csv', file, 'sales.csv');
  await provider.updateMeta('sales', (m) => {
    m.variables.push({ id: 'v1', name: 'Revenue', definition: 'Sum(Units * Price)' } as never);
  });
});
afterAll(async () => {
  await provider.close();
  await rm(dir, { recursive: true, force: true });
});

describe('an iteration read in groups', () => {
  it('answers every value as asking alone does, in one grouped read per expression and chart', async () => {
    const base = { Year: ['2020', '2021'] };
    const values = await provider.iterationValues('sales', ['Region'], base);
    expect(values.length).toBe(6); // five regions, and the empty one iterations name ''
    const { port, calls } = counted(provider);
    const reads = iteratingReads(port, 'sales', ['Region'], base);
    for (const [region] of values) {
      const sel = { ...base, Region: [region] };
      expect(await reads.evaluate('sales', '$(Revenue)', sel)).toEqual(
        await provider.evaluate('sales', '$(Revenue)', sel),
      );
      expect(await reads.evaluate('sales', 'Count(Distinct Product)', sel)).toEqual(
        await provider.evaluate('sales', 'Count(Distinct Product)', sel),
      );
      expect(await reads.chartData('sales', topProducts, sel)).toEqual(
        await provider.chartData('sales', topProducts, sel),
      );
      expect(await reads.chartData('sales', byYear, sel)).toEqual(await provider.chartData('sales', byYear, sel));
      expect(await reads.iterationValues('sales', ['Year', 'Product'], sel)).toEqual(
        await provider.iterationValues('sales', ['Year', 'Product'], sel),
      );
    }
    // Five reads grouped once each; only the value whose rows have no region is asked alone (4 reads, and its values).
    expect(calls).toEqual({ evaluate: 2, chartData: 2, grouped: 5 });
  });

  it('groups nested iteration fields, and keeps a variable given to the run apart from one that is not', async () => {
    const values = await provider.iterationValues('sales', ['Year', 'Region'], { Region: ['Region 1', 'Region 2'] });
    expect(values.length).toBe(6);
    const base = { Region: ['Region 1', 'Region 2'] };
    const { port, calls } = counted(provider);
    const reads = iteratingReads(port, 'sales', ['Year', 'Region'], base);
    for (const [year, region] of values) {
      const sel = { Region: [region], Year: [year] };
      expect(await reads.evaluate('sales', 'Sum(Units)', sel)).toEqual(
        await provider.evaluate('sales', 'Sum(Units)', sel),
      );
      const given = { Revenue: 'Sum(Units)' };
      expect(await reads.evaluate('sales', '$(Revenue)', sel, given)).toEqual(
        await provider.evaluate('sales', '$(Revenue)', sel, given),
      );
      expect(await reads.evaluate('sales', '$(Revenue)', sel)).toEqual(
        await provider.evaluate('sales', '$(Revenue)', sel),
      );
    }
    expect(calls).toEqual({ evaluate: 0, chartData: 0, grouped: 3 });
  });

  it('asks alone what the groups do not hold: other selections, another app, a value with no rows', async () => {
    const base = {};
    const { port, calls } = counted(provider);
    const reads = iteratingReads(port, 'sales', ['Region'], base);
    expect(await reads.evaluate('sales', 'Sum(Units)', { Region: ['Region 1'], Product: ['Product 3'] })).toEqual(
      await provider.evaluate('sales', 'Sum(Units)', { Region: ['Region 1'], Product: ['Product 3'] }),
    );
    expect(await reads.evaluate('sales', 'Count(Units)', { Region: ['Nowhere'] })).toBe(0);
    expect(await reads.evaluate('sales', 'Sum(Units)', { Region: ['Region 1', 'Region 2'] })).toEqual(
      await provider.evaluate('sales', 'Sum(Units)', { Region: ['Region 1', 'Region 2'] }),
    );
    expect(calls.evaluate).toBe(3);
    // An expression the app refuses is refused for the file as it would be alone, naming the field.
    await expect(reads.evaluate('sales', 'Sum(Nope)', { Region: ['Region 1'] })).rejects.toThrow(
      /Unknown field "Nope"/,
    );
  });
});

describe('a template whose levels nest', () => {
  it('fills every level as asking per value does, each expression read once per outer value', async () => {
    // {{#Region}} {{=Sum(Units)}} {{#Year}} {{=Count(Units)}} {{$Revenue}} {{/Year}} {{/Region}}, and a row per product.
    const year: TagTree = {
      tags: [
        { kind: 'expression', expression: 'Count(Units)' },
        { kind: 'variable', name: 'Revenue' },
      ],
      levels: new Map(),
    };
    const region: TagTree = {
      tags: [{ kind: 'expression', expression: 'Sum(Units)' }],
      levels: new Map([['Year', { field: 'Year', tree: year }]]),
      rows: new Map([['Product', { field: 'Product', tags: [{ kind: 'expression', expression: 'Max(Price)' }] }]]),
    };
    const tree: TagTree = { tags: [], levels: new Map([['Region', { field: 'Region', tree: region }]]) };
    const meta = await provider.meta('sales');
    const fill = (port: AnalyticsPort) =>
      resolveTemplateData({ provider: port, appId: 'sales', meta, title: 'Sales', tree, selections: {} });
    const { single, grouped } = singleAndGrouped();
    expect(await fill(grouped.port)).toEqual(await fill(single.port));
    // Alone, one read per value of every level and row (151 here); grouped, a few per region.
    expect(single.calls.evaluate).toBeGreaterThan(100);
    expect(grouped.calls.grouped).toBeLessThanOrEqual(2 + 6 * 2 + 6);
    expect(grouped.calls.evaluate).toBeLessThan(single.calls.evaluate / 4);
  });

  it('fills the levels of every file of a run as asking alone does, each expression read once for all files', async () => {
    // A file per year; in each, a level per region with its figures, a row per product, and a row of
    // the region itself (a field row inside its own level: one value).
    const region: TagTree = {
      tags: [
        { kind: 'expression', expression: 'Sum(Units)' },
        { kind: 'variable', name: 'Revenue' },
      ],
      levels: new Map(),
      rows: new Map([
        ['Product', { field: 'Product', tags: [{ kind: 'expression', expression: 'Max(Price)' }] }],
        ['Region', { field: 'Region', tags: [{ kind: 'expression', expression: 'Count(Units)' }] }],
      ]),
    };
    const tree: TagTree = { tags: [], levels: new Map([['Region', { field: 'Region', tree: region }]]) };
    const meta = await provider.meta('sales');
    const years = await provider.iterationValues('sales', ['Year'], {});
    const fileOf = (port: AnalyticsPort, year: string) =>
      resolveTemplateData({ provider: port, appId: 'sales', meta, title: 'Sales', tree, selections: { Year: [year] } });
    const { single, grouped } = singleAndGrouped();
    const run = iteratingReads(grouped.port, 'sales', ['Year'], {});
    for (const [year] of years) expect(await fileOf(run, year)).toEqual(await fileOf(single.port, year));
    expect(years.length).toBe(3);
    // Alone, every region and product of every file asked by itself; in a run, each read once for
    // all files: the regions of each file, the region and the products of each level, and Sum(Units),
    // Revenue, Max(Price) and Count(Units): seven reads, however many files.
    expect(single.calls.evaluate).toBeGreaterThan(100);
    expect(grouped.calls.grouped).toBe(7);
    // Only the level of rows with no region (a null is no group) is asked alone: its two figures in each file.
    expect(grouped.calls.evaluate).toBe(2 * years.length);
  });
});
