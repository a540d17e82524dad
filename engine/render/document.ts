import { lazySchema } from '../core/lazy-schema.js';
import { z } from 'zod';

// A report's document: an ordered list of blocks bound to the report's connection. Every output
// format is rendered from this (resolved with data), never by converting another format.

const id = z.string().min(1).max(64);
const expression = z.string().trim().min(1, { message: 'must not be empty' }).max(2000);
/** A measure (label and expression) and a chart's sort, as charts of the app and report blocks both take them. */
export const Measure = lazySchema(() => z.object({ label: z.string().max(200), expression }));
export const Sort = lazySchema(() =>
  z.object({
    by: z.enum(['dimension', 'measure']),
    index: z.number().int().min(0).max(20),
    direction: z.enum(['asc', 'desc']),
  }),
);
const NumberFormat = lazySchema(() =>
  z.object({
    decimals: z.number().int().min(0).max(10).optional(),
    prefix: z.string().max(10).optional(),
    suffix: z.string().max(10).optional(),
  }),
);
/** A table's or a chart's data, as fields of its block (built with the blocks, when first read). */
const dataSource = () => ({
  /** A chart saved in the app, or dimensions and measures given here. */
  chartId: z.string().max(64).optional(),
  dimensions: z.array(z.string().min(1).max(200)).max(5).optional(),
  measures: z.array(Measure).max(10).optional(),
  sort: Sort.nullable().optional(),
  limit: z.number().int().min(1).max(10_000).nullable().optional(),
  title: z.string().max(300).optional(),
});

/**
 * One block of a document. Built when first read, as the document's schema is: its fields' formats
 * and sorts are lazy schemas, and `.optional()` on them built them as the bundle loaded.
 */
export const Block = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({
      id,
      type: z.literal('heading'),
      text: z.string().max(500),
      level: z.number().int().min(1).max(3).optional(),
    }),
    z.object({ id, type: z.literal('text'), text: z.string().max(20_000) }),
    z.object({ id, type: z.literal('kpi'), label: z.string().max(200), expression, format: NumberFormat.optional() }),
    z.object({ id, type: z.literal('table'), ...dataSource(), format: NumberFormat.optional() }),
    z.object({
      id,
      type: z.literal('chart'),
      chartType: z.enum(['bar', 'line', 'pie', 'combo']).optional(),
      ...dataSource(),
    }),
    z.object({
      id,
      type: z.literal('image'),
      dataUrl: z
        .string()
        .regex(/^data:image\/(png|jpeg);base64,[A-Za-z0-9+/=]+$/, { message: 'must be a PNG or JPEG data URL' })
        .max(5_000_000),
      width: z.number().min(10).max(2000).optional(),
      alt: z.string().max(300).optional(),
    }),
    z.object({ id, type: z.literal('break') }),
  ]),
);

export const ReportDocumentSchema = lazySchema(() =>
  z.object({
    blocks: z.array(Block).max(500),
    settings: z
      .object({
        decimalSeparator: z.enum(['.', ',']).optional(),
        groupSeparator: z.enum([',', '.', ' ', "'", '']).optional(),
        orientation: z.enum(['portrait', 'landscape']).optional(),
      })
      .optional(),
  }),
);

export type ReportDocument = z.output<typeof ReportDocumentSchema>;
export type DocBlock = z.output<typeof Block>;

export const EMPTY_DOCUMENT: ReportDocument = { blocks: [] };

// What renderers receive: the document with its data filled in. Plain data, so it crosses into
// the worker threads as is.
export type Cell = string | number | null;
export type ResolvedBlock =
  | { type: 'heading'; text: string; level: number }
  | { type: 'text'; text: string }
  | { type: 'kpi'; label: string; value: Cell; display: string }
  | {
      type: 'table';
      title: string;
      columns: { label: string; numeric: boolean }[];
      rows: Cell[][];
      display: string[][];
    }
  | {
      type: 'chart';
      title: string;
      chartType: 'bar' | 'line' | 'pie' | 'combo';
      categories: string[];
      series: { name: string; values: (number | null)[] }[];
    }
  | { type: 'image'; data: string; mime: string; width: number; alt: string }
  | { type: 'break' };

export interface ResolvedReport {
  title: string;
  generatedAt: string;
  decimalSeparator: string;
  groupSeparator: string;
  orientation: 'portrait' | 'landscape';
  blocks: ResolvedBlock[];
}
