// The large-import bench of finding 2: a 2,000,000-row XLSX (the file that used to kill the
// process) imported over HTTP while list calls keep coming. Prints its time, the process's peak
// memory (sampled every 100 ms, workers included), the list latency meanwhile, and the ratio to the
// practical floor: reading the same file with the same streaming reader on one thread, no writes.
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import { createEngine } from '../../engine/engine.js';
import { startHttpServer } from '../../engine/http/server.js';

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;

async function writeWorkbook(file: string, rows: number): Promise<number> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: file, useSharedStrings: true, useStyles: true });
  const ws = wb.addWorksheet('Orders');
  ws.addRow(['Day', 'Region', 'Product', 'Units', 'Price']).commit();
  let units = 0;
  for (let i = 0; i < rows; i++) {
    const u = i % 17;
    units += u;
    ws.addRow([
      new Date(Date.UTC(2023, 0, 1 + (i % 1000))),
      `Region ${i % 12}`,
      `Product ${i % 250}`,
      u,
      (i % 400) / 4,
    ]).commit();
  }
  ws.commit();
  await wb.commit();
  return units;
}

/** The floor: the same streaming reader over the same file, values touched, nothing written. */
async function readOnly(file: string): Promise<number> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    sharedStrings: 'cache',
    styles: 'cache',
    hyperlinks: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  let n = 0;
  for await (const sheet of reader) {
    for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
      for (let c = 1; c <= 5; c++) void row.getCell(c).value;
      n++;
    }
    break;
  }
  return n - 1;
}

export async function importBench(rows = Number(process.env.BENCH_IMPORT_ROWS ?? 2_000_000)) {
  const dir = await mkdtemp(join(tmpdir(), 'bs-bench-import-'));
  try {
    const file = join(dir, 'orders.xlsx');
    const t0 = performance.now();
    const units = await writeWorkbook(file, rows);
    const size = (await stat(file)).size;
    console.log(
      `  wrote ${rows.toLocaleString('en')} rows, ${mib(size)} XLSX in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    await readOnly(file); // warm the reader's code paths once
    const f0 = performance.now();
    const read = await readOnly(file);
    const floorMs = performance.now() - f0;

    const key = randomBytes(32);
    const engine = await createEngine({
      dataDir: join(dir, 'data'),
      secretKeys: { load: async () => key, save: async () => {} },
      demo: false,
    });
    const ownerKey = await engine.issueOwnerKey();
    const server = await startHttpServer(engine, { port: 0 });
    const headers = { authorization: `Bearer ${ownerKey}`, 'content-type': 'application/json' };
    const app = (await (
      await fetch(`${server.url}/api/v1/analytics-apps`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          appId: 'big-orders',
          name: 'Big orders',
          folderId: '00000000-0000-0000-0000-000000000000',
          folderPath: '/',
          allowAnalyticsSenseApp: false,
          allowMashup: false,
          defaultOpen: 'x',
        }),
      })
    ).json()) as { data: { id: string } };
    const content = (await readFile(file)).toString('base64');

    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
    const latencies: number[] = [];
    let importing = true;
    const lister = (async () => {
      while (importing) {
        const t = performance.now();
        const r = await fetch(`${server.url}/api/v1/groups?page_size=10`, { headers });
        await r.json();
        latencies.push(performance.now() - t);
        // A list every quarter second is the pace measured (a person paging), not a wait for something.
        await new Promise((res) => setTimeout(res, 250));
      }
    })();
    const i0 = performance.now();
    const res = await fetch(`${server.url}/api/app/analytics/${app.data.id}/import`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ fileName: 'orders.xlsx', content }),
    });
    const body = (await res.json()) as { data: { rowCount: number } | null; error: string | null };
    const importMs = performance.now() - i0;
    importing = false;
    await lister;
    clearInterval(sampler);

    let check = 'not checked';
    if (res.status === 200) {
      const sum = (await (
        await fetch(`${server.url}/api/app/analytics/${app.data.id}/evaluate`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ expression: 'Sum(Units)' }),
        })
      ).json()) as { data: { value: number } };
      check =
        sum.data.value === units && body.data!.rowCount === rows
          ? `Sum(Units) and row count match the file (${units.toLocaleString('en')})`
          : `MISMATCH: Sum(Units) ${sum.data.value} vs ${units}`;
    }
    console.log(
      `  import over HTTP: ${res.status === 200 ? 'succeeded' : `ended ${res.status}: ${body.error}`} in ${(importMs / 1000).toFixed(1)} s (${Math.round(rows / (importMs / 1000)).toLocaleString('en')} rows/s); ${check}`,
    );
    console.log(
      `  peak RSS of the process during the import (main + import worker, sampled every 100 ms): ${mib(peak)}`,
    );
    console.log(
      `  GET /api/v1/groups during the import: ${latencies.length} calls, p50 ${pct(latencies, 50).toFixed(1)} ms, p99 ${pct(latencies, 99).toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms`,
    );
    console.log(
      `  floor: the same streaming reader alone on one thread read ${read.toLocaleString('en')} rows in ${(floorMs / 1000).toFixed(1)} s; import / floor = ${(importMs / floorMs).toFixed(2)}x`,
    );
    await server.close();
    await engine.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
