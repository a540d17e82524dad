// Report generation at volume, measured honestly: a one-page report (KPI, 50-row table, bar chart)
// iterated over 500 customers of the demo app, through Broadsheet's real pipeline (filters and
// queries on the main thread, rendering in the worker pool, the files zipped as users get them),
// against its practical limit: the same renderer, warmed, on as many threads as the pool has,
// rendering the same reports already resolved, and zipping them the same way. Peak memory is
// sampled throughout, a list call is timed during the burst, and a sample of the files is read back.
import { figure } from './verdicts.js';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { createEngine } from '../../engine/engine.js';
import { startHttpServer } from '../../engine/http/server.js';
import { resolveCredential } from '../../engine/features/credentials/credentials.js';
import { createReport } from '../../engine/features/reports/reports.rules.js';
import { asDownload, generateFiles } from '../../engine/features/reports/generate.js';
import { Report } from '../../engine/model/reports.entity.js';
import { resolveReport } from '../../engine/render/resolve.js';
import { RenderPool } from '../../engine/render/render-pool.js';
import type { OpContext } from '../../engine/ops/context.js';
import type { ReportDocument, ResolvedReport } from '../../engine/render/document.js';
import { pct } from './stats.js';

const f1 = (x: number) => x.toFixed(1);

/** Samples the process's resident memory (workers included) every 20 ms until stopped. */
function peakSampler() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  return () => {
    clearInterval(timer);
    return Math.round(peak / 1048576);
  };
}

/** Reads a sample of the files back with independent tools: qpdf for PDF, exceljs for XLSX. */
async function checkSample(format: 'Pdf' | 'Xlsx', files: Buffer[], dir: string): Promise<string> {
  const sample = [0, Math.floor(files.length / 2), files.length - 1];
  for (const i of sample) {
    if (format === 'Pdf') {
      const file = join(dir, `sample-${i}.pdf`);
      await writeFile(file, files[i]);
      const r = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
      if (r.error) return 'qpdf not installed: not checked';
      if (r.status !== 0) throw new Error(`file ${i} fails qpdf --check: ${r.stdout}${r.stderr}`);
    } else {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(files[i] as unknown as ArrayBuffer);
      const text = JSON.stringify(wb.worksheets[0].getSheetValues());
      if (!text.includes('Customer statement')) throw new Error(`file ${i} lacks its title`);
    }
  }
  return `${sample.length} files read back (${format === 'Pdf' ? 'qpdf --check' : 'exceljs'})`;
}

async function zipAll(files: { name: string; data: Buffer }[]) {
  const zip = new JSZip();
  files.forEach((f, i) => zip.file(`${i}-${f.name}`, f.data));
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

export async function reportBench(customers = 500) {
  const dataDir = await mkdtemp(join(tmpdir(), 'bs-bench-reports-'));
  const key = randomBytes(32);
  const engine = await createEngine({ dataDir, secretKeys: { load: async () => key, save: async () => {} } });
  await engine.demoReady;
  const ownerKey = await engine.issueOwnerKey();
  const server = await startHttpServer(engine, { port: 0 });
  const principal = (await resolveCredential(engine.services, ownerKey))!;
  const ctx: OpContext = { ...engine.services, principal, transport: 'internal', client: 'bench' };
  const [project] = await engine.services.db.query("SELECT id FROM projects WHERE name = 'Sales reporting (demo)'");
  const meta = await engine.services.analytics.meta('sales-demo');
  const document: ReportDocument = {
    blocks: [
      { id: 'h', type: 'heading', text: 'Customer statement', level: 1 },
      { id: 'k', type: 'kpi', label: 'Sales', expression: 'Sum(Sales)', format: { decimals: 2 } },
      {
        id: 't',
        type: 'table',
        dimensions: ['OrderID', 'OrderDate'],
        measures: [{ label: 'Sales', expression: 'Sum(Sales)' }],
        sort: { by: 'measure', index: 0, direction: 'desc' },
        limit: 50,
        title: 'Largest orders',
      },
      {
        id: 'c',
        type: 'chart',
        chartType: 'bar',
        dimensions: ['Category'],
        measures: [{ label: 'Sales', expression: 'Sum(Sales)' }],
        title: 'Sales by category',
      },
    ],
  };
  const row = await createReport(ctx, { name: 'Customer statement', projectId: project.id, type: 'Excel', document });
  row.isIteration = true;
  row.iterationFields = [{ fieldID: meta.fields.find((f) => f.name === 'Customer')!.id, order: 0 }];
  await engine.services.db.getRepository(Report).save(row);
  const names = (await engine.services.analytics.iterationValues('sales-demo', ['Customer']))
    .slice(0, customers)
    .map((c) => c[0]);
  const selections = { Customer: names };
  const resolved: ResolvedReport[] = [];
  for (const c of names)
    resolved.push(
      await resolveReport({
        provider: engine.services.analytics,
        appId: 'sales-demo',
        title: 'Customer statement',
        document,
        selections: { Customer: [c] },
      }),
    );
  const threads = engine.services.renders.threads;

  const results: Record<string, unknown>[] = [];
  for (const format of ['Pdf', 'Xlsx'] as const) {
    // The practical limit: the same renderer on the same number of threads, warmed (libraries,
    // fonts, every thread), data in hand, then zipped. Its pool is closed before the pipeline runs.
    const limitPool = new RenderPool(threads);
    await Promise.all(resolved.slice(0, threads * 4).map((r) => limitPool.render({ format, report: r })));
    const l0 = performance.now();
    const limitFiles = await Promise.all(resolved.map((r) => limitPool.render({ format, report: r })));
    await zipAll(limitFiles.map((data, i) => ({ name: `${names[i]}.${format.toLowerCase()}`, data })));
    const limitMs = performance.now() - l0;
    await limitPool.close();
    await generateFiles(ctx, row, { format, selections: { Customer: names.slice(0, threads * 4) } });

    // The pipeline, with a list call every 50 ms meanwhile.
    const latencies: number[] = [];
    let busy = true;
    const lister = (async () => {
      while (busy) {
        const t = performance.now();
        await (
          await fetch(`${server.url}/api/v1/groups?page_size=10`, { headers: { authorization: `Bearer ${ownerKey}` } })
        ).json();
        latencies.push(performance.now() - t);
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    const stopSampling = peakSampler();
    const loop = monitorEventLoopDelay({ resolution: 5 });
    loop.enable();
    const times: number[] = [];
    const t0 = performance.now();
    const files = await generateFiles(ctx, row, { format, selections, timing: (ms) => times.push(ms) });
    const download = await asDownload(row, files);
    const wall = performance.now() - t0;
    loop.disable();
    const peak = stopSampling();
    busy = false;
    await lister;
    if (files.length !== customers) throw new Error(`expected ${customers} files, got ${files.length}`);
    if ((await JSZip.loadAsync(download.data)).filter(() => true).length !== customers)
      throw new Error('the zip does not hold every file');
    const checked = await checkSample(
      format,
      files.map((f) => f.data),
      dataDir,
    );

    const perSecond = (customers / wall) * 1000;
    const limitPerSecond = (customers / limitMs) * 1000;
    results.push({
      format,
      files: customers,
      'files/s': f1(perSecond),
      [`limit files/s (${threads} threads)`]: f1(limitPerSecond),
      'of limit': `${Math.round(figure({ id: `report.${format}`, measure: `report generation, ${format}, of the bare renderer`, value: (perSecond / limitPerSecond) * 100, unit: '%', better: 'higher' }))}%`,
      'p50 ms/file': f1(pct(times, 50)),
      'peak RSS MiB (sampled)': peak,
      'event loop p99 ms': f1(loop.percentile(99) / 1e6),
      'list call p50/p99 ms': `${f1(pct(latencies, 50))}/${f1(pct(latencies, 99))}`,
      checked,
    });
  }
  await server.close();
  await engine.close();
  await rm(dataDir, { recursive: true, force: true });
  return results;
}
