// A task over the demo app, run from v2.requests.run: files read back and checked against SQL,
// conditions holding and failing (once and per iteration value), stop and delete.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { existsSync, readdirSync } from 'node:fs';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { pdfPages } from '../support/read-back.js';
import { covers } from '../support/covers.js';
import { demoSalesByRegion } from '../support/demo-figures.js';
import { waitForRequest } from '../support/requests.js';

let s: TestServer;
let report: { id: string; projectId: string; connectionId: string };
let appRowId: string;
const regionSales = new Map<string, number>();
const en = (n: number) => Math.round(n).toLocaleString('en-US');

beforeAll(async () => {
  s = await startTestServer({ demo: true });
  [report] = await s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
  appRowId = (await s.ok('GET', '/api/v1/connections', undefined, { projectId: report.projectId })).find(
    (c: { id: string }) => c.id === report.connectionId,
  )?.analyticsAppId;
  for (const [region, total] of await demoSalesByRegion(s)) regionSales.set(region, total);
});
afterAll(() => s.stop());

async function condition(name: string, operator: string, value: number) {
  const c = await s.ok('POST', '/api/v2/conditions', { name, projectID: report.projectId });
  await s.ok('PUT', `/api/v2/conditions/${c.id}/rules`, {
    name: `Sales ${operator} ${value}`,
    analyticsAppID: appRowId,
    values: [{ type: 'Variable', variable: 'vTotalSales', operator, comparisonValue: String(value), order: 0 }],
  });
  return c.id as string;
}

async function taskWith(name: string, reports: unknown[]) {
  const task = await s.ok('POST', '/api/v2/tasks', { name, projectID: report.projectId });
  for (const r of reports) await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, r);
  return task.id as string;
}

const result = (id: string, version: number) =>
  s.file('GET', `/api/v1/ondemand/requests/${id}/result`, { query: { version } });

describe(
  covers(
    'conditions and task runs',
    'v2.conditions.create',
    'v2.conditionRules.upsert',
    'v2.requests.run',
    'v2.requests.downloadLog',
    'v2.requests.downloadFile',
  ),
  () => {
    it('tests a condition now, showing the value each rule read', async () => {
      const total = [...regionSales.values()].reduce((a, b) => a + b, 0);
      const id = await condition('Any sales', '>', 1000);
      const all = await s.ok('POST', `/api/v1/conditions/${id}/test`, {});
      expect(all.holds).toBe(true);
      expect(Math.round(all.rules[0].values[0].actual)).toBe(Math.round(total));
      const emea = await s.ok('POST', `/api/v1/conditions/${id}/test`, { selections: { Region: ['EMEA'] } });
      expect(Math.round(emea.rules[0].values[0].actual)).toBe(Math.round(regionSales.get('EMEA')!));
    });

    it('refuses a rule on a variable the app does not have, naming the value', async () => {
      const c = await s.ok('POST', '/api/v2/conditions', { name: 'Broken', projectID: report.projectId });
      const res = await s.call('PUT', `/api/v2/conditions/${c.id}/rules`, {
        body: {
          name: 'x',
          analyticsAppID: appRowId,
          values: [{ type: 'Variable', variable: 'vNope', operator: '>', comparisonValue: '1' }],
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.errorDetails).toEqual([
        { field: 'body.values.0.variable', message: 'is not a variable of the app "Sales demo"' },
      ]);
    });

    it('runs a task whose one report passes its condition and one does not: PDFs per region matching SQL, the run a warning with the failing value logged', async () => {
      const holds = await condition('Sold something', '>', 1);
      const fails = await condition('Record month', '>', 1e15);
      const taskId = await taskWith('Regional pack', [
        {
          reportID: report.id,
          format: 'Pdf',
          emailEmbedment: false,
          emailAttachment: true,
          conditions: [{ id: holds }],
        },
        {
          reportID: report.id,
          format: 'Html',
          emailEmbedment: false,
          emailAttachment: true,
          conditions: [{ id: fails }],
        },
      ]);
      const queued = await s.ok('POST', `/api/v2/requests/${taskId}/run`);
      expect(queued.status).toBe('queued');
      const done = await waitForRequest(s, queued.id);
      // Left out as the condition was written to: completed, saying so; a warning is for what went wrong.
      expect(done.status).toBe('completed');
      expect(done.message).toBe('“Regional sales review” left out by its conditions');
      expect(done.files.map((f: { name: string }) => f.name).sort()).toEqual([
        'Regional sales review - APAC.pdf',
        'Regional sales review - Americas.pdf',
        'Regional sales review - EMEA.pdf',
      ]);
      for (const [i, f] of done.files.entries()) {
        const region = f.name.match(/- (\w+)\.pdf$/)[1];
        const file = await result(done.id, i + 1);
        expect(file.contentType).toBe('application/pdf');
        expect(pdfPages(file.data).join('\n')).toContain(en(regionSales.get(region)!));
      }
      const log = await s.file('GET', `/api/v2/requests/${done.id}/log`);
      const text = log.data.toString();
      expect(text).toMatch(
        /Condition “Record month”, rule “Sales > 1000000000000000”: vTotalSales > 1000000000000000 → [\d.]+ \(fails\)/,
      );
      expect(text).toContain('Ended completed');
      const uri = await s.ok('GET', `/api/v2/requests/${done.id}/file`, undefined, { version: '2' });
      expect(uri.uri).toBe(`/api/v1/ondemand/requests/${done.id}/result?version=2`);
      expect(uri.fileName).toBe(done.files[1].name);
    });

    it('evaluates a condition for each iteration value when asked: only the regions that pass get a file', async () => {
      const sorted = [...regionSales.entries()].sort((a, b) => a[1] - b[1]);
      const threshold = (sorted[0][1] + sorted[1][1]) / 2;
      const big = await condition('Big region', '>', Math.round(threshold));
      const taskId = await taskWith('Big regions only', [
        {
          reportID: report.id,
          format: 'Html',
          emailEmbedment: false,
          emailAttachment: true,
          conditions: [{ id: big }],
          iterationOptions: { evaluateConditionForEachIteration: true },
        },
      ]);
      const done = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${taskId}/run`)).id);
      expect(done.status).toBe('completed');
      expect(done.files.map((f: { name: string }) => f.name).sort()).toEqual(
        sorted
          .slice(1)
          .map(([r]) => `Regional sales review - ${r}.html`)
          .sort(),
      );
      expect(done.message).toContain('1 iteration value left out');
    });

    it("writes numbers with the task report's separators", async () => {
      const taskId = await taskWith('European numbers', [
        {
          reportID: report.id,
          format: 'Html',
          emailEmbedment: false,
          emailAttachment: true,
          separatorOptions: { numberDecimalSeparator: ',', numberGroupSeparator: '.' },
        },
      ]);
      const done = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${taskId}/run`)).id);
      const i = done.files.findIndex((f: { name: string }) => f.name.endsWith('EMEA.html'));
      const html = (await result(done.id, i + 1)).data.toString();
      expect(html).toContain(en(regionSales.get('EMEA')!).replace(/,/g, '.'));
      const bad = await s.call('PUT', `/api/v2/tasks/${taskId}/reports`, {
        body: {
          reportID: report.id,
          format: 'Html',
          emailEmbedment: false,
          emailAttachment: true,
          separatorOptions: { numberDecimalSeparator: ';' },
        },
      });
      expect(bad.body.errorDetails).toEqual([
        { field: 'body.separatorOptions.numberDecimalSeparator', message: 'must be one of: ., ,' },
      ]);
    });

    it('deletes a finished request with its log and files', async () => {
      const taskId = await taskWith('To delete', [
        { reportID: report.id, format: 'Html', emailEmbedment: false, emailAttachment: true },
      ]);
      const done = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${taskId}/run`)).id);
      expect(done.status).toBe('completed');
      const folder = join(s.dataDir, 'files', 'requests', done.id);
      expect(readdirSync(folder)).toHaveLength(3);
      expect(existsSync(join(s.dataDir, 'logs', 'requests', `${done.id}.log`))).toBe(true);
      await s.ok('DELETE', `/api/v2/requests/${done.id}`);
      expect(existsSync(folder)).toBe(false);
      expect(existsSync(join(s.dataDir, 'logs', 'requests', `${done.id}.log`))).toBe(false);
      expect((await s.call('GET', `/api/v1/ondemand/requests/${done.id}`)).status).toBe(404);
    });
  },
);
