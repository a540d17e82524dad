// Template reports beyond one generate call: starters the app writes for each type, the designer's
// preview of one iteration value, and a run through the queue and the runner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';
import { demoProject, demoSalesByRegion, shown } from '../support/demo-figures.js';
import { waitForRequest } from '../support/requests.js';
import { ooxmlText, xlsxWorkbook, zipEntries } from '../support/read-back.js';
import { partsOf, wordTemplate } from '../support/office-templates.js';

let s: TestServer;
let projectId: string;
let connectionId: string;
const regionSales = new Map<string, number>();

beforeAll(async () => {
  s = await startTestServer({ demo: true });
  ({ projectId, connectionId } = await demoProject(s));
  for (const [region, total] of await demoSalesByRegion(s)) regionSales.set(region, total);
}, 120_000);
afterAll(() => s.stop());

async function iterateOverRegion(id: string, name: string) {
  const meta = await s.engine.services.analytics.meta('sales-demo');
  const region = meta.fields.find((f) => f.name === 'Region')!;
  await s.ok('PUT', `/api/v2/reports/${id}`, {
    name,
    isIteration: true,
    iterationFields: [{ fieldID: region.id, order: 0 }],
  });
}

describe(covers('starter templates', 'app.reports.starterTemplate', 'app.reports.createFromTemplate'), () => {
  it('writes a starter of each type from the app, which makes a filled file with no tag left', async () => {
    for (const [type, format, ext] of [
      ['Word', 'Docx', 'docx'],
      ['Excel', 'Xlsx', 'xlsx'],
      ['PowerPoint', 'Pptx', 'pptx'],
      ['Html', 'Html', 'html'],
    ] as const) {
      const starter = await s.file('GET', `/api/app/projects/${projectId}/starter-template`, {
        query: { type, connectionId },
      });
      expect(starter.status).toBe(200);
      expect(starter.disposition).toContain(`Starter.${ext}`);
      const r = await s.ok('POST', '/api/app/reports/from-template', {
        name: `${type} starter`,
        projectId,
        starter: type,
      });
      expect(r.templateFile).toBe(`${type} starter.${ext}`);
      expect(r.tags.length, JSON.stringify(r.tags)).toBeGreaterThan(3);
      const out = await s.file('POST', `/api/v2/reports/${r.id}/generate`, {
        query: { outputFormat: format },
        body: {},
      });
      expect(out.status, out.data.toString().slice(0, 200)).toBe(200);
      if (ext === 'html') expect(out.data.toString()).not.toContain('{{');
      else
        for (const [name, data] of await partsOf(out.data))
          if (/\.(xml|rels)$/.test(name)) expect(data.toString(), `${type}: ${name}`).not.toContain('{{');
      const total = [...regionSales.values()].reduce((a, b) => a + b, 0);
      if (ext === 'xlsx')
        expect((await xlsxWorkbook(out.data)).getWorksheet('Report')!.getCell('B2').value).toBeCloseTo(total, 4);
      if (ext === 'docx')
        expect(await ooxmlText(out.data, /^word\/document\.xml$/)).toContain(`vTotalSales: ${shown(total)}`);
    }
  });
});

describe(covers('template preview', 'app.reports.preview'), () => {
  it('previews the filled file for the iteration value picked, offering the others', async () => {
    const r = await s.ok('POST', '/api/app/reports/from-template', {
      name: 'Preview me',
      projectId,
      connectionId,
      fileName: 'Preview.docx',
      content: (await wordTemplate()).toString('base64'),
    });
    await iterateOverRegion(r.id, 'Preview me');
    const preview = await s.ok('POST', `/api/app/reports/${r.id}/preview`, { iterationValue: ['EMEA'] });
    expect(preview.iterating).toBe(true);
    expect(preview.iterationValue).toEqual(['EMEA']);
    expect(preview.iterationValues.map((v: string[]) => v[0]).sort()).toEqual([...regionSales.keys()].sort());
    expect(preview.html).toContain(`Sales review: ${shown(regionSales.get('EMEA')!)}`);
    expect(preview.html).not.toContain(shown(regionSales.get('APAC')!));
    expect(preview.html).toMatch(/<table>.*EMEA/s);
    expect(preview.html).toContain('<img alt="" src="data:image/png;base64,');
  });
});

describe(covers('template reports through the runner', 'v1.onDemand.generate'), () => {
  it('runs a template report on demand: one filled Word file per region, read back', async () => {
    const r = await s.ok('POST', '/api/app/reports/from-template', {
      name: 'Run me',
      projectId,
      connectionId,
      fileName: 'Run.docx',
      content: (await wordTemplate()).toString('base64'),
    });
    await iterateOverRegion(r.id, 'Run me');
    const posted = await s.ok('POST', '/api/v1/ondemand/requests', {
      config: { reportId: r.id, outputFormat: 'docx' },
      selections: [],
      ignoreExistingFilters: false,
      overrideReportApp: false,
    });
    const done = await waitForRequest(s, posted.id);
    expect(done.status, done.message).toBe('completed');
    expect(done.files.map((x: { name: string }) => x.name).sort()).toEqual(
      [...regionSales.keys()].map((k) => `Run me_${k}.docx`).sort(),
    );
    const result = await s.file('GET', `/api/v1/ondemand/requests/${posted.id}/result`);
    const files = await zipEntries(result.data);
    for (const [region, total] of regionSales) {
      const text = await ooxmlText(files.get(`Run me_${region}.docx`)!, /^word\/document\.xml$/);
      expect(text).toContain(`Sales review: ${shown(total)}`);
      expect(text).not.toContain('{{');
    }
  });
});

// Issue 59, finding 5: a selection of a value the app does not have made an empty report with 200
// and no word about it. It is said now: in the preview, and as the run's warning in its log.
describe(covers('a selection that matches nothing', 'app.reports.preview', 'v1.onDemand.generate'), () => {
  it('says so in the preview and in the run, and says nothing when the value is there', async () => {
    const r = await s.ok('POST', '/api/app/reports/from-template', {
      name: 'Nowhere',
      projectId,
      connectionId,
      fileName: 'Nowhere.docx',
      content: (await wordTemplate()).toString('base64'),
    });
    const missing = await s.ok('POST', `/api/app/reports/${r.id}/preview`, { selections: { Region: ['North'] } });
    expect(missing.warning).toBe(
      'The selection Region = North matches nothing in the app: it has no such Region, so the report is empty',
    );
    const [region] = [...regionSales.keys()];
    const found = await s.ok('POST', `/api/app/reports/${r.id}/preview`, { selections: { Region: [region] } });
    expect(found.warning).toBeNull();

    const run = async (values: string[]) => {
      const posted = await s.ok('POST', '/api/v1/ondemand/requests', {
        config: { reportId: r.id, outputFormat: 'docx' },
        selections: [{ fieldName: 'Region', selectedValues: values }],
        ignoreExistingFilters: false,
        overrideReportApp: false,
      });
      return waitForRequest(s, posted.id);
    };
    const empty = await run(['North']);
    expect(empty.status).toBe('warning');
    expect(empty.message).toContain('Region = North matches nothing in the app');
    const log = await s.ok('GET', `/api/v1/requests/${empty.id}/log`);
    expect(JSON.stringify(log)).toContain('Region = North matches nothing in the app');
    const full = await run([region]);
    expect(full.status, full.message).toBe('completed');
  });
});
