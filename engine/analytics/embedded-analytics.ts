// The door to the embedded analytics engine: the rest of the engine gets the provider port and the
// admin interface from here, never the embedded engine's classes.
import { EmbeddedProvider } from './embedded/embedded-provider.js';
import { DEFAULT_IMPORT_BUDGET, type ImportBudget } from './embedded/import-budget.js';
import { DEFAULT_IMPORT_MEMORY_MB } from './embedded/import-runner.js';
import type { AnalyticsPort, EmbeddedAnalyticsAdmin } from './port.js';

export { DEMO_APP_ID, DEMO_APP_NAME, ensureDemoApp } from './embedded/demo-app.js';
export { unreadableDataFile } from './embedded/columnar-file.js';
export type { ImportBudget };

/** What one analytics import may hold and use. */
export interface ImportLimits {
  budget?: Partial<ImportBudget>;
  memoryMb?: number;
}

/** The embedded engine over a folder of apps: one object, seen as the port and as its admin. */
export function openEmbeddedAnalytics(
  appsDir: string,
  limits: ImportLimits = {},
  /** Servers sharing the folder: imports publish versions, metadata is read at each use. */
  shared = false,
): AnalyticsPort & EmbeddedAnalyticsAdmin {
  return new EmbeddedProvider(
    appsDir,
    {
      budget: { ...DEFAULT_IMPORT_BUDGET, ...limits.budget },
      memoryMb: limits.memoryMb ?? DEFAULT_IMPORT_MEMORY_MB,
    },
    shared,
  );
}
