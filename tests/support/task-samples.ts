import type { TestServer } from './test-server.js';
import type { Fixtures, Sample } from './samples.js';

// A valid call of every task operation of issue 8 (both sets), for the conformance suite.
let n = 0;
const uniq = (p: string) => `${p} ${++n}-${Math.random().toString(36).slice(2, 7)}`;
const inDays = (d: number) => new Date(Date.now() + d * 86400_000).toISOString();
export const scheduleBody = () => ({
  name: uniq('Every morning'),
  frequency: 'Daily',
  atHour: 7,
  atMinut: 30,
  timeZone: 'Europe/Paris',
  startDate: inDays(-1),
  endDate: inDays(365),
});
const eventA = () => ({ name: uniq('On reload'), appId: 'sales-demo', startDate: inDays(-1), endDate: inDays(365) });
const eventB = () => ({
  name: uniq('On reload'),
  appID: 'sales-demo',
  execution: 'Parallel',
  priority: 1,
  analyticsEvent: 'Reload',
  startDate: inDays(-1),
  endDate: inDays(365),
});

export function taskSamples(server: () => TestServer): Record<string, (f: Fixtures) => Promise<Sample>> {
  const ok = (method: string, path: string, body?: unknown) => server().ok(method, path, body);
  // One connected project holds every sample's tasks and reports (a task report needs both in one).
  let shared: Promise<string> | null = null;
  const project = (f: Fixtures) => (shared ??= f.make.connected().then((c) => c.projectId));
  // A list is sampled several times (each sort, each page): the same task each time.
  const once = <T>(make: (f: Fixtures) => Promise<T>) => {
    let made: Promise<T> | null = null;
    return (f: Fixtures) => (made ??= make(f));
  };
  const task = async (f: Fixtures) =>
    (await ok('POST', '/api/v1/tasks', { name: uniq('Task'), projectId: await project(f) })).id as string;
  const report = async (f: Fixtures) =>
    (await ok('POST', '/api/v2/reports', { name: uniq('Report'), projectID: await project(f), type: 'Word' }))
      .id as string;
  const withReport = async (f: Fixtures) => {
    const t = await task(f);
    const tr = await ok('POST', `/api/v1/tasks/${t}/reports`, { reportId: await report(f), format: 'Pdf' });
    return { taskId: t, taskReportId: tr.id as string };
  };
  const withSchedule = async (f: Fixtures) => {
    const t = await task(f);
    return {
      taskId: t,
      scheduleId: (await ok('POST', `/api/v1/tasks/${t}/triggers/schedules`, scheduleBody())).id as string,
    };
  };
  const listedReports = once(async (f) => {
    const { taskId } = await withReport(f);
    await ok('POST', `/api/v1/tasks/${taskId}/reports`, { reportId: await report(f), format: 'Html' });
    return taskId;
  });
  const listedRecipients = once(async (f) => {
    const t = await task(f);
    await ok('POST', `/api/v1/tasks/${t}/recipients`, [
      { id: await f.make.user(), type: 'user', sendEmail: true, seeInHub: true },
      { id: await f.make.group(), type: 'group', sendEmail: false, seeInHub: true },
    ]);
    return t;
  });
  const listedTriggers = once(async (f) => {
    const { taskId } = await withSchedule(f);
    await ok('POST', `/api/v1/tasks/${taskId}/triggers/external-events`, eventA());
    return taskId;
  });
  const withEvent = async (f: Fixtures) => {
    const t = await task(f);
    return {
      taskId: t,
      eventId: (await ok('POST', `/api/v1/tasks/${t}/triggers/external-events`, eventA())).id as string,
    };
  };
  return {
    'v1.tasks.create': async (f) => ({
      body: { name: uniq('Task'), projectId: await project(f), description: 'Monthly pack' },
    }),
    'v1.tasks.list': async () => ({}),
    'v1.tasks.update': async (f) => ({
      params: { id: await task(f) },
      body: { name: uniq('Task'), isActive: true, sendNotifications: false },
    }),
    'v1.tasks.duplicate': async (f) => ({ params: { id: await task(f) }, body: { newName: uniq('Copy') } }),
    'v1.tasks.setActive': async (f) => ({ body: [{ id: await task(f), isActive: false }] }),
    'v1.taskReports.list': async (f) => ({ params: { taskId: await listedReports(f) } }),
    'v1.taskReports.create': async (f) => ({
      params: { taskId: await task(f) },
      body: { reportId: await report(f), format: 'Docx' },
    }),
    'v1.taskReports.update': async (f) => ({
      params: await withReport(f),
      body: { reportId: await report(f), format: 'Html' },
    }),
    'v1.taskReports.deleteOne': async (f) => ({ params: await withReport(f) }),
    'v1.taskReports.delete': async (f) => {
      const { taskId, taskReportId } = await withReport(f);
      return { params: { taskId }, body: [taskReportId] };
    },
    'v1.taskRecipients.list': async (f) => ({ params: { taskId: await listedRecipients(f) } }),
    'v1.taskRecipients.add': async (f) => ({
      params: { taskId: await task(f) },
      body: [
        { id: await f.make.user(), type: 'user', sendEmail: true, seeInHub: false },
        { id: await f.make.group(), type: 'group', sendEmail: true, seeInHub: true },
      ],
    }),
    'v1.taskRecipients.delete': async (f) => {
      const t = await task(f);
      const r = { id: await f.make.user(), type: 'user', sendEmail: true, seeInHub: true };
      await ok('POST', `/api/v1/tasks/${t}/recipients`, [r]);
      return { params: { taskId: t }, body: [r] };
    },
    'v1.taskRecipients.update': async (f) => {
      const t = await task(f);
      const r = { id: await f.make.user(), type: 'user', sendEmail: true, seeInHub: true };
      await ok('POST', `/api/v1/tasks/${t}/recipients`, [r]);
      return { params: { taskId: t }, body: { ...r, seeInHub: false } };
    },
    'v1.taskTriggers.list': async (f) => ({ params: { taskId: await listedTriggers(f) } }),
    'v1.taskTriggers.delete': async (f) => {
      const { taskId, scheduleId } = await withSchedule(f);
      return { params: { taskId }, body: [scheduleId] };
    },
    'v1.taskSchedules.create': async (f) => ({ params: { taskId: await task(f) }, body: scheduleBody() }),
    'v1.taskSchedules.update': async (f) => {
      const { taskId, scheduleId } = await withSchedule(f);
      return {
        params: { taskId, taskScheduleId: scheduleId },
        body: { ...scheduleBody(), frequency: 'Weekly', weeklyDays: 'Monday,Thursday' },
      };
    },
    'v1.taskSchedules.get': async (f) => {
      const { taskId, scheduleId } = await withSchedule(f);
      return { params: { taskId, taskScheduleId: scheduleId } };
    },
    'v1.taskSchedules.delete': async (f) => {
      const { taskId, scheduleId } = await withSchedule(f);
      return { params: { taskId, taskScheduleId: scheduleId } };
    },
    'v1.taskExternalEvents.create': async (f) => ({ params: { taskId: await task(f) }, body: eventA() }),
    'v1.taskExternalEvents.update': async (f) => {
      const { taskId, eventId } = await withEvent(f);
      return { params: { taskId, externalEventId: eventId }, body: eventA() };
    },
    'v1.taskExternalEvents.delete': async (f) => {
      const { taskId, eventId } = await withEvent(f);
      return { params: { taskId, externalEventId: eventId } };
    },
    'v1.taskExternalEvents.get': async (f) => {
      const { taskId, eventId } = await withEvent(f);
      return { params: { taskId, externalEventId: eventId } };
    },
    'v1.taskEmail.update': async (f) => {
      const t = await task(f);
      return { params: { taskId: t }, body: { taskId: t, subject: 'Your monthly pack', message: 'Attached.' } };
    },
    'v2.tasks.create': async (f) => ({ body: { name: uniq('Task'), projectID: await project(f) } }),
    'v2.tasks.update': async (f) => ({
      params: { id: await task(f) },
      body: { name: uniq('Task'), isActive: true, sendNotifications: false },
    }),
    'v2.tasks.updateEmail': async (f) => ({
      params: { id: await task(f) },
      body: { from: 'reports@example.com', subject: 'Pack', isActive: true },
    }),
    'v2.tasks.updateRecipients': async (f) => ({
      params: { id: await task(f) },
      body: [{ id: await f.make.user(), type: 'user' }],
    }),
    'v2.tasks.deleteRecipients': async (f) => ({ params: { id: await task(f) }, body: [] }),
    'v2.tasks.upsertSchedule': async (f) => ({ params: { id: await task(f) }, body: scheduleBody() }),
    'v2.tasks.deleteSchedules': async (f) => {
      const { taskId, scheduleId } = await withSchedule(f);
      return { params: { id: taskId }, body: [scheduleId] };
    },
    'v2.tasks.upsertExternalEvent': async (f) => ({ params: { id: await task(f) }, body: eventB() }),
    'v2.tasks.getExternalEvent': async (f) => {
      const { taskId, eventId } = await withEvent(f);
      return { params: { id: taskId, externalEventId: eventId } };
    },
    'v2.tasks.deleteExternalEvents': async (f) => {
      const { taskId, eventId } = await withEvent(f);
      return { params: { id: taskId }, body: [eventId] };
    },
    'v2.tasks.deleteExternalEvent': async (f) => {
      const { taskId, eventId } = await withEvent(f);
      return { params: { id: taskId, externalEventId: eventId } };
    },
    'v2.tasks.deleteTriggers': async (f) => {
      const { taskId, scheduleId } = await withSchedule(f);
      return { params: { id: taskId }, body: [scheduleId] };
    },
    'v2.tasks.upsertReport': async (f) => ({
      params: { id: await task(f) },
      body: { reportID: await report(f), format: 'Pdf', emailEmbedment: false, emailAttachment: true },
    }),
    'v2.tasks.deleteReports': async (f) => {
      const { taskId, taskReportId } = await withReport(f);
      return { params: { id: taskId }, body: [taskReportId] };
    },
  };
}
