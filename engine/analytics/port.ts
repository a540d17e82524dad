import type { AppMeta, ChartData, ChartDef, FieldType, FieldValue, Selections } from './model.js';

/**
 * What the rest of the engine asks of an analytics source: an app's metadata, values under
 * selections, expressions evaluated, chart data, the values to iterate over, whether an expression
 * is valid, and when an app's data changed. The embedded engine implements it, and a live provider
 * for an external analytics server can implement it alone: nothing outside engine/analytics sees how
 * answers are computed (SQL, for the embedded one).
 */
export interface AnalyticsPort {
  meta(appId: string): Promise<AppMeta>;
  fieldValues(
    appId: string,
    field: string,
    selections?: Selections,
    options?: { search?: string; limit?: number },
  ): Promise<FieldValue[]>;
  evaluate(
    appId: string,
    expression: string,
    selections?: Selections,
    variables?: Record<string, string>,
  ): Promise<string | number | null>;
  chartData(
    appId: string,
    chart: Pick<ChartDef, 'dimensions' | 'measures' | 'sort' | 'limit'>,
    selections?: Selections,
    variables?: Record<string, string>,
  ): Promise<ChartData>;
  iterationValues(appId: string, fields: string[], selections?: Selections): Promise<string[][]>;
  /**
   * An expression's value for every combination of the `by` fields' values at once (a report that
   * iterates them asks once, not once per value), keyed by the combination's values joined by
   * GROUP_KEY; combinations with a null among them are left out. A provider without grouped reads
   * leaves it out, and is asked per value.
   */
  evaluateGrouped?(
    appId: string,
    expression: string,
    by: string[],
    selections?: Selections,
    variables?: Record<string, string>,
  ): Promise<Map<string, string | number | null>>;
  /** A chart's data for every combination of the `by` fields at once, each sorted and limited as alone; keyed as above. */
  chartDataGrouped?(
    appId: string,
    chart: Pick<ChartDef, 'dimensions' | 'measures' | 'sort' | 'limit'>,
    by: string[],
    selections?: Selections,
    variables?: Record<string, string>,
  ): Promise<Map<string, ChartData>>;
  /** Throws a 400 naming `field` and the position when the expression is not valid for the app. */
  checkExpression(meta: AppMeta, expression: string, field: string): void;
  /** Called with the app's id whenever its data is replaced (a reload). */
  onReload(listener: (appId: string) => void): void;
}

/** Joins the values of one combination of iteration fields into a key (a character no value holds). */
export const GROUP_KEY = '\u0000';

export interface ImportProgress {
  appId: string;
  percent: number;
  rows: number;
}

/** What only the embedded engine does: keep apps of its own, take their data from files, edit their metadata. */
export interface EmbeddedAnalyticsAdmin {
  exists(appId: string): Promise<boolean>;
  /**
   * At start, on a folder no other server shares: what an import or a first start cut off left in
   * the apps' folders (uploads, half-written data files, metadata never named), and app folders
   * that never got their metadata. Answers the bytes removed, and the apps whose import or reload
   * was cut off (their half-written data was among them).
   */
  removeLeftovers(): Promise<{ files: number; bytes: number; interrupted: string[] }>;
  createApp(appId: string, name: string, description?: string | null): Promise<AppMeta>;
  deleteApp(appId: string): Promise<void>;
  updateMeta(appId: string, change: (m: AppMeta) => void): Promise<AppMeta>;
  importFile(
    appId: string,
    format: 'csv' | 'xlsx' | 'json',
    content: Buffer,
    sourceName: string,
    progress?: (p: ImportProgress) => void,
  ): Promise<AppMeta>;
  /** The same import from a file already on disk (an upload), which the caller keeps and removes. */
  importFromFile(
    appId: string,
    format: 'csv' | 'xlsx' | 'json',
    source: string,
    sourceName: string,
    progress?: (p: ImportProgress) => void,
  ): Promise<AppMeta>;
  /** Replaces an app's data with rows already typed (generated data, such as the demo's). */
  load(appId: string, table: TableData, sourceName: string, progress?: (p: ImportProgress) => void): Promise<AppMeta>;
  /**
   * Loads the columnar store's library and reader once the engine is up and idle, so that the first
   * read after an import or a start does not hold the main thread while it loads (about 60 ms).
   */
  warm(): Promise<void>;
  /** The next import's thread started now, while the file it will read is still arriving. */
  prepareImport(): void;
  /** What one import (or reload) may hold: a reload stops reading its source past the rows. */
  importBudget(): { rows: number; cells: number };
  close(): Promise<void>;
}

/** Rows with their column names and types, ready to load. */
export interface TableData {
  headers: string[];
  types: FieldType[];
  rows: (string | number | null)[][];
}
