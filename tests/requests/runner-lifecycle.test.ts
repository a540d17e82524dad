// Requests through their life: a long run stopped midway keeps nothing; an engine killed with
// SIGKILL mid-run restarts with that request failed and no half-written file; on-demand requests
// over the reference product's paths; an app reload starts the tasks listening to it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEngineProcess } from '../support/engine-process.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { fixtures, type Fixtures } from '../support/samples.js';
import { pdfPages } from '../support/read-back.js';
import { covers } from '../support/covers.js';
import { waitForRequest } from '../support/requests.js';
import { until } from '../support/until.js';

const key = randomBytes(32);
const keys = { load: async () => key, save: async () => {} };
let s: TestServer;
let f: Fixtures;
let demo: { id: string; projectId: string };
let customersTask: string;

beforeAll(async () => {
  // The data folder outlives this server: the crash test reopens it in another process.
  s = await startTestServer({ demo: true, secretKeys: keys, keepDataDir: true });
  f = await fixtures(s);
  [demo] = await s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
  // One PDF per customer: 600 files, long enough to stop or kill midway.
  const meta = await s.engine.services.analytics.meta('sales-demo');
  const customer = meta.fields.find((x) => x.name === 'Customer')!;
  const r = await s.ok('POST', '/api/v2/reports', { name: 'Customer letter', projectID: demo.projectId, type: 'Word' });
  await s.ok('PUT', `/api/app/reports/${r.id}/document`, {
    document: {
      blocks: [
        { id: 'h', type: 'heading', text: 'Your year', level: 1 },
        { id: 'k', type: 'kpi', label: 'Sales', expression: 'Sum(Sales)' },
      ],
    },
  });
  await s.ok('PUT', `/api/v2/reports/${r.id}`, {
    name: 'Customer letter',
    isIteration: true,
    iterationFields: [{ fieldID: customer.id, order: 0 }],
  });
  customersTask = (await s.ok('POST', '/api/v2/tasks', { name: 'Customer letters', projectID: demo.projectId })).id;
  await s.ok('PUT', `/api/v2/tasks/${customersTask}/reports`, {
    reportID: r.id,
    format: 'Pdf',
    emailEmbedment: false,
    emailAttachment: true,
  });
});
afterAll(async () => {
  await s.stop();
  const { rm } = await import('node:fs/promises');
  await rm(s.dataDir, { recursive: true, force: true });
});

describe(covers('stopping and deleting runs', 'v2.requests.stop', 'v2.requests.delete'), () => {
  it('stops a 600-file run midway: it ends aborted, with no file left', async () => {
    const queued = await s.ok('POST', `/api/v2/requests/${customersTask}/run`);
    await waitForRequest(s, queued.id, (r) => r.status === 'running' && r.progress.done >= 20);
    const stopped = await s.ok('POST', `/api/v2/requests/${queued.id}/stop`);
    expect(stopped.status).toBe('aborted');
    expect(stopped.files).toEqual([]);
    expect(stopped.progress.done).toBeLessThan(600);
    expect(existsSync(join(s.dataDir, 'files', 'requests', queued.id))).toBe(false);
    const log = readFileSync(join(s.dataDir, 'logs', 'requests', `${queued.id}.log`), 'utf8');
    expect(log).toContain('Ended aborted: Stopped');
    // Stopping again changes nothing: the answer says how it ended.
    const again = await s.ok('POST', `/api/v2/requests/${queued.id}/stop`);
    expect(again).toMatchObject({ status: 'aborted', message: 'Stopped' });
  });

  it('stops a queued request before it starts, and deleting a running one stops it first', async () => {
    const first = await s.ok('POST', `/api/v2/requests/${customersTask}/run`);
    const second = await s.ok('POST', `/api/v2/requests/${customersTask}/run`);
    const third = await s.ok('POST', `/api/v2/requests/${customersTask}/run`);
    // Two run at once; the third waits.
    await waitForRequest(s, first.id, (r) => r.status === 'running');
    expect((await s.ok('GET', `/api/v1/ondemand/requests/${third.id}`)).status).toBe('queued');
    expect((await s.ok('POST', `/api/v2/requests/${third.id}/stop`)).status).toBe('aborted');
    await s.ok('DELETE', `/api/v2/requests/${first.id}`);
    await s.ok('DELETE', `/api/v2/requests/${second.id}`);
    for (const id of [first.id, second.id]) {
      expect((await s.call('GET', `/api/v1/ondemand/requests/${id}`)).status).toBe(404);
      expect(existsSync(join(s.dataDir, 'files', 'requests', id))).toBe(false);
    }
  });
});

describe('a crash mid-run', () => {
  it('restarts the interrupted request from the beginning once, saying so, and it ends with every file whole', async () => {
    // Queue with nothing running it, then let another process pick the queue up and kill it.
    await s.stop();
    const paused = await startTestServer({
      dataDir: s.dataDir,
      secretKeys: keys,
      keepDataDir: true,
      concurrentRequests: 0,
    });
    const queued = await paused.ok('POST', `/api/v2/requests/${customersTask}/run`);
    await paused.stop();
    const child = startEngineProcess(s.dataDir, key, { BROADSHEET_TEST_PROGRESS: '30' });
    const running = await child.running;
    expect(running).toBe(queued.id);
    await child.kill();
    s = await startTestServer({ dataDir: s.dataDir, secretKeys: keys, keepDataDir: true });
    f = await fixtures(s);
    const after = await waitForRequest(s, queued.id);
    expect(after.status).toBe('completed');
    const names = readdirSync(join(s.dataDir, 'files', 'requests', queued.id));
    expect(names.filter((n) => n.endsWith('.pdf'))).toHaveLength(600);
    expect(names.filter((n) => n.endsWith('.part'))).toEqual([]);
    const log = readFileSync(join(s.dataDir, 'logs', 'requests', `${queued.id}.log`), 'utf8');
    expect(log).toMatch(
      /Interrupted: the app stopped while this request was running \(a crash or power loss\); started again \(attempt 2 of 2\), \d+ files? removed/,
    );
    expect(log.match(/Started \(/g)).toHaveLength(2);
  }, 180_000);
});

describe(
  covers(
    'on-demand requests over the reference paths',
    'v1.onDemand.generate',
    'v1.requests.listOnDemandStatuses',
    'v1.requests.listScheduledStatuses',
  ),
  () => {
    it('makes a report on demand with selections, lists it by project, gives its file, and deletes it', async () => {
      const posted = await s.ok('POST', '/api/v1/ondemand/requests', {
        config: { reportId: demo.id, outputFormat: 'pdf' },
        selections: [{ fieldName: 'Region', selectedCount: 1, selectedValues: ['EMEA'], isNumeric: false }],
        ignoreExistingFilters: false,
        overrideReportApp: false,
      });
      const done = await waitForRequest(s, posted.id);
      expect(done).toMatchObject({
        status: 'completed',
        title: 'Regional sales review',
        source: 'Report',
        outputFormats: ['Pdf'],
      });
      expect(done.files.map((x: { name: string }) => x.name)).toEqual(['Regional sales review - EMEA.pdf']);
      const listed = await s.ok('GET', '/api/v1/ondemand/requests', undefined, {
        projectId: demo.projectId,
        get_all: true,
      });
      expect(listed.find((r: { id: string }) => r.id === posted.id)).toMatchObject({
        title: 'Regional sales review',
        status: 'completed',
        createdDate: expect.any(String),
      });
      const other = await f.make.project();
      expect(await s.ok('GET', '/api/v1/ondemand/requests', undefined, { projectId: other, get_all: true })).toEqual(
        [],
      );
      const file = await s.file('GET', `/api/v1/ondemand/requests/${posted.id}/result`);
      expect(file.contentType).toBe('application/pdf');
      expect(pdfPages(file.data).join('\n')).toContain('Sales review');
      const statuses = await s.ok('GET', '/api/v1/request-statuses/on-demand', undefined, {
        sort_by: 'ExecutionEnd',
        sort_direction: 'desc',
      });
      expect(statuses[0].id).toBe(posted.id);
      await s.ok('DELETE', `/api/v1/ondemand/requests/${posted.id}`);
      expect((await s.call('GET', `/api/v1/ondemand/requests/${posted.id}/result`)).status).toBe(404);
    });

    it('refuses a format the report does not offer, naming the field', async () => {
      const res = await s.call('POST', '/api/v1/ondemand/requests', {
        body: { config: { reportId: demo.id, outputFormat: 'Xlsx' } },
      });
      expect(res.status).toBe(400);
      expect(res.body.errorDetails?.[0].field).toBe('body.config.outputFormat');
    });

    it('lists the reports of one project only when asked with projectId', async () => {
      const other = await f.make.project();
      await s.ok('POST', '/api/v2/reports', { name: 'Elsewhere', projectID: other, type: 'Word' });
      const mine = await s.ok('GET', '/api/v1/reports', undefined, { projectId: demo.projectId, get_all: true });
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.every((r: { projectId: string }) => r.projectId === demo.projectId)).toBe(true);
    });
  },
);

describe(covers('external events', 'v1.taskExternalEvents.create'), () => {
  it('starts the tasks listening to an app when it reloads, and lists them as scheduled', async () => {
    const appRow = await f.make.app();
    const apps = await s.ok('GET', '/api/v1/analytics-apps', undefined, { get_all: true });
    const providerId = apps.find((a: { id: string }) => a.id === appRow).appId;
    const task = await s.ok('POST', '/api/v2/tasks', { name: 'After reload', projectID: demo.projectId });
    const event = await s.ok('POST', `/api/v1/tasks/${task.id}/triggers/external-events`, {
      name: 'On reload',
      appId: providerId,
      startDate: new Date(Date.now() - 86400_000).toISOString(),
      endDate: new Date(Date.now() + 86400_000).toISOString(),
    });
    await s.ok('POST', `/api/app/analytics/${appRow}/import`, {
      fileName: 'data.csv',
      content: 'Region,Units\nNorth,4\n',
    });
    const [run] = await until(
      () => s.ok('GET', '/api/v1/requests', undefined, { task_id: task.id }),
      (x) => x.length > 0,
    );
    expect(run).toMatchObject({ kind: 'ScheduledTask', triggerId: event.id });
    const scheduled = await s.ok('GET', '/api/v1/request-statuses/scheduled', undefined, {
      'name[equals]': 'After reload',
    });
    expect(scheduled[0]).toMatchObject({ name: 'After reload', schedule: `When ${providerId} reloads` });
  });
});

describe('CORS from a trusted origin', () => {
  it('accepts the request headers a browser client asks for in a preflight', async () => {
    await s.ok('POST', '/api/v1/trusted-origins', { name: 'Portal', address: 'https://portal.example.com' });
    const res = await fetch(`${s.url}/api/v1/ondemand/requests`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://portal.example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type,access-control-allow-headers',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://portal.example.com');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toBe(
      'authorization,content-type,access-control-allow-headers',
    );
    const stranger = await fetch(`${s.url}/api/v1/ondemand/requests`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example.com', 'access-control-request-method': 'POST' },
    });
    expect(stranger.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe(covers('template items', 'app.reports.templateItems'), () => {
  it('lists the tags a template can use, by kind, in the reference shape with the tag to paste', async () => {
    const items = await s.ok('GET', `/api/v1/reports/${demo.id}/template-items`);
    type Item = {
      id: string;
      itemID: string;
      title: string;
      type: string;
      objects: Item[] | null;
      columns?: { id: string; name: string }[];
    };
    const node = (type: string) =>
      items.nodes.find((n: { type: string }) => n.type === type) as { name: string; icon: string; objects: Item[] };
    expect(node('variable').objects.map((o) => o.itemID)).toEqual(
      expect.arrayContaining(['{{vTotalSales}}', '{{vMarginPct}}']),
    );
    const region = node('field').objects.find((o) => o.title === 'Region')!;
    expect(region.itemID).toBe('{{field:Region}}');
    expect(region.objects!.map((o) => o.itemID)).toContain('{{#level:Region}}…{{/level:Region}}');
    // Tables under their sheet, as the reference client reads them: Sheet → StraightTable with columns.
    const sheet = node('table').objects.find((o) => o.type === 'Sheet')!;
    expect(sheet.title).toBe('Overview');
    const top = sheet.objects!.find((o) => o.title === 'Top customers')!;
    expect(top).toMatchObject({ itemID: '{{table:Top customers}}', type: 'StraightTable' });
    expect(top.columns!.map((c) => c.name)).toEqual(['Customer', 'Country', 'Orders', 'Sales']);
    expect(top.objects!.map((o) => o.itemID)).toContain('{{column:Top customers:Sales}}');
    for (const o of [...node('variable').objects, ...node('image').objects])
      expect(Object.keys(o).sort()).toEqual(['id', 'itemID', 'objects', 'title', 'type']);
    expect(node('image').icon).toBe('image');
  });
});
