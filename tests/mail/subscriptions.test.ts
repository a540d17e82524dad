// Subscriptions over HTTP, with the demo app and a real SMTP server on loopback: a hub user
// subscribes to a report published to them, with selections that narrow the publishing task's
// filter but cannot widen it, on a schedule; the scheduler fires it and their mail holds exactly the
// files of the regions both allow. A chart subscription arrives as a PNG shown in the mail. What may
// not be subscribed to, or sent to others, is refused naming the field; another's subscription is 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, signedInUserWith, type TestServer } from '../support/test-server.js';
import { startSmtp, type TestSmtp, addLoopbackMailServer } from '../support/smtp.js';
import { waitForRequest } from '../support/requests.js';
import { pdfPages } from '../support/read-back.js';
import { demoSalesByRegion } from '../support/demo-figures.js';
import { covers } from '../support/covers.js';
import { until } from '../support/until.js';
import { sql } from '../../engine/core/sql.js';

let s: TestServer;
let smtp: TestSmtp;
let report: { id: string; projectId: string; connectionId: string };
let regions: string[];
let sales: Map<string, number>;
let reader: { token: string; userId: string };
let readerEmail: string;
let chartId: string;
const HUB_USER = { previewPublishedReport: true, downloadPublishedReport: true, subscribePublishedReport: true };
const en = (n: number) => Math.round(n).toLocaleString('en-US');

const as = (token: string) => ({
  call: (method: string, path: string, body?: unknown, query?: Record<string, string | number | boolean>) =>
    s.call(method, path, { token, body, query }),
});

/** A Once schedule a moment from now (the scheduler's timers run in this server). */
const soon = (ms = 1500) => ({
  frequency: 'Once',
  timeZone: 'UTC',
  startDate: new Date(Date.now() + ms).toISOString(),
  endDate: new Date(Date.now() + 86400_000).toISOString(),
});
const farAway = {
  frequency: 'Daily',
  atHour: 6,
  atMinut: 30,
  timeZone: 'Europe/Paris',
  startDate: '2030-01-01T00:00:00Z',
  endDate: '2031-01-01T00:00:00Z',
};

beforeAll(async () => {
  smtp = await startSmtp();
  s = await startTestServer({ demo: true, mail: { baseDelayMs: 20, maxDelayMs: 200 } });
  await addLoopbackMailServer(s, smtp);
  [report] = await s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
  sales = await demoSalesByRegion(s);
  regions = [...sales.keys()].sort();
  const meta = await s.engine.services.analytics.meta('sales-demo');
  chartId = meta.charts.find((c) => c.name === 'Sales by region')!.id;
  const region = meta.fields.find((f) => f.name === 'Region')!;
  reader = await signedInUserWith(s, HUB_USER, 'subscriber');
  readerEmail = (
    await sql<{ email: string }>(s.engine.services.db, 'SELECT email FROM users WHERE id = ?', [reader.userId])
  )[0].email;
  // Published to the reader through the hub, filtered to the first two regions.
  const filter = await s.ok('POST', '/api/v2/filters', { name: 'Two regions', projectID: report.projectId });
  await s.ok('PUT', `/api/v2/filters/${filter.id}/fields`, {
    analyticsFieldID: region.id,
    filterItemFieldValues: regions.slice(0, 2),
  });
  const root = (await s.ok('GET', '/api/v1/hub/folders', undefined, { exceptRoot: false, get_all: true })).find(
    (x: { isRoot: boolean }) => x.isRoot,
  ).id;
  const task = await s.ok('POST', '/api/v2/tasks', { name: 'Two regions to the hub', projectID: report.projectId });
  await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
    reportID: report.id,
    format: 'Pdf',
    emailAttachment: false,
    emailEmbedment: false,
    filters: [{ id: filter.id, order: 0 }],
    hub: { folderID: root, hubMaxFileOccurrences: 1 },
  });
  await s.ok('POST', `/api/v1/tasks/${task.id}/recipients`, [
    { id: reader.userId, type: 'user', sendEmail: false, seeInHub: true },
  ]);
  const done = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
  expect(done.status, done.message).toBe('completed');
});
afterAll(async () => {
  await s.stop();
  await smtp.close();
});

describe(
  covers(
    'subscriptions',
    'v1.subscriptions.create',
    'v1.subscriptions.listOwn',
    'v1.subscriptions.update',
    'v1.subscriptions.delete',
    'v1.subscriptions.listBySite',
  ),
  () => {
    it('mails a hub user the report published to them on their schedule, narrowed by their selections and never wider than the hub', async () => {
      const [first, second, third] = regions;
      const created = await as(reader.token).call('POST', '/api/v1/subscriptions', {
        name: 'My regions',
        triggerType: 'Schedule',
        type: 'Report',
        reports: [
          {
            id: report.id,
            formats: ['pdf'],
            emailAttachment: true,
            filter: { selections: [{ fieldName: 'Region', selectedValues: [first, third] }] },
          },
        ],
        schedule: soon(),
        email: { subject: 'My regions, fresh', message: 'As you asked.' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const sub = created.body.data;
      expect(sub.recipients).toEqual([expect.objectContaining({ id: reader.userId, email: readerEmail })]);
      expect(sub.nextExecutionDate).toBeTruthy();
      expect(sub.reports[0]).toMatchObject({ id: report.id, name: 'Regional sales review', formats: ['Pdf'] });

      const [mail] = await until(
        () => smtp.received.filter((m) => m.parsed.subject === 'My regions, fresh'),
        (x) => x.length >= 1,
        60_000,
      );
      expect(mail.envelopeTo).toEqual([readerEmail]);
      expect(mail.parsed.text?.trim()).toBe('As you asked.');
      // The task's filter allows the first two regions, the subscriber asked for the first and the
      // third: the first alone is both, so one file, with its figure and no other region's.
      expect(mail.parsed.attachments).toHaveLength(1);
      const text = pdfPages(mail.parsed.attachments[0].content).join('\n');
      expect(text).toContain(en(sales.get(first)!));
      for (const other of [second, third]) expect(text).not.toContain(en(sales.get(other)!));

      // Its run is in the history, its one slot ran; its task is no task to the task screens.
      const listed = await as(reader.token).call('GET', '/api/v1/subscriptions', undefined, { get_all: true });
      const mine = listed.body.data.find((x: { id: string }) => x.id === sub.id);
      expect(mine.lastExecutionDate).toBeTruthy();
      expect(mine.nextExecutionDate).toBeNull();
      const tasks = await s.ok('GET', '/api/v1/tasks', undefined, { get_all: true });
      expect(tasks.map((t: { name: string }) => t.name)).not.toContain('Subscription: My regions');
      const runs = await s.ok('GET', '/api/v1/requests', undefined, { get_all: true });
      const run = runs.find((r: { title: string }) => r.title === 'Subscription: My regions');
      expect(run?.status).toBe('completed');
      expect((await s.call('GET', `/api/v1/tasks/${run.taskId}`)).status).toBe(404);
      expect((await s.call('POST', `/api/v2/requests/${run.taskId}/run`)).status).toBe(404);
    });

    it('mails a chart as a PNG shown in the body, at the size asked', async () => {
      const created = await as(reader.token).call('POST', '/api/v1/subscriptions', {
        triggerType: 'Schedule',
        type: 'AnalyticsEntity',
        analyticsEntity: { id: chartId, appId: 'sales-demo', format: 'png', width: 900, height: 500 },
        schedule: soon(),
        email: { subject: 'Chart of the day', message: 'The chart:' },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.body.data.subscribeTo).toBe(`Chart ${chartId}`);
      const [mail] = await until(
        () => smtp.received.filter((m) => m.parsed.subject === 'Chart of the day'),
        (x) => x.length >= 1,
        60_000,
      );
      const image = mail.parsed.attachments.find((a) => a.contentType === 'image/png')!;
      expect(image.related).toBe(true);
      expect(image.filename).toBe('Sales by region.png');
      expect(image.content.subarray(1, 4).toString()).toBe('PNG');
      // The PNG header's width: the size the subscription asked for.
      expect(image.content.readUInt32BE(16)).toBe(900);
      expect(String(mail.parsed.html)).toContain(`src="data:image/png;base64,${image.content.toString('base64')}"`);
    });

    it("changes and deletes only the subscriber's own, and lists them by the interface's sorts and filters", async () => {
      const body = (subject: string) => ({
        name: subject,
        triggerType: 'Schedule',
        type: 'Report',
        reports: [{ id: report.id, formats: ['Pdf'] }],
        schedule: farAway,
        email: { subject },
      });
      const a = (await as(reader.token).call('POST', '/api/v1/subscriptions', body('Alpha'))).body.data;
      const b = (await as(reader.token).call('POST', '/api/v1/subscriptions', body('Beta'))).body.data;
      expect(a.schedule).toMatchObject({ frequency: 'Daily', atHour: 6, timeZone: 'Europe/Paris' });
      expect(a.nextExecutionDate).toBe('2030-01-01T05:30:00.000Z');
      const changed = await as(reader.token).call('PUT', `/api/v1/subscriptions/${a.id}`, {
        ...body('Alpha, weekly'),
        triggerType: 'ExternalEvent',
        externalEvent: {},
      });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(changed.body.data).toMatchObject({
        triggerType: 'ExternalEvent',
        schedule: null,
        externalEvent: expect.objectContaining({ appId: 'sales-demo' }),
      });
      expect(changed.body.data.email.subject).toBe('Alpha, weekly');

      const byName = await as(reader.token).call('GET', '/api/v1/subscriptions/site', undefined, {
        'name[startswith]': 'Alpha',
        get_all: true,
      });
      expect(byName.body.data.map((x: { id: string }) => x.id)).toEqual([a.id]);
      const sorted = await as(reader.token).call('GET', '/api/v1/subscriptions', undefined, {
        sort_by: 'Subject',
        sort_direction: 'desc',
        'type[equals]': 'Report',
        get_all: true,
      });
      const subjects = sorted.body.data.map((x: { email: { subject: string } }) => x.email.subject);
      expect(subjects).toEqual([...subjects].sort((x: string, y: string) => y.localeCompare(x)));

      // Someone else: not found by id, not in their list, not deletable.
      const other = await signedInUserWith(s, HUB_USER, 'other');
      expect((await as(other.token).call('PUT', `/api/v1/subscriptions/${a.id}`, body('Mine now'))).status).toBe(404);
      expect(
        (await as(other.token).call('GET', '/api/v1/subscriptions', undefined, { get_all: true })).body.data,
      ).toEqual([]);
      const refused = await as(other.token).call('DELETE', '/api/v1/subscriptions', [a.id]);
      expect(refused.status).toBe(400);
      expect(refused.body.errorDetails?.[0].field).toBe('body.0');

      const deleted = await as(reader.token).call('DELETE', '/api/v1/subscriptions', [a.id, b.id]);
      expect(deleted.body.data).toEqual({ deleted: 2 });
      const left = (
        await as(reader.token).call('GET', '/api/v1/subscriptions', undefined, { get_all: true })
      ).body.data.map((x: { id: string }) => x.id);
      expect(left).not.toContain(a.id);
      expect(left).not.toContain(b.id);
    });

    it("takes a bookmark of the app as the filter: its selections apply under the subscriber's own, and the filter is answered as given", async () => {
      const [first, second] = regions;
      const [{ id: appRowId }] = await sql<{ id: string }>(
        s.engine.services.db,
        'SELECT id FROM analytics_apps WHERE "appId" = \'sales-demo\'',
      );
      const bookmark = await s.ok('POST', `/api/app/analytics/${appRowId}/bookmarks`, {
        name: 'First region',
        selections: { Region: [first] },
      });
      const res = await as(reader.token).call('POST', '/api/v1/subscriptions', {
        name: 'Bookmarked',
        triggerType: 'Schedule',
        type: 'Report',
        schedule: farAway,
        email: { subject: 'Bookmarked' },
        reports: [
          {
            id: report.id,
            formats: ['Pdf'],
            filter: { bookmarkName: 'first region', serverAddress: 'https://analytics.example.com' },
          },
        ],
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.reports[0].filter).toEqual({
        selections: [{ fieldName: 'Region', selectedCount: 1, selectedValues: [first], isNumeric: false }],
        selectionsPreview: `Region: ${first}`,
        bookmarkId: bookmark.id,
        bookmarkName: 'First region',
        appId: 'sales-demo',
        serverAddress: 'https://analytics.example.com',
      });
      // The subscriber's own selection of a field wins over the bookmark's.
      const own = await as(reader.token).call('PUT', `/api/v1/subscriptions/${res.body.data.id}`, {
        name: 'Bookmarked',
        triggerType: 'Schedule',
        type: 'Report',
        schedule: farAway,
        email: { subject: 'Bookmarked' },
        reports: [
          {
            id: report.id,
            formats: ['Pdf'],
            filter: { bookmarkId: bookmark.id, selections: [{ fieldName: 'Region', selectedValues: [second] }] },
          },
        ],
      });
      expect(own.body.data.reports[0].filter).toMatchObject({
        selections: [expect.objectContaining({ selectedValues: [second] })],
        bookmarkName: 'First region',
      });
      const unknown = await as(reader.token).call('POST', '/api/v1/subscriptions', {
        triggerType: 'Schedule',
        type: 'Report',
        schedule: farAway,
        email: { subject: 'x' },
        reports: [{ id: report.id, formats: ['Pdf'], filter: { bookmarkId: 'no-such-bookmark' } }],
      });
      expect(unknown.status).toBe(400);
      expect(unknown.body.errorDetails!.map((e: { field: string }) => e.field)).toEqual([
        'body.reports.0.filter.bookmarkId',
      ]);
      await as(reader.token).call('DELETE', '/api/v1/subscriptions', [res.body.data.id]);
    });

    it('refuses what may not be subscribed to or sent, naming the field, and stores nothing', async () => {
      const before = (await as(reader.token).call('GET', '/api/v1/subscriptions', undefined, { get_all: true })).body
        .data.length;
      const base = {
        triggerType: 'Schedule',
        type: 'Report',
        reports: [{ id: report.id, formats: ['Pdf'] }],
        schedule: farAway,
        email: { subject: 'x' },
      };
      const field = async (token: string, body: unknown) => {
        const res = await as(token).call('POST', '/api/v1/subscriptions', body);
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        return (res.body.errorDetails ?? []).map((e: { field: string }) => e.field);
      };
      const stranger = await signedInUserWith(s, HUB_USER, 'stranger');
      expect(await field(stranger.token, base)).toEqual(['body.reports.0.id']);
      expect(await field(reader.token, { ...base, reports: [{ id: report.id, formats: ['Xlsx'] }] })).toEqual([
        'body.reports.0.formats.0',
      ]);
      expect(
        await field(reader.token, {
          ...base,
          reports: [
            { id: report.id, formats: ['Pdf'], filter: { selections: [{ fieldName: 'Nope', selectedValues: ['x'] }] } },
          ],
        }),
      ).toEqual(['body.reports.0.filter.selections.0.fieldName']);
      expect(await field(reader.token, { ...base, recipients: [{ id: stranger.userId }] })).toEqual([
        'body.recipients.0.id',
      ]);
      expect(await field(reader.token, { ...base, email: { subject: 'Hi\r\nBcc: victim@example.com' } })).toEqual([
        'body.email.subject',
      ]);
      expect(
        await field(reader.token, { ...base, email: { subject: 'x', bc: 'friend@example.com; not an address' } }),
      ).toEqual(['body.email.bc']);
      expect(
        await field(reader.token, {
          ...base,
          type: 'AnalyticsEntity',
          reports: null,
          analyticsEntity: { id: 'no-such-chart', appId: 'sales-demo' },
        }),
      ).toEqual(['body.analyticsEntity.id']);
      expect(await field(reader.token, { ...base, schedule: null })).toEqual(['body.schedule']);
      const noRight = await signedInUserWith(s, { previewPublishedReport: true }, 'no-subscribe');
      expect((await as(noRight.token).call('POST', '/api/v1/subscriptions', base)).status).toBe(403);
      expect(
        (await as(reader.token).call('GET', '/api/v1/subscriptions', undefined, { get_all: true })).body.data,
      ).toHaveLength(before);
    });
  },
);
