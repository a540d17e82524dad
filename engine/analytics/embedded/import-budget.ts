/** What one import may hold: a budget the error message names when a file exceeds it. */
export interface ImportBudget {
  rows: number;
  cells: number;
}

export const DEFAULT_IMPORT_BUDGET: ImportBudget = { rows: 5_000_000, cells: 50_000_000 };
