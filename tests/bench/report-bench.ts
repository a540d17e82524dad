// Report generation at volume: a one-page report (KPI, 50-row table, bar chart) iterated over 500
// customers of the demo app, in Pdf and in Xlsx, through Broadsheet's real pipeline (queries on
// the main thread, rendering in the worker pool), beside the bare libraries writing the same
// content on one thread with the data already in hand.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createEngine } from '../../engine/engine.js';
import { resolveCredential } from '../../engine/features/auth/principal.js';
import { createReport } from '../../engine/features/reports/reports.rules.js';
import { generateFiles } from '../../engine/features/reports/generate.js';
import { Report } from '../../engine/features/reports/reports.entity.js';
import { resolveReport } from '../../engine/render/resolve.js';
import { renderPdf } from '../../engine/render/formats/pdf.js';
import { renderXlsx } from '../../engine/render/formats/xlsx.js';
import type { OpContext } from '../../engine/ops/context.js';
import type { ReportDocument } from '../../engine/render/document.js';

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const f1 = (x: number) => x.toFixed(1);

export async function reportBench(customers = 500) {
  const dataDir = await mkdtemp(join(tmpdir(), 'bs-bench-reports-'));
  const key = randomBytes(32);
  const engine = await createEngine({ dataDir, secretKeys: { load: async () => key, save: async () => {} } });
  await engine.demoReady;
  const ownerKey = await engine.issueOwnerKey();
  const principal = (await resolveCredential(engine.services, ownerKey))!;
  const ctx: OpContext = { ...engine.services, principal, transport: 'internal', client: 'bench' };
  const [project] = await engine.services.db.query("SELECT id FROM projects WHERE name = 'Sales reporting (demo)'");
  const meta = await engine.services.analytics.meta('sales-demo');
  const document: ReportDocument = {
    blocks: [
      { id: 'h', type: 'heading', text: 'Customer statement', level: 1 },
      { id: 'k', type: 'kpi', label: 'Sales', expression: 'Sum(Sales)', format: { decimals: 2 } },
      { id: 't', type: 'table', dimensions: ['OrderID', 'OrderDate'], measures: [{ label: 'Sales', expression: 'Sum(Sales)' }], sort: { by: 'measure', index: 0, direction: 'desc' }, limit: 50, title: 'Largest orders' },
      { id: 'c', type: 'chart', chartType: 'bar', dimensions: ['Category'], measures: [{ label: 'Sales', expression: 'Sum(Sales)' }], title: 'Sales by category' },
    ],
  };
  const row = await createReport(ctx, { name: 'Customer statement', projectId: project.id, type: 'Excel', document });
  row.isIteration = true;
  row.iterationFields = [{ fieldID: meta.fields.find((f) => f.name === 'Customer')!.id, order: 0 }];
  await engine.services.db.getRepository(Report).save(row);
  const names = (await engine.services.analytics.iterationValues('sales-demo', ['Customer'])).slice(0, customers).map((c) => c[0]);
  const selections = { Customer: names };

  // Warm the worker pool (first load of the libraries and fonts) outside the measurement.
  await generateFiles(ctx, row, { format: 'Pdf', selections: { Customer: names.slice(0, 4) } });
  await generateFiles(ctx, row, { format: 'Xlsx', selections: { Customer: names.slice(0, 4) } });

  const results: Record<string, unknown>[] = [];
  for (const format of ['Pdf', 'Xlsx'] as const) {
    const times: number[] = [];
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const t0 = performance.now();
    const files = await generateFiles(ctx, row, { format, selections, timing: (ms) => times.push(ms) });
    const wall = performance.now() - t0;
    loop.disable();
    clearInterval(sampler);
    if (files.length !== customers) throw new Error(`expected ${customers} files, got ${files.length}`);

    // The bare library: the same resolved content, rendered one after another on this thread.
    const resolved = await Promise.all(names.slice(0, 100).map((c) => resolveReport({ provider: engine.services.analytics, appId: 'sales-demo', title: 'Customer statement', document, selections: { Customer: [c] } })));
    const b0 = performance.now();
    for (const r of resolved) await (format === 'Pdf' ? renderPdf(r) : renderXlsx(r));
    const bareEach = (performance.now() - b0) / resolved.length;
    const perSecond = (customers / wall) * 1000;
    results.push({
      format,
      files: customers,
      'files/s': f1(perSecond),
      'p50 ms/file': f1(pct(times, 50)),
      'p95 ms/file': f1(pct(times, 95)),
      'peak RSS MiB': Math.round(peak / 1048576),
      'event loop p99 ms': f1(loop.percentile(99) / 1e6),
      'bare lib files/s (1 thread)': f1(1000 / bareEach),
      'wall ms per file vs bare': f1(wall / customers / bareEach) + 'x',
    });
  }
  await engine.close();
  await rm(dataDir, { recursive: true, force: true });
  return results;
}
