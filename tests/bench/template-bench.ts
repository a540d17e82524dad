// Template reports at volume: an Excel and a Word template iterated over 500 customers of the demo
// app through the real pipeline (tags resolved on the main thread, the template filled in the render
// pool), against its practical limit: the same fill code on the same number of pool threads, warmed,
// with the data already resolved. A sample of the files is read back.
import { figure } from './verdicts.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { createEngine } from '../../engine/engine.js';
import { resolveCredential } from '../../engine/features/credentials/credentials.js';
import { createReport } from '../../engine/features/reports/reports.rules.js';
import { generateFiles } from '../../engine/features/reports/generate.js';
import { Report } from '../../engine/model/reports.entity.js';
import { RenderPool } from '../../engine/render/render-pool.js';
import { resolveTemplateData } from '../../engine/render/templates/resolve-template.js';
import { scanTemplate } from '../../engine/render/templates/template-check.js';
import type { TemplateData } from '../../engine/render/templates/template-data.js';
import type { OpContext } from '../../engine/ops/context.js';
import { excelTemplate, wordTemplate } from '../support/office-templates.js';

const f1 = (x: number) => x.toFixed(1);

/** A customer's letter and workbook: its own figures, a row per region it bought in, a level per category. */
async function customerTemplates() {
  return {
    Xlsx: { fileName: 'Statement.xlsx', type: 'Excel' as const, bytes: await excelTemplate() },
    Docx: {
      fileName: 'Letter.docx',
      type: 'Word' as const,
      bytes: await wordTemplate(['Dear {{field:Customer}}, thank you for {{vOrders}} orders.']),
    },
  };
}

/** Reads three files of the run back: no tag left, the customer's own name where the tags were. */
async function checkSample(format: 'Xlsx' | 'Docx', files: { data: Buffer; iteration: string[] }[]): Promise<string> {
  for (const i of [0, Math.floor(files.length / 2), files.length - 1]) {
    const { data, iteration } = files[i];
    const zip = await JSZip.loadAsync(data);
    for (const name of Object.keys(zip.files))
      if (/\.xml$/.test(name) && (await zip.file(name)!.async('string')).includes('{{'))
        throw new Error(`file ${i}: a tag is left in ${name}`);
    if (format === 'Xlsx') {
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(data as unknown as ArrayBuffer);
      if (typeof wb.getWorksheet('Sales')!.getCell('B2').value !== 'number')
        throw new Error(`file ${i}: no total in B2`);
    } else {
      // Word splits text into runs: the letter's text is read without its markup.
      const text = (await zip.file('word/document.xml')!.async('string')).replace(/<[^>]+>/g, '');
      if (!text.includes(`Dear ${iteration[0].replace(/&/g, '&amp;')}`))
        throw new Error(`file ${i} is not ${iteration[0]}'s letter: ${text.slice(-300)}`);
    }
  }
  return '3 files read back';
}

export async function templateBench(customers = 500) {
  const dataDir = await mkdtemp(join(tmpdir(), 'bs-bench-templates-'));
  const key = randomBytes(32);
  const engine = await createEngine({ dataDir, secretKeys: { load: async () => key, save: async () => {} } });
  await engine.demoReady;
  const ownerKey = await engine.issueOwnerKey();
  const principal = (await resolveCredential(engine.services, ownerKey))!;
  const ctx: OpContext = { ...engine.services, principal, transport: 'internal', client: 'bench' };
  const [project] = await engine.services.db.query("SELECT id FROM projects WHERE name = 'Sales reporting (demo)'");
  const [connection] = await engine.services.db.query('SELECT id FROM connections WHERE projectId = ?', [project.id]);
  const meta = await engine.services.analytics.meta('sales-demo');
  const names = (await engine.services.analytics.iterationValues('sales-demo', ['Customer']))
    .slice(0, customers)
    .map((c) => c[0]);
  const threads = engine.services.renders.threads;
  const results: Record<string, unknown>[] = [];

  for (const [format, t] of Object.entries(await customerTemplates()) as [
    'Xlsx' | 'Docx',
    Awaited<ReturnType<typeof customerTemplates>>['Xlsx'],
  ][]) {
    const row = await createReport(ctx, {
      name: `Customer ${t.type}`,
      projectId: project.id,
      type: t.type,
      connectionId: connection.id,
      template: { fileName: t.fileName, bytes: t.bytes },
    });
    row.isIteration = true;
    row.iterationFields = [{ fieldID: meta.fields.find((f) => f.name === 'Customer')!.id, order: 0 }];
    await engine.services.db.getRepository(Report).save(row);

    // The practical limit: the same fill, on as many threads, warmed, with every customer's data in hand.
    const { tree } = await scanTemplate(t.bytes, t.fileName);
    const data: TemplateData[] = [];
    for (const c of names)
      data.push(
        await resolveTemplateData({
          provider: engine.services.analytics,
          appId: 'sales-demo',
          meta,
          title: row.name,
          tree,
          selections: { Customer: [c] },
        }),
      );
    const bytes = new Uint8Array(t.bytes);
    const limitPool = new RenderPool(threads);
    await Promise.all(
      data.slice(0, threads * 4).map((d) => limitPool.fillTemplate({ fileName: t.fileName, bytes, data: d, format })),
    );
    const l0 = performance.now();
    await Promise.all(data.map((d) => limitPool.fillTemplate({ fileName: t.fileName, bytes, data: d, format })));
    const limitMs = performance.now() - l0;
    await limitPool.close();

    // The pipeline, warmed the same way.
    await generateFiles(ctx, row, { format, selections: { Customer: names.slice(0, threads * 4) } });
    const times: number[] = [];
    const t0 = performance.now();
    const files = await generateFiles(ctx, row, {
      format,
      selections: { Customer: names },
      timing: (ms) => times.push(ms),
    });
    const wall = performance.now() - t0;
    if (files.length !== customers) throw new Error(`expected ${customers} files, got ${files.length}`);
    const checked = await checkSample(format, files);
    const perSecond = (customers / wall) * 1000;
    const limitPerSecond = (customers / limitMs) * 1000;
    results.push({
      template: `${t.type} (${format})`,
      files: customers,
      'files/s': f1(perSecond),
      [`fill only files/s (${threads} threads)`]: f1(limitPerSecond),
      'of limit': `${Math.round(figure({ id: `templates.${t.type}.${format}`, measure: `${t.type} template (${format}), of the fill alone`, value: (perSecond / limitPerSecond) * 100, unit: '%', better: 'higher' }))}%`,
      'p50 ms/file': f1([...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]),
      checked,
    });
  }
  await engine.close();
  await rm(dataDir, { recursive: true, force: true });
  return results;
}
