// The task page's Save is one command (issue 45): the whole task is written in one transaction, or,
// when one part is refused, nothing is, and the answer names the part at fault.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUserWith, startTestServer, type TestServer } from '../support/test-server.js';
import { fixtures, type Fixtures } from '../support/samples.js';
import { covers } from '../support/covers.js';
import { scheduleBody } from '../support/task-samples.js';

let s: TestServer;
let f: Fixtures;
let projectId: string;
let wordReport: string;
let otherReport: string;
const inDays = (d: number) => new Date(Date.now() + d * 86400_000).toISOString();

beforeAll(async () => {
  s = await startTestServer();
  f = await fixtures(s);
  projectId = (await f.make.connected()).projectId;
  wordReport = (await s.ok('POST', '/api/v2/reports', { name: 'Monthly pack', projectID: projectId, type: 'Word' })).id;
  otherReport = (await s.ok('POST', '/api/v2/reports', { name: 'Regional', projectID: projectId, type: 'Word' })).id;
});
afterAll(() => s.stop());

const settings = (name: string) => ({ name, description: 'Monthly', isActive: true, sendNotifications: false });
const email = (subject: string) => ({ from: 'reports@example.com', subject, message: 'Attached.', isActive: true });
const reportPart = (reportID: string, format: string) => ({
  reportID,
  format,
  emailEmbedment: false,
  emailAttachment: true,
});

/** The task as the page reads it back: settings, e-mail, reports, recipients and triggers. */
async function readBack(taskId: string) {
  const task = await s.ok('GET', `/api/v1/tasks/${taskId}`);
  const reports = await s.ok('GET', `/api/v1/tasks/${taskId}/reports`);
  const recipients = await s.ok('GET', `/api/v1/tasks/${taskId}/recipients`);
  const triggers = await s.ok('GET', `/api/v1/tasks/${taskId}/triggers`);
  return {
    name: task.name,
    subject: task.email?.subject ?? null,
    reports: reports.map((r: { id: string; reportName: string; format: string }) => `${r.reportName} as ${r.format}`),
    reportIds: reports.map((r: { id: string }) => r.id),
    recipients: recipients.map((r: { id: string; type: string }) => `${r.type} ${r.id}`).sort(),
    triggers: triggers.map((t: { id: string; name: string; type: string }) => `${t.type} ${t.name}`).sort(),
    triggerIds: triggers.map((t: { id: string; name: string }) => [t.name, t.id]),
  };
}

describe(covers('a whole task saved as one', 'app.tasks.save'), () => {
  let taskId: string;
  let userId: string;
  let groupId: string;

  beforeAll(async () => {
    taskId = (await s.ok('POST', '/api/v1/tasks', { name: 'Regional pack', projectId })).id;
    userId = await f.make.user();
    groupId = await f.make.group();
    const first = await s.call('PUT', `/api/app/tasks/${taskId}`, {
      body: {
        settings: settings('Regional pack'),
        email: email('Your pack'),
        reports: [reportPart(wordReport, 'Pdf')],
        recipients: [{ id: userId, type: 'user', sendEmail: true, seeInHub: false }],
        schedules: [{ ...scheduleBody(), name: 'Mornings' }],
        events: [],
      },
    });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
  });

  it('writes every part, and a second save changes, adds and removes in one go', async () => {
    const before = await readBack(taskId);
    expect(before).toMatchObject({
      name: 'Regional pack',
      subject: 'Your pack',
      reports: ['Monthly pack as Pdf'],
      recipients: [`user ${userId}`],
      triggers: ['Schedule Mornings'],
    });
    const [[, scheduleId]] = before.triggerIds;
    const saved = await s.ok('PUT', `/api/app/tasks/${taskId}`, {
      settings: settings('Regional pack, weekly'),
      email: email('Your weekly pack'),
      reports: [{ id: before.reportIds[0], ...reportPart(wordReport, 'Docx') }, reportPart(otherReport, 'Pdf')],
      recipients: [{ id: groupId, type: 'group', sendEmail: true, seeInHub: true }],
      schedules: [{ id: scheduleId, ...scheduleBody(), name: 'Early mornings', atHour: 6 }],
      events: [{ name: 'After reload', appId: 'sales-demo', startDate: inDays(-1), endDate: inDays(30) }],
    });
    expect(saved).toMatchObject({ id: taskId, name: 'Regional pack, weekly' });
    const after = await readBack(taskId);
    expect(after).toMatchObject({
      name: 'Regional pack, weekly',
      subject: 'Your weekly pack',
      reports: ['Monthly pack as Docx', 'Regional as Pdf'],
      recipients: [`group ${groupId}`],
      triggers: ['ExternalEvent After reload', 'Schedule Early mornings'],
    });
    // The schedule was changed, not replaced: it keeps its id.
    expect(after.triggerIds).toContainEqual(['Early mornings', scheduleId]);
  });

  it('writes nothing when one part is refused (an unknown recipient), and names that part', async () => {
    const before = await readBack(taskId);
    const unknown = '00000000-0000-4000-8000-000000000123';
    const r = await s.call('PUT', `/api/app/tasks/${taskId}`, {
      body: {
        settings: settings('Renamed by a save that fails'),
        email: email('Changed subject'),
        reports: [reportPart(otherReport, 'Docx')],
        recipients: [
          { id: groupId, type: 'group', sendEmail: true, seeInHub: true },
          { id: unknown, type: 'user', sendEmail: true, seeInHub: false },
        ],
        schedules: [],
        events: [],
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^Recipients: No user has the id/);
    expect(r.body.errorDetails).toContainEqual({ field: 'body.recipients.1.id', message: 'must be an existing user' });
    // Settings, e-mail, the removed reports and triggers were asked before the recipients: none of it stuck.
    expect(await readBack(taskId)).toEqual(before);
  });

  it('writes nothing when a report asks for a format it cannot make, naming that report', async () => {
    const before = await readBack(taskId);
    const r = await s.call('PUT', `/api/app/tasks/${taskId}`, {
      body: {
        settings: settings('Renamed again'),
        reports: [reportPart(wordReport, 'Docx'), reportPart(otherReport, 'Xlsx')],
        recipients: [],
        schedules: [],
        events: [],
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatch(/^Report 2: /);
    expect(r.body.errorDetails?.every((d) => d.field.startsWith('body.reports.1'))).toBe(true);
    expect(await readBack(taskId)).toEqual(before);
  });

  it('checks each part before writing: a bad schedule is named by its place, nothing written', async () => {
    const before = await readBack(taskId);
    const r = await s.call('PUT', `/api/app/tasks/${taskId}`, {
      body: {
        settings: settings('Renamed once more'),
        reports: [],
        recipients: [],
        schedules: [{ ...scheduleBody(), atHour: 31 }],
        events: [],
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.errorDetails?.map((d) => d.field)).toContain('body.schedules.0.atHour');
    expect(await readBack(taskId)).toEqual(before);
  });

  it('is refused to someone who may only view tasks, and nothing changes', async () => {
    const before = await readBack(taskId);
    const viewer = await signedInUserWith(s, { viewTask: true, viewReport: true }, 'task-viewer');
    const r = await s.call('PUT', `/api/app/tasks/${taskId}`, {
      token: viewer.token,
      body: { settings: settings('Not theirs'), reports: [], recipients: [], schedules: [], events: [] },
    });
    expect(r.status).toBe(403);
    expect(await readBack(taskId)).toEqual(before);
  });
});

describe(covers('a whole task read in the shape it is saved', 'app.tasks.whole'), () => {
  let taskId: string;
  let userId: string;
  let filterId: string;

  beforeAll(async () => {
    taskId = (await s.ok('POST', '/api/v1/tasks', { name: 'Round trip', projectId })).id;
    userId = await f.make.user();
    filterId = (await s.ok('POST', '/api/v2/filters', { name: 'Round trip filter', projectID: projectId })).id;
    await s.ok('PUT', `/api/app/tasks/${taskId}`, {
      settings: {
        ...settings('Round trip'),
        sendNotifications: true,
        notifyIfError: true,
        notificationRecipients: 'ops@example.com',
      },
      reports: [
        {
          ...reportPart(wordReport, 'Pdf'),
          filters: [{ id: filterId, order: 0 }],
          iterationOptions: { zipEmailFiles: true, recipientsVariable: 'vMail' },
          separatorOptions: { numberDecimalSeparator: ',', numberGroupSeparator: '.' },
          isOpenFilePasswordProtected: true,
          fileOpenPassword: 'open sesame',
        },
      ],
      recipients: [{ id: userId, type: 'user', sendEmail: true, seeInHub: true }],
      schedules: [{ ...scheduleBody(), name: 'Mondays', frequency: 'Weekly', weeklyDays: 'Monday', priority: 2 }],
      events: [{ name: 'After reload', appId: 'sales-demo', startDate: inDays(-1), endDate: inDays(30) }],
    });
    // The e-mail as a task made on the screens stores it: an empty sender is the mail server's.
    await s.ok('PUT', `/api/v1/tasks/${taskId}/email`, {
      taskId,
      from: '',
      subject: 'Your pack for {Date}',
      message: 'Attached.',
      isActive: true,
    });
  });

  /** Everything the reference's own reads answer of the task, but the times a save stamps. */
  const stored = async () => {
    const unstamped = (rows: Record<string, unknown>[]) =>
      rows.map(({ modifiedDate: _m, lastModifiedDate: _l, nextRuns: _n, ...rest }) => rest);
    const task = await s.ok('GET', `/api/v1/tasks/${taskId}`);
    return {
      task: unstamped([task]),
      reports: unstamped(await s.ok('GET', `/api/v1/tasks/${taskId}/reports`)),
      recipients: unstamped(await s.ok('GET', `/api/v1/tasks/${taskId}/recipients`)),
      triggers: unstamped(await s.ok('GET', `/api/v1/tasks/${taskId}/triggers`)),
    };
  };

  it('answers every part in the shape the save takes, and saving it back changes nothing', async () => {
    const whole = await s.ok('GET', `/api/app/tasks/${taskId}`);
    expect(whole.settings).toMatchObject({
      name: 'Round trip',
      notifyIfError: true,
      notificationRecipients: 'ops@example.com',
    });
    expect(whole.email).toMatchObject({ from: '', subject: 'Your pack for {Date}', isActive: true });
    expect(whole.reports).toHaveLength(1);
    expect(whole.reports[0]).toMatchObject({
      reportID: wordReport,
      format: 'Pdf',
      filters: [{ id: filterId, order: 0 }],
      iterationOptions: { zipEmailFiles: true, recipientsVariable: 'vMail' },
      separatorOptions: { numberDecimalSeparator: ',', numberGroupSeparator: '.' },
      isOpenFilePasswordProtected: true,
    });
    // No password is answered; saving back keeps the stored one.
    expect(JSON.stringify(whole)).not.toContain('open sesame');
    expect(whole.recipients).toEqual([{ id: userId, type: 'user', sendEmail: true, seeInHub: true }]);
    expect(whole.schedules.map((x: { name: string }) => x.name)).toEqual(['Mondays']);
    expect(whole.events.map((x: { name: string }) => x.name)).toEqual(['After reload']);
    expect(whole.shown.reports[whole.reports[0].id].reportName).toBe('Monthly pack');
    expect(whole.shown.triggers[whole.schedules[0].id].summary).toMatch(/Monday/);
    const before = await stored();
    await s.ok('PUT', `/api/app/tasks/${taskId}`, whole);
    expect(await stored()).toEqual(before);
    const again = await s.ok('GET', `/api/app/tasks/${taskId}`);
    expect({ ...again, shown: null }).toEqual({ ...whole, shown: null });
  });

  it('takes the answer with one thing changed: that thing changes, and the rest stays as it was', async () => {
    const whole = await s.ok('GET', `/api/app/tasks/${taskId}`);
    const before = await stored();
    whole.schedules[0].atHour = 9;
    await s.ok('PUT', `/api/app/tasks/${taskId}`, whole);
    const after = await stored();
    const mondays = (x: typeof after) => x.triggers.find((t) => t.name === 'Mondays');
    expect(mondays(after)).toMatchObject({ atHour: 9 });
    expect({ ...after, triggers: null }).toEqual({ ...before, triggers: null });
    expect(after.triggers.filter((t) => t.name !== 'Mondays')).toEqual(
      before.triggers.filter((t) => t.name !== 'Mondays'),
    );
  });

  it('is answered to whoever may view the task, and to nobody outside its project', async () => {
    const viewer = await signedInUserWith(s, { viewTask: true, viewReport: true }, 'whole-task-viewer');
    const seen = await s.call('GET', `/api/app/tasks/${taskId}`, { token: viewer.token });
    expect(seen.status).toBe(200);
    const stranger = await signedInUserWith(s, {}, 'whole-task-stranger');
    expect((await s.call('GET', `/api/app/tasks/${taskId}`, { token: stranger.token })).status).toBe(403);
  });
});

describe(covers('a whole condition saved as one', 'app.conditions.save'), () => {
  let conditionId: string;
  let connectionId: string;
  let variable: string;
  const value = (operator: string, comparisonValue: string) => [
    { type: 'Variable', variable, operator, comparisonValue, order: 0 },
  ];
  /** The condition as its editor reads it back: name, and each rule as "name: operator value". */
  const readCondition = async () => {
    const c = await s.ok('GET', `/api/v1/conditions/${conditionId}`);
    return {
      name: c.name,
      description: c.description,
      rules: c.rules
        .map(
          (r: { name: string; conditionRuleValues: { operator: string; comparisonValue: string }[] }) =>
            `${r.name}: ${r.conditionRuleValues.map((x) => `${x.operator} ${x.comparisonValue}`).join(', ')}`,
        )
        .sort(),
      ruleIds: c.rules.map((r: { id: string; name: string }) => [r.name, r.id]),
    };
  };

  beforeAll(async () => {
    const place = await f.make.connected();
    connectionId = place.connectionId;
    variable = `vUnits${Math.random().toString(36).slice(2, 7)}`;
    await s.ok('POST', `/api/app/analytics/${place.appId}/variables`, { name: variable, definition: 'Sum(Units)' });
    conditionId = (
      await s.ok('POST', '/api/v1/conditions', { projectId: place.projectId, name: 'Big month', isActive: true })
    ).id;
    await s.ok('PUT', `/api/app/conditions/${conditionId}`, {
      name: 'Big month',
      description: null,
      rules: [
        { name: 'Units', connectionId, conditionRuleValues: value('>', '10') },
        { name: 'Few units', connectionId, conditionRuleValues: value('<', '1000000') },
      ],
    });
  });

  it('writes the condition and exactly the rules listed: one changed, one removed, one added', async () => {
    const before = await readCondition();
    expect(before.rules).toEqual(['Few units: < 1000000', 'Units: > 10']);
    const unitsId = before.ruleIds.find(([n]: string[]) => n === 'Units')[1];
    const saved = await s.ok('PUT', `/api/app/conditions/${conditionId}`, {
      name: 'Big month, EMEA',
      description: 'Sent only when units pass 20',
      rules: [
        { id: unitsId, name: 'Units', connectionId, conditionRuleValues: value('>', '20') },
        { name: 'Any units', connectionId, conditionRuleValues: value('>=', '1') },
      ],
    });
    expect(saved.name).toBe('Big month, EMEA');
    const after = await readCondition();
    expect(after).toMatchObject({
      name: 'Big month, EMEA',
      description: 'Sent only when units pass 20',
      rules: ['Any units: >= 1', 'Units: > 20'],
    });
    expect(after.ruleIds).toContainEqual(['Units', unitsId]);
  });

  it('writes nothing when one rule names a variable the app does not have, and names that rule', async () => {
    const before = await readCondition();
    const r = await s.call('PUT', `/api/app/conditions/${conditionId}`, {
      body: {
        name: 'Renamed by a save that fails',
        description: null,
        rules: [
          { name: 'Fine', connectionId, conditionRuleValues: value('>', '5') },
          {
            name: 'Broken',
            connectionId,
            conditionRuleValues: [
              { type: 'Variable', variable: 'vNoSuch', operator: '>', comparisonValue: '1', order: 0 },
            ],
          },
        ],
      },
    });
    expect(r.status).toBe(400);
    expect(r.body.errorDetails?.map((d) => d.field).some((x) => x.startsWith('body.rules.1.'))).toBe(true);
    expect(await readCondition()).toEqual(before);
  });
});

describe(covers('a schedule read before it is saved', 'app.schedules.preview'), () => {
  it('answers the sentence and next runs the saved schedule would have, and names a bad field', async () => {
    const body = {
      name: 'Mondays',
      frequency: 'Weekly',
      weeklyDays: 'Monday',
      atHour: 7,
      atMinut: 0,
      timeZone: 'Europe/Paris',
      startDate: inDays(-1),
      endDate: inDays(400),
    };
    const preview = await s.ok('POST', '/api/app/schedules/preview', body);
    const taskId = (await s.ok('POST', '/api/v1/tasks', { name: 'Preview check', projectId })).id;
    const saved = await s.ok('POST', `/api/v1/tasks/${taskId}/triggers/schedules`, body);
    expect(preview).toEqual({ summary: 'Every Monday at 07:00 (Europe/Paris)', nextRuns: saved.nextRuns });
    expect(preview.nextRuns).toHaveLength(5);
    const bad = await s.call('POST', '/api/app/schedules/preview', { body: { ...body, timeZone: 'Mars/Olympus' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errorDetails?.map((d) => d.field)).toContain('body.timeZone');
  });
});
