// The interface's own field names in answers (issue 21, item 6): answers may carry more fields than
// the interface, never fewer or renamed ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { covers } from '../support/covers.js';
import { demoProject } from '../support/demo-figures.js';

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

describe(covers('set A and B field names in answers', 'v1.taskReports.create', 'v1.taskReports.list', 'v1.taskSchedules.create', 'v1.taskSchedules.get', 'v2.tasks.upsertExternalEvent', 'v2.tasks.getExternalEvent'), () => {
  it('answers a task report with set A 2.19\'s names: reportConditions, reportFilters, reportStorageServices, reportFolders, the cloud-drive variables', async () => {
    const condition = (await s.ok('POST', '/api/v2/conditions', { name: 'Any', projectID: projectId })).id;
    const filter = (await s.ok('POST', '/api/v2/filters', { name: 'Some', projectID: projectId })).id;
    await s.ok('POST', `/api/v1/tasks/${taskId}/reports`, {
      reportId, format: 'Pdf', dropboxVariable: 'vDropbox', onedriveVariable: 'vOneDrive', googledriveVariable: 'vDrive',
      reportConditions: [{ conditionId: condition }], reportFilters: [{ filterId: filter, order: 0 }], fileOpenPassword: 'open-sesame-1', isOpenFilePasswordProtected: true,
    });
    const [row] = await s.ok('GET', `/api/v1/tasks/${taskId}/reports`);
    expect(row.reportConditions).toEqual([{ id: expect.stringMatching(/^[0-9a-f-]{36}$/), taskReportId: row.id, conditionId: condition }]);
    expect(row.reportFilters).toEqual([{ id: expect.stringMatching(/^[0-9a-f-]{36}$/), taskReportId: row.id, filterId: filter, order: 0 }]);
    expect(row.reportStorageServices).toEqual([]);
    expect(row.reportFolders).toEqual([]);
    expect(row).toMatchObject({ dropboxVariable: 'vDropbox', onedriveVariable: 'vOneDrive', googledriveVariable: 'vDrive', isOpenFilePasswordProtected: true });
    // The password's field is there, as the interface names it; the password never is.
    expect(row.fileOpenPassword).toBeNull();
    expect(JSON.stringify(row)).not.toContain('open-sesame-1');
    // The same link answers the same id each time.
    const [again] = await s.ok('GET', `/api/v1/tasks/${taskId}/reports`);
    expect(again.reportConditions[0].id).toBe(row.reportConditions[0].id);
  });

  it('answers a schedule with set A\'s timeZoneOfset and an external event with set B\'s appID', async () => {
    const start = new Date(Date.UTC(2026, 0, 15)).toISOString();
    const schedule = await s.ok('POST', `/api/v1/tasks/${taskId}/triggers/schedules`, { name: 'Mondays', frequency: 'Weekly', weeklyDays: 'Monday', atHour: 7, atMinut: 0, timeZone: 'Asia/Kolkata', startDate: start, endDate: new Date(Date.UTC(2027, 0, 15)).toISOString() });
    const got = await s.ok('GET', `/api/v1/tasks/${taskId}/triggers/schedules/${schedule.id}`);
    expect(got.timeZoneOfset).toBe('+05:30');
    const event = await s.ok('PUT', `/api/v2/tasks/${taskId}/external-events`, { name: 'On reload', appID: 'sales-demo', execution: 'Parallel', priority: 1, analyticsEvent: 'Reload', startDate: start, endDate: new Date(Date.UTC(2027, 0, 15)).toISOString(), timeZone: 'UTC' });
    const answered = await s.ok('GET', `/api/v2/tasks/${taskId}/external-events/${event.id}`);
    expect(answered.appID).toBe('sales-demo');
    expect(answered.timeZoneOfset).toBe('+00:00');
  });
});
