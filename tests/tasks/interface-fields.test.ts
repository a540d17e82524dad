// The interface's own field names in answers (issue 21, item 6): answers may carry more fields than
// the interface, never fewer or renamed ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';
import { demoProject } from '../support/demo-figures.js';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { waitForRequest } from '../support/requests.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

let s: TestServer;
let projectId: string;
let reportId: string;
let taskId: string;

beforeAll(async () => {
  s = await startTestServer({ demo: true });
  ({ projectId } = await demoProject(s));
  [{ id: reportId }] = await s.ok('GET', '/api/v1/reports', undefined, { 'name[equals]': 'Regional sales review' });
  taskId = (await s.ok('POST', '/api/v2/tasks', { name: 'Interface names', projectID: projectId })).id;
}, 120_000);
afterAll(() => s.stop());

describe(
  covers(
    'set A and B field names in answers',
    'v2.tasks.upsertReport',
    'v2.tasks.updateEmail',
    'v1.taskEmail.update',
    'v1.taskReports.create',
    'v1.taskReports.list',
    'v1.taskSchedules.create',
    'v1.taskSchedules.get',
    'v2.tasks.upsertExternalEvent',
    'v2.tasks.getExternalEvent',
  ),
  () => {
    it("answers a task report with set A 2.19's names: reportConditions, reportFilters, reportStorageServices, reportFolders, the cloud-drive variables", async () => {
      const condition = (await s.ok('POST', '/api/v2/conditions', { name: 'Any', projectID: projectId })).id;
      const filter = (await s.ok('POST', '/api/v2/filters', { name: 'Some', projectID: projectId })).id;
      await s.ok('POST', `/api/v1/tasks/${taskId}/reports`, {
        reportId,
        format: 'Pdf',
        dropboxVariable: 'vDropbox',
        onedriveVariable: 'vOneDrive',
        googledriveVariable: 'vDrive',
        reportConditions: [{ conditionId: condition }],
        reportFilters: [{ filterId: filter, order: 0 }],
        fileOpenPassword: 'open-sesame-1',
        isOpenFilePasswordProtected: true,
      });
      const [row] = await s.ok('GET', `/api/v1/tasks/${taskId}/reports`);
      expect(row.reportConditions).toEqual([
        { id: expect.stringMatching(/^[0-9a-f-]{36}$/), taskReportId: row.id, conditionId: condition },
      ]);
      expect(row.reportFilters).toEqual([
        { id: expect.stringMatching(/^[0-9a-f-]{36}$/), taskReportId: row.id, filterId: filter, order: 0 },
      ]);
      expect(row.reportStorageServices).toEqual([]);
      expect(row.reportFolders).toEqual([]);
      expect(row).toMatchObject({
        dropboxVariable: 'vDropbox',
        onedriveVariable: 'vOneDrive',
        googledriveVariable: 'vDrive',
        isOpenFilePasswordProtected: true,
      });
      // The password's field is there, as the interface names it; the password never is.
      expect(row.fileOpenPassword).toBeNull();
      expect(JSON.stringify(row)).not.toContain('open-sesame-1');
      // The same link answers the same id each time.
      const [again] = await s.ok('GET', `/api/v1/tasks/${taskId}/reports`);
      expect(again.reportConditions[0].id).toBe(row.reportConditions[0].id);
    });

    it("answers set B's task report, task e-mail and identifiers in set B's names, and delivers a file-storage target that names a storage service", async () => {
      const folder = await mkdtemp(join(tmpdir(), 'broadsheet-setb-'));
      try {
        const svc = await s.ok('POST', '/api/v1/storage-services', {
          name: 'Shared drive',
          type: 'Folder',
          rootPath: folder,
        });
        const task = await s.ok('POST', '/api/v2/tasks', { name: 'Set B names', projectID: projectId });
        expect(task.projectID).toBe(projectId);
        const tr = await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
          reportID: reportId,
          format: 'Pdf',
          emailEmbedment: false,
          emailAttachment: true,
          iterationOptions: { zipEmailFiles: true, recipientsVariable: 'vMail' },
          fileStorage: { fileStorageServiceID: svc.id, path: 'monthly' },
          separatorOptions: { numberDecimalSeparator: ',', numberGroupSeparator: '.' },
        });
        expect(tr).toMatchObject({
          reportID: reportId,
          iterationOptions: {
            zipEmailFiles: true,
            evaluateConditionForEachIteration: false,
            recipientsVariable: 'vMail',
          },
          fileStorage: { fileStorageServiceID: null, path: null },
          separatorOptions: { numberDecimalSeparator: ',', numberGroupSeparator: '.' },
          hub: { folderID: null },
        });
        expect(tr.storageServices).toEqual([
          expect.objectContaining({
            fileStorageServiceID: svc.id,
            type: 'Folder',
            name: 'Shared drive',
            path: 'monthly',
            zipeFiles: false,
          }),
        ]);
        const b = await s.ok('PUT', `/api/v2/tasks/${task.id}/email`, {
          from: 'reports@example.com',
          subject: 'Pack',
          isActive: true,
          ccBcc: true,
          cc: 'boss@example.com',
        });
        expect(b).toMatchObject({
          taskId: task.id,
          from: 'reports@example.com',
          ccBcc: true,
          cc: 'boss@example.com',
          ccAnalyticsVariable: null,
          bccAnalyticsVariable: null,
          subject: 'Pack',
        });
        const a = await s.ok('PUT', `/api/v1/tasks/${task.id}/email`, {
          taskId: task.id,
          subject: 'Pack A',
          message: 'Hello',
          bcBcc: true,
          bc: 'chief@example.com',
          isActive: false,
        });
        expect(a).toMatchObject({
          taskId: task.id,
          bcBcc: true,
          bc: 'chief@example.com',
          ccAnalyticsVariableId: null,
          subject: 'Pack A',
          message: 'Hello',
        });
        // The run writes the file to the storage service the file-storage target named.
        const run = await s.ok('POST', `/api/v2/requests/${task.id}/run`);
        const done = await waitForRequest(s, run.id);
        expect(done.status, done.message).toBe('completed');
        const written = await readdir(join(folder, 'monthly'));
        expect(written.some((n) => n.endsWith('.pdf'))).toBe(true);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });

    it("answers a schedule with set A's timeZoneOfset and an external event with set B's appID", async () => {
      const start = new Date(Date.UTC(2026, 0, 15)).toISOString();
      const schedule = await s.ok('POST', `/api/v1/tasks/${taskId}/triggers/schedules`, {
        name: 'Mondays',
        frequency: 'Weekly',
        weeklyDays: 'Monday',
        atHour: 7,
        atMinut: 0,
        timeZone: 'Asia/Kolkata',
        startDate: start,
        endDate: new Date(Date.UTC(2027, 0, 15)).toISOString(),
      });
      const got = await s.ok('GET', `/api/v1/tasks/${taskId}/triggers/schedules/${schedule.id}`);
      expect(got.timeZoneOfset).toBe('+05:30');
      const event = await s.ok('PUT', `/api/v2/tasks/${taskId}/external-events`, {
        name: 'On reload',
        appID: 'sales-demo',
        execution: 'Parallel',
        priority: 1,
        analyticsEvent: 'Reload',
        startDate: start,
        endDate: new Date(Date.UTC(2027, 0, 15)).toISOString(),
        timeZone: 'UTC',
      });
      const answered = await s.ok('GET', `/api/v2/tasks/${taskId}/external-events/${event.id}`);
      expect(answered.appID).toBe('sales-demo');
      expect(answered.timeZoneOfset).toBe('+00:00');
    });
  },
);
