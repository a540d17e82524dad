/** What an analytics app holds, as the provider port describes it (the same for any provider). */
export type FieldType = 'integer' | 'decimal' | 'date' | 'text';

export interface FieldMeta {
  id: string;
  name: string;
  type: FieldType;
  distinctCount: number;
}

export interface VariableDef {
  id: string;
  name: string;
  definition: string;
  description?: string | null;
}

export type ChartType = 'bar' | 'line' | 'pie' | 'combo' | 'table';

export interface MeasureDef {
  label: string;
  expression: string;
}

export interface ChartDef {
  id: string;
  name: string;
  type: ChartType;
  dimensions: string[];
  measures: MeasureDef[];
  /** Sort by a dimension or a measure (0-based index among them). */
  sort?: { by: 'dimension' | 'measure'; index: number; direction: 'asc' | 'desc' } | null;
  limit?: number | null;
}

export type Selections = Record<string, string[]>;

export interface BookmarkDef {
  id: string;
  name: string;
  selections: Selections;
}

export interface SheetDef {
  id: string;
  name: string;
  chartIds: string[];
}

export interface AppMeta {
  appId: string;
  name: string;
  description: string | null;
  fields: FieldMeta[];
  variables: VariableDef[];
  charts: ChartDef[];
  bookmarks: BookmarkDef[];
  sheets: SheetDef[];
  rowCount: number;
  reloadedAt: string | null;
  source: string | null;
  /**
   * The app's data file when apps are published as versions (servers sharing the folder): each
   * import writes a new file and names it here; absent, the one file `data.db`.
   */
  dataFile?: string;
}

export interface ChartData {
  dimensions: string[];
  measures: string[];
  rows: (string | number | null)[][];
}

export interface FieldValue {
  value: string | number | null;
  count: number;
}
