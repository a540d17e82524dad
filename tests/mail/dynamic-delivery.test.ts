// What a task report does per iteration value, over the demo app and a real SMTP server on loopback:
// each address its recipients variable names gets one mail with only its region's file; the folder
// variable puts each region's file in its own folder; a zip of every file goes to the task's own
// recipients; an HTML report embedded in the body shows its figures; variables in the subject.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { startSmtp, type TestSmtp, addLoopbackMailServer } from '../support/smtp.js';
import { waitForRequest } from '../support/requests.js';
import { pdfPages, zipEntries } from '../support/read-back.js';
import { demoSalesByRegion } from '../support/demo-figures.js';
import { covers } from '../support/covers.js';
import { until } from '../support/until.js';
import { outboxIdle } from '../support/outbox.js';

let s: TestServer;
let smtp: TestSmtp;
let folder: string;
let report: { id: string; projectId: string; connectionId: string };
let appRowId: string;
let sales: Map<string, number>;
const en = (n: number) => Math.round(n).toLocaleString('en-US');

beforeAll(async () => {
  smtp = await startSmtp();
  folder = await mkdtemp(join(tmpdir(), 'bs-dyn-'));
  s = await startTestServer({ demo: true, mail: { baseDelayMs: 20, maxDelayMs: 200 } });
  await addLoopbackMailServer(s, smtp);
  [report] = await s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
  appRowId = (await s.ok('GET', '/api/v1/connections', undefined, { projectId: report.projectId })).find(
    (c: { id: string }) => c.id === report.connectionId,
  )?.analyticsAppId;
  await s.ok('POST', `/api/app/analytics/${appRowId}/variables`, {
    name: 'vRegionMail',
    definition: "Min(Region) & '@regions.test'",
  });
  await s.ok('POST', `/api/app/analytics/${appRowId}/variables`, { name: 'vRegionName', definition: 'Min(Region)' });
  sales = await demoSalesByRegion(s);
});
afterAll(async () => {
  await s.stop();
  await smtp.close();
  await rm(folder, { recursive: true, force: true });
});

describe(
  covers('delivery per iteration value', 'v1.taskReports.create', 'v2.tasks.updateEmail', 'v2.requests.run'),
  () => {
    it("mails each address the recipients variable names only its own file, files each region in its folder, and zips all for the task's recipient", async () => {
      const storage = await s.ok('POST', '/api/v1/storage-services', {
        name: 'Share',
        type: 'Folder',
        rootPath: folder,
      });
      const boss = (
        await s.ok('POST', '/api/v1/users', {
          firstName: 'Bo',
          lastName: 'Ss',
          email: 'boss@regions-hq.test',
          isActive: true,
          organizations: [{ id: (await s.ok('GET', '/api/v1/organizations'))[0].id }],
        })
      ).id;
      const task = await s.ok('POST', '/api/v2/tasks', { name: 'Regions by mail', projectID: report.projectId });
      await s.ok('POST', `/api/v1/tasks/${task.id}/reports`, {
        reportId: report.id,
        format: 'Pdf',
        emailAttachment: true,
        zipEmailFiles: true,
        recipientsVariable: 'vRegionMail',
        folderVariable: '$(vRegionName)',
        reportStorageServices: [{ fileStorageServiceId: storage.id, path: 'by-region', order: 0 }],
      });
      await s.ok('POST', `/api/v1/tasks/${task.id}/recipients`, [
        { id: boss, type: 'user', sendEmail: true, seeInHub: false },
      ]);
      await s.ok('PUT', `/api/v2/tasks/${task.id}/email`, {
        from: 'reports@example.com',
        subject: '{TaskName}: $(vTotalSales) in all',
        message: 'Your region.',
        isActive: true,
        oneToAll: false,
      });
      const done = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
      expect(done.status, done.message).toBe('completed');
      const regions = [...sales.keys()].sort();
      const mine = () => smtp.received.filter((m) => m.parsed.subject?.startsWith('Regions by mail:'));
      const got = await until(mine, (x) => x.length >= regions.length + 1);
      await outboxIdle(s);
      expect(mine()).toHaveLength(regions.length + 1);
      const total = [...sales.values()].reduce((a, b) => a + b, 0);
      expect(got[0].parsed.subject).toBe(
        `Regions by mail: ${total.toLocaleString('en-US', { maximumFractionDigits: 2 })} in all`,
      );
      for (const region of regions) {
        const m = got.filter((x) => x.envelopeTo.join() === `${region.toLowerCase()}@regions.test`);
        expect(m, region).toHaveLength(1);
        // One file only, their own: a single file is attached as is, not zipped.
        expect(m[0].parsed.attachments).toHaveLength(1);
        expect(pdfPages(m[0].parsed.attachments[0].content).join('\n')).toContain(en(sales.get(region)!));
        const others = regions.filter((r) => r !== region).map((r) => en(sales.get(r)!));
        for (const o of others) expect(pdfPages(m[0].parsed.attachments[0].content).join('\n')).not.toContain(o);
        // The folder variable: each region's file in its own folder, byte for byte the mailed one.
        const inFolder = await readdir(join(folder, 'by-region', region));
        expect(inFolder).toHaveLength(1);
        expect(
          Buffer.compare(
            await readFile(join(folder, 'by-region', region, inFolder[0])),
            m[0].parsed.attachments[0].content,
          ),
        ).toBe(0);
      }
      const bossMail = got.find((x) => x.envelopeTo.join() === 'boss@regions-hq.test')!;
      expect(bossMail.parsed.attachments.map((a) => a.filename)).toEqual(['Regional sales review.zip']);
      const entries = await zipEntries(bossMail.parsed.attachments[0].content);
      expect(entries.size).toBe(regions.length);
    });

    it('embeds an HTML report in the mail body with its figure, and a PNG chart as an inline image', async () => {
      const reportId = (
        await s.ok('POST', '/api/v2/reports', {
          name: 'Sales card',
          projectID: report.projectId,
          type: 'Html',
          connectionID: report.connectionId,
        })
      ).id;
      await s.ok('PUT', `/api/app/reports/${reportId}/document`, {
        document: {
          blocks: [
            { id: 'k', type: 'kpi', label: 'All sales', expression: 'Sum(Sales)' },
            {
              id: 'c',
              type: 'chart',
              chartType: 'bar',
              dimensions: ['Region'],
              measures: [{ label: 'Sales', expression: 'Sum(Sales)' }],
              title: 'By region',
            },
          ],
        },
      });
      const reader = (
        await s.ok('POST', '/api/v1/users', {
          firstName: 'Em',
          lastName: 'Bed',
          email: 'embed@example.com',
          isActive: true,
          organizations: [{ id: (await s.ok('GET', '/api/v1/organizations'))[0].id }],
        })
      ).id;
      const task = await s.ok('POST', '/api/v2/tasks', { name: 'Embedded card', projectID: report.projectId });
      await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
        reportID: reportId,
        format: 'Html',
        emailAttachment: false,
        emailEmbedment: true,
      });
      await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
        reportID: reportId,
        format: 'Png',
        emailAttachment: false,
        emailEmbedment: true,
      });
      await s.ok('POST', `/api/v1/tasks/${task.id}/recipients`, [
        { id: reader, type: 'user', sendEmail: true, seeInHub: false },
      ]);
      await s.ok('PUT', `/api/v2/tasks/${task.id}/email`, {
        from: 'reports@example.com',
        subject: 'Embedded card',
        message: 'Today <b>sales</b>:',
        isActive: true,
      });
      const done = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
      expect(done.status, done.message).toBe('completed');
      const [m] = await until(
        () => smtp.received.filter((x) => x.parsed.subject === 'Embedded card'),
        (x) => x.length >= 1,
      );
      const html = String(m.parsed.html);
      const total = [...sales.values()].reduce((a, b) => a + b, 0);
      expect(html).toContain(total.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
      // The message is text: its markup is shown, not obeyed.
      expect(html).toContain('Today &#60;b&#62;sales&#60;/b&#62;:');
      expect(html).not.toMatch(/<script/i);
      const image = m.parsed.attachments.find((a) => a.contentType === 'image/png')!;
      expect(image.contentId).toBeTruthy();
      // mailparser swaps a cid: link for the image's data, so the body shows exactly that image inline.
      expect(image.related).toBe(true);
      expect(html).toContain(`src="data:image/png;base64,${image.content.toString('base64')}"`);
    });
  },
);
