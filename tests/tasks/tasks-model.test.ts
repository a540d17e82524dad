// What a report designer relies on in a task before any run: both interface sets change one task,
// a duplicate carries everything, secrets stay secret, schedules say when they will run, and the
// scheduled filter tells scheduled tasks apart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { fixtures, type Fixtures } from '../support/samples.js';
import { covers } from '../support/covers.js';

let s: TestServer;
let f: Fixtures;
let projectId: string;
let reportId: string;
const inDays = (d: number) => new Date(Date.now() + d * 86400_000).toISOString();

beforeAll(async () => {
  s = await startTestServer();
  f = await fixtures(s);
  projectId = (await f.make.connected()).projectId;
  reportId = (await s.ok('POST', '/api/v2/reports', { name: 'Monthly pack', projectID: projectId, type: 'Word' })).id;
});
afterAll(() => s.stop());

describe(
  covers(
    'tasks across both sets',
    'v1.tasks.create',
    'v2.tasks.upsertReport',
    'v1.taskReports.list',
    'v1.tasks.duplicate',
    'v1.tasks.list',
    'v2.tasks.upsertSchedule',
    'v1.taskTriggers.list',
    'v2.tasks.updateRecipients',
    'v1.taskRecipients.list',
  ),
  () => {
    let taskId: string;

    it('builds one task through both sets: a report with a protected PDF, recipients, a schedule', async () => {
      taskId = (await s.ok('POST', '/api/v1/tasks', { name: 'Regional pack', projectId })).id;
      const tr = await s.ok('PUT', `/api/v2/tasks/${taskId}/reports`, {
        reportID: reportId,
        format: 'pdf',
        emailEmbedment: false,
        emailAttachment: true,
        isOpenFilePasswordProtected: true,
        fileOpenPassword: 'open-sesame',
      });
      expect(tr.format).toBe('Pdf');
      expect(tr.hasFileOpenPassword).toBe(true);
      expect(JSON.stringify(tr)).not.toContain('open-sesame');
      const listed = await s.ok('GET', `/api/v1/tasks/${taskId}/reports`);
      expect(listed.map((r: { reportName: string }) => r.reportName)).toEqual(['Monthly pack']);
      expect(JSON.stringify(listed)).not.toContain('open-sesame');
      const userId = await f.make.user();
      const groupId = await f.make.group();
      await s.ok('PUT', `/api/v2/tasks/${taskId}/recipients`, [
        { id: userId, type: 'user' },
        { id: groupId, type: 'group' },
      ]);
      expect(
        (await s.ok('GET', `/api/v1/tasks/${taskId}/recipients`, undefined, { type: 'group' })).map(
          (r: { id: string }) => r.id,
        ),
      ).toEqual([groupId]);
      const schedule = await s.ok('PUT', `/api/v2/tasks/${taskId}/schedules`, {
        name: 'Mondays',
        frequency: 'Weekly',
        weeklyDays: 'Monday',
        atHour: 7,
        atMinut: 0,
        timeZone: 'Europe/Paris',
        startDate: inDays(-1),
        endDate: inDays(400),
      });
      expect(schedule.summary).toBe('Every Monday at 07:00 (Europe/Paris)');
      expect(schedule.nextRuns).toHaveLength(5);
      for (const run of schedule.nextRuns) {
        const local = new Date(run).toLocaleString('en-GB', {
          timeZone: 'Europe/Paris',
          weekday: 'long',
          hour: '2-digit',
          minute: '2-digit',
        });
        expect(local).toBe('Monday 07:00');
      }
      expect(schedule.nextFireTime).toBe(schedule.nextRuns[0]);
    });

    it('refuses a format the report does not offer, naming the ones it does', async () => {
      const res = await s.call('PUT', `/api/v2/tasks/${taskId}/reports`, {
        body: { reportID: reportId, format: 'Xlsx', emailEmbedment: false, emailAttachment: true },
      });
      expect(res.status).toBe(400);
      expect(res.body.errorDetails).toEqual([{ field: 'body.format', message: 'must be one of: Docx, Pdf, Html' }]);
    });

    it('refuses a schedule that ends before it starts, or in a time zone that does not exist', async () => {
      const bad = await s.call('POST', `/api/v1/tasks/${taskId}/triggers/schedules`, {
        body: { name: 'x', frequency: 'Daily', timeZone: 'Mars/Olympus', startDate: inDays(2), endDate: inDays(1) },
      });
      expect(bad.status).toBe(400);
      const fields = bad.body.errorDetails!.map((d: { field: string }) => d.field);
      expect(fields).toEqual(expect.arrayContaining(['body.timeZone', 'body.endDate']));
    });

    it('tells scheduled tasks apart, and a disabled schedule makes a task unscheduled', async () => {
      const other = (await s.ok('POST', '/api/v2/tasks', { name: 'On demand only', projectID: projectId })).id;
      const scheduled = async () =>
        (
          await s.ok('GET', '/api/v1/tasks', undefined, { is_scheduled: true, project_id: projectId, get_all: true })
        ).map((t: { id: string }) => t.id);
      expect(await scheduled()).toContain(taskId);
      expect(await scheduled()).not.toContain(other);
      const [trigger] = await s.ok('GET', `/api/v1/tasks/${taskId}/triggers`);
      await s.ok('PUT', `/api/v1/tasks/${taskId}/triggers/schedules/${trigger.id}`, {
        name: 'Mondays',
        isActive: false,
        frequency: 'Weekly',
        weeklyDays: 'Monday',
        atHour: 7,
        atMinut: 0,
        timeZone: 'Europe/Paris',
        startDate: inDays(-1),
        endDate: inDays(400),
      });
      expect(await scheduled()).not.toContain(taskId);
      expect((await s.ok('GET', `/api/v1/tasks/${taskId}/triggers/schedules/${trigger.id}`)).nextFireTime).toBeNull();
    });

    it('duplicates a task with its reports, recipients and triggers, the password kept but never shown', async () => {
      const copy = await s.ok('POST', `/api/v1/tasks/${taskId}/duplicate`, { newName: 'Regional pack (2027)' });
      expect(copy.name).toBe('Regional pack (2027)');
      const reports = await s.ok('GET', `/api/v1/tasks/${copy.id}/reports`);
      expect(
        reports.map((r: { format: string; hasFileOpenPassword: boolean }) => [r.format, r.hasFileOpenPassword]),
      ).toEqual([['Pdf', true]]);
      expect((await s.ok('GET', `/api/v1/tasks/${copy.id}/recipients`, undefined, { get_all: true })).length).toBe(2);
      expect((await s.ok('GET', `/api/v1/tasks/${copy.id}/triggers`)).map((t: { name: string }) => t.name)).toEqual([
        'Mondays',
      ]);
    });

    it('refuses a report of another project', async () => {
      const elsewhere = await s.ok('POST', '/api/app/projects', { name: 'Elsewhere' });
      const foreign = (
        await s.ok('POST', '/api/v2/reports', { name: 'Foreign', projectID: elsewhere.id, type: 'Word' })
      ).id;
      const res = await s.call('POST', `/api/v1/tasks/${taskId}/reports`, {
        body: { reportId: foreign, format: 'Pdf' },
      });
      expect(res.status).toBe(400);
      expect(res.body.errorDetails![0].field).toBe('body.reportId');
    });

    it('keeps one entry per report and format: a second is refused naming the report, another format is a new entry, an entry changed into a twin is refused', async () => {
      const task = (await s.ok('POST', '/api/v2/tasks', { name: 'No twins', projectID: projectId })).id;
      const pdf = await s.ok('PUT', `/api/v2/tasks/${task}/reports`, {
        reportID: reportId,
        format: 'Pdf',
        emailEmbedment: false,
        emailAttachment: true,
      });
      const twin = await s.call('PUT', `/api/v2/tasks/${task}/reports`, {
        body: { reportID: reportId, format: 'pdf', emailEmbedment: false, emailAttachment: true },
      });
      expect(twin.status).toBe(409);
      expect(twin.body.errorDetails).toEqual([{ field: 'body.reportID', message: 'is already in the task as Pdf' }]);
      const docx = await s.ok('PUT', `/api/v2/tasks/${task}/reports`, {
        reportID: reportId,
        format: 'Docx',
        emailEmbedment: false,
        emailAttachment: true,
      });
      const changed = await s.call('PUT', `/api/v2/tasks/${task}/reports`, {
        query: { taskReportID: docx.id },
        body: { reportID: reportId, format: 'Pdf', emailEmbedment: false, emailAttachment: true },
      });
      expect(changed.status).toBe(409);
      // An entry saved again as it is, is no twin of itself.
      expect(
        (
          await s.ok(
            'PUT',
            `/api/v2/tasks/${task}/reports`,
            { reportID: reportId, format: 'Pdf', emailEmbedment: false, emailAttachment: false },
            { taskReportID: pdf.id },
          )
        ).emailAttachment,
      ).toBe(false);
      expect(
        (await s.ok('GET', `/api/v1/tasks/${task}/reports`)).map((r: { format: string }) => r.format).sort(),
      ).toEqual(['Docx', 'Pdf']);
    });

    it('takes a schedule and a reload event without an end date: they run until turned off', async () => {
      const task = (await s.ok('POST', '/api/v2/tasks', { name: 'Open ended', projectID: projectId })).id;
      const schedule = await s.ok('POST', `/api/v1/tasks/${task}/triggers/schedules`, {
        name: 'Daily',
        frequency: 'Daily',
        atHour: 6,
        atMinut: 30,
        timeZone: 'UTC',
        startDate: inDays(-1),
      });
      expect(schedule.endDate).toBeNull();
      expect(schedule.nextRuns).toHaveLength(5);
      const event = await s.ok('POST', `/api/v1/tasks/${task}/triggers/external-events`, {
        name: 'On reload',
        appId: 'app-1',
        startDate: inDays(-1),
        endDate: null,
      });
      expect(event.endDate).toBeNull();
      // Given, an end still comes after the start.
      expect(
        (
          await s.call('POST', `/api/v1/tasks/${task}/triggers/schedules`, {
            body: {
              name: 'Back',
              frequency: 'Daily',
              atHour: 6,
              atMinut: 0,
              timeZone: 'UTC',
              startDate: inDays(2),
              endDate: inDays(1),
            },
          })
        ).status,
      ).toBe(400);
    });
  },
);
