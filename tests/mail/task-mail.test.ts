// Mail through a real SMTP server on loopback: a mail server set up and tested, a task run mailing
// its recipients (users, group members; the inactive left out, said in the log) with its files
// attached byte for byte, transient refusals retried until delivered, header injection refused.
import { Task } from '../../engine/model/tasks.entity.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestServer } from '../support/test-server.js';
import type { Fixtures } from '../support/samples.js';
import { closedPort, type TestSmtp } from '../support/smtp.js';
import { waitForRequest } from '../support/requests.js';
import { covers } from '../support/covers.js';
import { until } from '../support/until.js';
import { Outbox } from '../../engine/model/mail.entity.js';
import { outboxIdle, startMailing } from '../support/outbox.js';

let s: TestServer;
let f: Fixtures;
let smtp: TestSmtp;
let projectId: string;
let reportId: string;
const server = (port: number, extra: Record<string, unknown> = {}) => ({
  name: 'Loopback',
  fromName: 'Broadsheet reports',
  fromAddress: 'reports@example.com',
  hostName: '127.0.0.1',
  smtpPort: port,
  ssl: false,
  ...extra,
});

async function user(first: string, email: string, isActive = true) {
  return (
    await s.ok('POST', '/api/v1/users', {
      firstName: first,
      lastName: 'Reader',
      email,
      isActive,
      organizations: [{ id: f.orgId }],
    })
  ).id as string;
}

beforeAll(async () => {
  ({ smtp, s, f, projectId, reportId } = await startMailing());
});
afterAll(async () => {
  await s.stop();
  await smtp.close();
});

describe(covers('mail servers', 'v1.mailServers.create', 'v1.mailServers.update', 'v1.mailServers.test'), () => {
  it('keeps the password secret, sends a real test mail, and names the host it cannot reach', async () => {
    const created = await s.ok(
      'POST',
      '/api/v1/mail-servers',
      server(smtp.port, { userName: 'robot', password: 'smtp-secret' }),
    );
    expect(created.hasPassword).toBe(true);
    expect(JSON.stringify(created)).not.toContain('smtp-secret');
    // The loopback server takes no sign-in: the test runs without one.
    await s.ok('PUT', `/api/v1/mail-servers/${created.id}`, server(smtp.port));
    const test = await s.ok('POST', '/api/v1/mail-servers/test', server(smtp.port, { testEmail: 'admin@example.com' }));
    expect(test.accepted).toEqual(['admin@example.com']);
    expect(test.response).toMatch(/^250/);
    const got = await until(
      () => smtp.received.find((m) => m.parsed.messageId === test.messageId),
      (x) => !!x,
    );
    expect(got!.parsed.subject).toBe('Broadsheet test mail from Loopback');
    const dead = await s.call('POST', '/api/v1/mail-servers/test', {
      body: server(await closedPort(), { testEmail: 'admin@example.com' }),
    });
    expect(dead.status).toBe(400);
    expect(dead.body.errorDetails?.[0].field).toBe('body.hostName');
    expect(dead.body.error).toMatch(/^127\.0\.0\.1:\d+ could not be reached/);
  });

  it('refuses a line break in a header field, naming it, and stores nothing', async () => {
    const before = (await s.ok('GET', '/api/v1/mail-servers')).length;
    const res = await s.call('POST', '/api/v1/mail-servers', {
      body: server(smtp.port, { fromName: 'Reports\r\nBcc: victim@example.com' }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errorDetails).toEqual([
      { field: 'body.fromName', message: 'must be on one line (no line breaks)' },
    ]);
    expect((await s.ok('GET', '/api/v1/mail-servers')).length).toBe(before);
  });

  it("refuses a task's From naming more than one sender, on both interfaces, and keeps the one before", async () => {
    const task = await s.ok('POST', '/api/v2/tasks', { name: 'One sender', projectID: projectId });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/email`, {
      from: '"Reports" <reports@example.com>',
      subject: 'Units',
      isActive: true,
    });
    for (const from of ['"x" <a@b.example>, evil@example.com', 'team: a@b.example, c@d.example;', 'not an address']) {
      const b = await s.call('PUT', `/api/v2/tasks/${task.id}/email`, {
        body: { from, subject: 'Units', isActive: true },
      });
      expect(b.status, from).toBe(400);
      expect(b.body.errorDetails).toEqual([
        { field: 'body.from', message: 'must be one sender: an address, or a name and <address>' },
      ]);
      const a = await s.call('PUT', `/api/v1/tasks/${task.id}/email`, {
        body: { taskId: task.id, from, subject: 'Units', message: '', isActive: true },
      });
      expect(a.status, from).toBe(400);
      expect(a.body.errorDetails?.[0].field).toBe('body.from');
    }
    const row = await s.engine.services.db.getRepository(Task).findOneByOrFail({ id: task.id });
    expect(row.email?.from).toBe('"Reports" <reports@example.com>');
  });
});

describe(covers('task e-mail', 'v2.tasks.updateEmail', 'v2.requests.run', 'app.outbox.sendNow'), () => {
  it('mails each recipient once, group members included and the inactive left out, with the file attached byte for byte', async () => {
    const ann = await user('Ann', 'ann@example.com');
    const bob = await user('Bob', 'bob@example.com');
    const cy = await user('Cy', 'cy@example.com', false);
    const group = await f.make.group();
    await s.ok('POST', `/api/v1/groups/${group}/users`, [bob, cy]);
    const task = await s.ok('POST', '/api/v2/tasks', { name: 'Units pack', projectID: projectId });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
      reportID: reportId,
      format: 'Html',
      emailEmbedment: false,
      emailAttachment: true,
    });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/recipients`, [
      { id: ann, type: 'user' },
      { id: bob, type: 'user' },
      { id: group, type: 'group' },
    ]);
    await s.ok('PUT', `/api/v2/tasks/${task.id}/email`, {
      from: 'reports@example.com',
      subject: '{TaskName} for {Date}',
      message: 'Your units.',
      isActive: true,
    });
    const done = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
    expect(done.status).toBe('completed');
    const mine = () => smtp.received.filter((m) => m.parsed.subject?.startsWith('Units pack for '));
    await until(mine, (x) => x.length >= 2);
    await outboxIdle(s);
    const got = mine();
    expect(got.map((m) => m.envelopeTo[0]).sort()).toEqual(['ann@example.com', 'bob@example.com']);
    const onDisk = readFileSync(join(s.dataDir, 'files', 'requests', done.id, done.files[0].name));
    for (const m of got) {
      expect(m.parsed.text?.trim()).toBe('Your units.');
      expect(m.parsed.attachments.map((a) => a.filename)).toEqual([done.files[0].name]);
      expect(Buffer.compare(m.parsed.attachments[0].content, onDisk)).toBe(0);
    }
    const log = (await s.ok('GET', `/api/v1/requests/${done.id}/log`)).text;
    expect(log).toContain('Not mailed to Cy Reader: inactive');
    expect(log).toContain('2 mails queued for 2 recipients');
  });

  it('retries transient refusals (451) until every mail is delivered, each once', async () => {
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await user(`R${i}`, `retry${i}@example.com`));
    const task = await s.ok('POST', '/api/v2/tasks', { name: 'Retry pack', projectID: projectId });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
      reportID: reportId,
      format: 'Html',
      emailEmbedment: false,
      emailAttachment: true,
    });
    await s.ok(
      'PUT',
      `/api/v2/tasks/${task.id}/recipients`,
      ids.map((id) => ({ id, type: 'user' })),
    );
    await s.ok('PUT', `/api/v2/tasks/${task.id}/email`, {
      from: 'reports@example.com',
      subject: 'Retry pack',
      isActive: true,
    });
    smtp.refuseNext(4);
    const done = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
    const rows = await until(
      () => s.engine.services.db.getRepository(Outbox).findBy({ requestId: done.id }),
      (r) => r.length === 6 && r.every((m) => m.status === 'sent'),
    );
    expect(rows.some((m) => m.attempts > 1)).toBe(true);
    const got = smtp.received.filter((m) => m.parsed.subject === 'Retry pack');
    expect(got.map((m) => m.envelopeTo[0]).sort()).toEqual(ids.map((_, i) => `retry${i}@example.com`).sort());
  });

  it('sends no mail when conditions hold back every file, says so in the log and the dry run, and sends it when the task asks', async () => {
    const ivy = await user('Ivy', 'ivy@example.com');
    const { appId } = await f.make.connected();
    const variable = `vAllUnits${Math.random().toString(36).slice(2, 7)}`;
    await s.ok('POST', `/api/app/analytics/${appId}/variables`, { name: variable, definition: 'Sum(Units)' });
    const condition = await s.ok('POST', '/api/v2/conditions', { name: 'A record month', projectID: projectId });
    await s.ok('PUT', `/api/v2/conditions/${condition.id}/rules`, {
      name: 'Units above a million',
      analyticsAppID: appId,
      values: [{ type: 'Variable', variable, operator: '>', comparisonValue: '1000000', order: 0 }],
    });
    const task = await s.ok('POST', '/api/v2/tasks', { name: 'Held back', projectID: projectId });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
      reportID: reportId,
      format: 'Html',
      emailEmbedment: false,
      emailAttachment: true,
      conditions: [{ id: condition.id }],
    });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/recipients`, [{ id: ivy, type: 'user' }]);
    const email = {
      from: 'reports@example.com',
      subject: 'Held back pack',
      message: "Here is this month's pack.",
      isActive: true,
    };
    expect((await s.ok('PUT', `/api/v2/tasks/${task.id}/email`, email)).sendWithoutFiles).toBe(false);
    const dry = await s.ok('GET', `/api/v1/tasks/${task.id}/dry-run`);
    // How the task works is information; that its condition fails on today's data is the warning.
    expect(dry.information).toContain(
      "When conditions hold back every file, no mail is sent (the task's e-mail sends only with files).",
    );
    expect(dry.files[0].conditionsNow).toBe('fail');
    expect(dry.warnings).toEqual([
      `“${dry.files[0].report}” would be left out now: its conditions fail on today's data.`,
      'Recipients are set to see the files in the hub, but no report of the task is published to it.',
    ]);

    const quiet = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
    expect(quiet.files).toEqual([]);
    await outboxIdle(s);
    expect(await s.engine.services.db.getRepository(Outbox).countBy({ requestId: quiet.id })).toBe(0);
    expect((await s.ok('GET', `/api/v1/requests/${quiet.id}/log`)).text).toContain(
      'No mail sent: no report file was made to attach (conditions held back every one)',
    );

    await s.ok('PUT', `/api/v2/tasks/${task.id}/email`, { ...email, sendWithoutFiles: true });
    const loud = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
    const [mail] = await until(
      () => smtp.received.filter((m) => m.parsed.subject === 'Held back pack'),
      (x) => x.length >= 1,
    );
    expect(mail.envelopeTo).toEqual(['ivy@example.com']);
    expect(mail.parsed.attachments).toEqual([]);
    expect(loud.files).toEqual([]);
    // The quiet run sent nothing: the one mail is the second run's.
    expect(smtp.received.filter((m) => m.parsed.subject === 'Held back pack')).toHaveLength(1);
  });

  it('refuses a subject that would inject a header, naming it', async () => {
    const task = await s.ok('POST', '/api/v2/tasks', { name: 'Injected', projectID: projectId });
    const res = await s.call('PUT', `/api/v2/tasks/${task.id}/email`, {
      body: { from: 'reports@example.com', subject: 'Hello\nBcc: everyone@example.com', isActive: true },
    });
    expect(res.status).toBe(400);
    expect(res.body.errorDetails).toEqual([{ field: 'body.subject', message: 'must be on one line (no line breaks)' }]);
    expect((await s.ok('GET', `/api/v1/tasks/${task.id}`)).email).toBeNull();
  });

  it('says in a dry run who would get what, and why anyone is left out, before anything is sent', async () => {
    const dee = await user('Dee', 'dee@example.com');
    const eve = await user('Eve', 'eve@example.com', false);
    const group = await f.make.group();
    await s.ok('POST', `/api/v1/groups/${group}/users`, [dee, eve]);
    const task = await s.ok('POST', '/api/v2/tasks', { name: 'Dry pack', projectID: projectId });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
      reportID: reportId,
      format: 'Html',
      emailEmbedment: false,
      emailAttachment: true,
    });
    await s.ok('POST', `/api/v1/tasks/${task.id}/recipients`, [
      { id: group, type: 'group', sendEmail: true, seeInHub: false },
    ]);
    await s.ok('PUT', `/api/v2/tasks/${task.id}/email`, {
      from: 'reports@example.com',
      subject: 'Dry',
      isActive: true,
    });
    const before = smtp.received.length;
    const dry = await s.ok('GET', `/api/v1/tasks/${task.id}/dry-run`);
    expect(dry.files).toEqual([
      { report: 'Units', format: 'Html', attached: true, perIterationValue: false, conditions: 0, conditionsNow: null },
    ]);
    const byName = Object.fromEntries(dry.recipients.map((r: { name: string }) => [r.name, r]));
    expect(byName['Dee Reader']).toMatchObject({
      byEmail: true,
      inHub: false,
      via: [expect.stringMatching(/^group /)],
      notes: ['not set to see the files in the hub'],
    });
    expect(byName['Eve Reader']).toMatchObject({
      byEmail: false,
      inHub: false,
      notes: expect.arrayContaining(['inactive: gets nothing']),
    });
    await s.ok('PUT', `/api/v1/tasks/${task.id}`, {
      name: 'Dry pack',
      isActive: true,
      testMode: true,
      testModeRecipients: 'qa@example.com',
    });
    const test = await s.ok('GET', `/api/v1/tasks/${task.id}/dry-run`);
    expect(test.recipients).toEqual([
      {
        name: 'qa@example.com',
        email: 'qa@example.com',
        via: ['test recipients'],
        byEmail: true,
        inHub: false,
        notes: [],
      },
    ]);
    expect(smtp.received.length).toBe(before);
  });

  it("ends a permanently refused mail failed with the server's reply, counts it on the run, and sends it on retry", async () => {
    const zed = await user('Zed', 'zed@example.com');
    const task = await s.ok('POST', '/api/v2/tasks', { name: 'Refused pack', projectID: projectId });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
      reportID: reportId,
      format: 'Html',
      emailEmbedment: false,
      emailAttachment: true,
    });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/recipients`, [{ id: zed, type: 'user' }]);
    await s.ok('PUT', `/api/v2/tasks/${task.id}/email`, {
      from: 'reports@example.com',
      subject: 'Refused pack',
      isActive: true,
    });
    smtp.refuseNext(1, 550);
    const done = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
    const [failed] = await until(
      () => s.ok('GET', '/api/v1/outbox', undefined, { request_id: done.id }),
      (x: any[]) => x[0]?.status === 'failed',
    );
    expect(failed.lastError).toMatch(/^550/);
    expect(failed.attempts).toBe(1);
    await until(
      async () => (await s.ok('GET', `/api/v1/requests/${done.id}/log`)).text as string,
      (t) => t.includes('Mail to zed@example.com failed: 550'),
    );
    const [run] = await s.ok('GET', '/api/v1/requests', undefined, { task_id: task.id });
    expect(run.mail).toEqual({ failed: 1 });
    await s.ok('POST', `/api/v1/outbox/${failed.id}/retry`);
    await until(
      () => s.ok('GET', '/api/v1/outbox', undefined, { request_id: done.id }),
      (x: any[]) => x[0]?.status === 'sent',
    );
    expect(smtp.received.filter((m) => m.parsed.subject === 'Refused pack').map((m) => m.parsed.messageId)).toEqual([
      failed.messageId,
    ]);
    expect((await s.call('POST', `/api/v1/outbox/${failed.id}/retry`)).status).toBe(409);
  });

  it('explains a failure in words beside the raw reply, names it on the run, cancels and sends again, and tells the screens as it goes', async () => {
    const una = await user('Una', 'una@example.com');
    const task = await s.ok('POST', '/api/v2/tasks', { name: 'Explained pack', projectID: projectId });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
      reportID: reportId,
      format: 'Html',
      emailEmbedment: false,
      emailAttachment: true,
    });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/recipients`, [{ id: una, type: 'user' }]);
    await s.ok('PUT', `/api/v2/tasks/${task.id}/email`, {
      from: 'reports@example.com',
      subject: 'Explained pack',
      isActive: true,
    });
    const seen: string[] = [];
    const off = s.engine.on((e) => {
      if (e.type === 'mail.changed') seen.push(e.payload.status);
    });
    smtp.refuseNext(1, 550);
    const done = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
    const [failed] = await until(
      () => s.ok('GET', '/api/v1/outbox', undefined, { request_id: done.id }),
      (x: any[]) => x[0]?.status === 'failed',
    );
    expect(failed.explanation).toBe(
      "The recipient's server does not know this address: check it is spelled right and still in use.",
    );
    expect(failed.lastError).toMatch(/^550/);
    const [run] = await s.ok('GET', '/api/v1/requests', undefined, { task_id: task.id });
    expect(run.deliveryProblem).toBe(`1 mail failed: ${failed.explanation}`);

    const cancelled = await s.ok('POST', `/api/v1/outbox/${failed.id}/cancel`);
    expect(cancelled.status).toBe('cancelled');
    expect((await s.call('POST', `/api/v1/outbox/${failed.id}/cancel`)).status).toBe(409);
    await s.ok('POST', `/api/v1/outbox/${failed.id}/retry`);
    await until(
      () => s.ok('GET', '/api/v1/outbox', undefined, { request_id: done.id }),
      (x: any[]) => x[0]?.status === 'sent',
    );
    expect((await s.ok('GET', '/api/v1/requests', undefined, { task_id: task.id }))[0].deliveryProblem).toBeNull();
    expect((await s.call('POST', `/api/v1/outbox/${failed.id}/cancel`)).status).toBe(409);
    off();
    // Queued, failed, cancelled, queued again, sent: each change was told.
    expect(seen).toEqual(['queued', 'failed', 'cancelled', 'queued', 'sent']);
  });

  it('sends a message waiting an hour for its next try when asked, counting the tries so far', async () => {
    const vera = await user('Vera', 'vera@example.com');
    const task = await s.ok('POST', '/api/v2/tasks', { name: 'Waiting pack', projectID: projectId });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
      reportID: reportId,
      format: 'Html',
      emailEmbedment: false,
      emailAttachment: true,
    });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/recipients`, [{ id: vera, type: 'user' }]);
    await s.ok('PUT', `/api/v2/tasks/${task.id}/email`, {
      from: 'reports@example.com',
      subject: 'Waiting pack',
      isActive: true,
    });
    smtp.refuseNext(1000);
    const done = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
    const outbox = s.engine.services.db.getRepository(Outbox);
    const [row] = await until(
      () => outbox.findBy({ requestId: done.id }),
      (r) => r.length === 1 && r[0].attempts >= 1,
    );
    // The next try is put an hour away while it waits (not while one is under way) and sent now when
    // asked. A try the outbox had already picked up may land in between (the server still refuses it,
    // and it waits again): then both are done again.
    const inAnHour = new Date(Date.now() + 3_600_000);
    let tries = 0;
    const asked = await until(
      async () => {
        await until(
          async () => (await outbox.update({ id: row.id, status: 'queued' }, { nextAttemptAt: inAnHour })).affected,
          (affected) => affected === 1,
        );
        tries = (await outbox.findOneByOrFail({ id: row.id })).attempts;
        return s.call<{ status: string }>('POST', `/api/v1/outbox/${row.id}/send-now`);
      },
      (r) => r.status === 200,
    );
    expect(asked.body.data!.status).toBe('queued');
    smtp.refuseNext(0);
    const sent = await until(
      () => outbox.findOneByOrFail({ id: row.id }),
      (m) => m.status === 'sent',
    );
    // Its tries so far still count: the send asked for is one more (or two, where it was tried the
    // moment it was asked, before the server was fixed).
    expect(sent.attempts - tries).toBeGreaterThanOrEqual(1);
    expect(sent.attempts - tries).toBeLessThanOrEqual(2);
    expect(smtp.received.filter((m) => m.parsed.subject === 'Waiting pack')).toHaveLength(1);
    // The outbox narrows to one task's mail, and to a period, as the monitoring screen's filter asks.
    const ofTask = await s.ok('GET', '/api/v1/outbox', undefined, { task_id: task.id, get_all: true });
    expect(ofTask.map((m: { id: string }) => m.id)).toEqual([row.id]);
    const later = new Date(Date.now() + 86_400_000).toISOString();
    expect(await s.ok('GET', '/api/v1/outbox', undefined, { task_id: task.id, created_from: later })).toEqual([]);
    expect((await s.call('GET', '/api/v1/outbox', { query: { created_from: 'soon' } })).status).toBe(400);
    // Sent is sent: there is nothing to send now any more.
    expect((await s.call('POST', `/api/v1/outbox/${row.id}/send-now`)).status).toBe(409);
  });

  it("notifies the task's notification recipients of the outcomes it asks for, and of no other", async () => {
    const task = await s.ok('POST', '/api/v2/tasks', { name: 'Lonely pack', projectID: projectId });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
      reportID: reportId,
      format: 'Html',
      emailEmbedment: false,
      emailAttachment: true,
    });
    await s.ok('PUT', `/api/v2/tasks/${task.id}/email`, {
      from: 'reports@example.com',
      subject: 'Lonely',
      isActive: true,
    });
    await s.ok('PUT', `/api/v1/tasks/${task.id}`, {
      name: 'Lonely pack',
      isActive: true,
      sendNotifications: true,
      notifyIfWarning: true,
      notifyIfSuccess: false,
      notificationRecipients: 'ops@example.com; not-an-address',
    });
    // No recipients: the run makes its file, mails nobody, and ends with a warning.
    const done = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
    expect(done.status).toBe('warning');
    const note = await until(
      () => smtp.received.find((m) => m.parsed.subject === 'Task “Lonely pack” ended with a warning'),
      (x) => !!x,
    );
    expect(note!.envelopeTo).toEqual(['ops@example.com']);
    expect(note!.parsed.text).toContain('nobody to mail');
    // A success is not asked for: nothing more arrives for this task.
    await s.ok('PUT', `/api/v1/tasks/${task.id}`, {
      name: 'Lonely pack',
      isActive: true,
      sendNotifications: true,
      notifyIfWarning: false,
      notifyIfSuccess: false,
      notificationRecipients: 'ops@example.com',
    });
    await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
    await outboxIdle(s);
    expect(smtp.received.filter((m) => m.parsed.subject?.startsWith('Task “Lonely pack”'))).toHaveLength(1);
  });
});
