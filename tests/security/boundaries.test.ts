// Findings 5–7 of the second probe: what a list refuses to show, the event stream and the outbox
// do not show either, and a refusal stays the refusal it is (403/404), never another answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent, EngineEvents, EngineEventType } from '../../engine/core/events.js';
import { signedInUserWith, type TestServer } from '../support/test-server.js';
import type { Fixtures } from '../support/samples.js';
import type { TestSmtp } from '../support/smtp.js';
import { waitForRequest } from '../support/requests.js';
import { covers } from '../support/covers.js';
import { until } from '../support/until.js';
import { startMailing } from '../support/outbox.js';

let s: TestServer;
let f: Fixtures;
let smtp: TestSmtp;
let projectId: string;
let reportId: string;
let otherOrg: string;
let n = 0;
const uniq = (p: string) => `${p} ${++n}`;

/** A signed-in caller's event stream: the events received so far, and how to end it. */
async function subscribe(token: string) {
  const abort = new AbortController();
  const res = await fetch(`${s.url}/api/app/events`, {
    headers: { authorization: `Bearer ${token}` },
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  const events: { type: string; payload: Record<string, unknown> }[] = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) >= 0) {
        const chunk = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (chunk.startsWith('data: ')) events.push(JSON.parse(chunk.slice(6)));
      }
    }
  })();
  return {
    events,
    close: async () => {
      abort.abort();
      await reading;
    },
  };
}

/** An app every organization shares: its reload is an event everyone may see (a marker in a stream). */
async function sharedApp() {
  return (await s.ok('POST', '/api/v1/analytics-apps', {
    appId: `marker-${++n}`,
    name: uniq('Marker'),
    folderId: '00000000-0000-0000-0000-000000000000',
    folderPath: '/',
    allowAnalyticsSenseApp: false,
    allowMashup: false,
    defaultOpen: 'Main',
  })) as { id: string; appId: string };
}

beforeAll(async () => {
  ({ smtp, s, f, projectId, reportId } = await startMailing());
  await s.ok('POST', '/api/v1/mail-servers', {
    name: 'Loopback',
    fromName: 'Broadsheet',
    fromAddress: 'reports@example.com',
    hostName: '127.0.0.1',
    smtpPort: smtp.port,
    ssl: false,
  });
  otherOrg = (
    await s.ok('POST', '/api/v1/organizations', {
      displayName: uniq('Elsewhere'),
      themeId: '00000000-0000-0000-0000-000000000001',
    })
  ).id;
});
afterAll(async () => {
  await s.stop();
  await smtp.close();
});

/** A task of the project that mails its one recipient, run by the owner to its end. */
async function mailingRun() {
  const reader = (
    await s.ok('POST', '/api/v1/users', {
      firstName: 'Rae',
      lastName: uniq('Reader'),
      email: `rae${++n}@example.com`,
      isActive: true,
      organizations: [{ id: f.orgId }],
    })
  ).id;
  const task = await s.ok('POST', '/api/v2/tasks', { name: uniq('Units pack'), projectID: projectId });
  await s.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
    reportID: reportId,
    format: 'Html',
    emailEmbedment: false,
    emailAttachment: true,
  });
  await s.ok('PUT', `/api/v2/tasks/${task.id}/recipients`, [{ id: reader, type: 'user' }]);
  await s.ok('PUT', `/api/v2/tasks/${task.id}/email`, {
    from: 'reports@example.com',
    subject: 'Units',
    message: 'Yours.',
    isActive: true,
  });
  const run = await waitForRequest(s, (await s.ok('POST', `/api/v2/requests/${task.id}/run`)).id);
  return { taskId: task.id as string, requestId: run.id as string };
}

describe(covers('the event stream shows what the lists show', 'v2.requests.run', 'app.requests.list'), () => {
  it("a hub user hears nothing of the owner's runs; the owner and a watcher of the run hear each step", async () => {
    const hub = await signedInUserWith(s, { previewPublishedReport: true, downloadPublishedReport: true }, 'hub');
    const watcher = await signedInUserWith(s, { viewTaskStatus: true, viewProject: true }, 'watcher');
    const streams = {
      owner: await subscribe(s.ownerKey),
      hub: await subscribe(hub.token),
      watcher: await subscribe(watcher.token),
    };
    const { requestId } = await mailingRun();
    const marker = await sharedApp();
    await s.ok('POST', `/api/app/analytics/${marker.id}/import`, { fileName: 'm.csv', content: 'A\n1\n' });
    // Each stream is judged in order: once the marker arrives, every earlier event was weighed for it.
    const reloaded = (e: { type: string; payload: Record<string, unknown> }) =>
      e.type === 'analytics.reloaded' && e.payload.appId === marker.appId;
    // The hub user holds no viewProject: the marker (an app's reload) is not theirs to hear either.
    for (const stream of [streams.owner, streams.watcher])
      await until(
        () => stream.events,
        (x) => x.some(reloaded),
      );
    const runEvents = (name: keyof typeof streams) =>
      streams[name].events
        .filter((e) => e.type === 'request.changed' && e.payload.id === requestId)
        .map((e) => e.payload.status);
    expect(runEvents('owner')).toContain('completed');
    expect(runEvents('watcher')).toContain('completed');
    expect(runEvents('hub')).toEqual([]);
    expect(streams.hub.events.filter((e) => e.type === 'request.changed')).toEqual([]);
    expect(streams.hub.events.filter((e) => e.type.startsWith('analytics.'))).toEqual([]);
    for (const stream of Object.values(streams)) await stream.close();
  });

  it('walks every event type: each reaches exactly the callers whose list would show its object', async () => {
    const { requestId } = await mailingRun();
    const app = await sharedApp();
    const [mail] = await s.engine.services.db.query('SELECT id FROM outbox WHERE requestId = ? LIMIT 1', [requestId]);
    // One sample of every event type: a new type without one fails the type check here.
    const samples: { [K in EngineEventType]: EngineEvents[K] } = {
      'analytics.import.progress': { appId: app.id, percent: 50, rows: 10 },
      'analytics.reload.changed': { appId: app.id, id: app.id, status: 'failed', trigger: 'schedule' },
      'analytics.reloaded': { appId: app.appId },
      'backup.progress': { step: 'copying the database', number: 1, of: 7 },
      'report.progress': { reportId, done: 1, total: 2 },
      'request.changed': {
        id: requestId,
        kind: 'OnDemandTask',
        taskId: null,
        status: 'completed',
        progressDone: 1,
        progressTotal: 1,
      },
      'mail.changed': { id: mail.id, requestId, status: 'sent' },
      'delivery.changed': { id: mail.id, requestId, status: 'waiting' },
      'template.synced': { reportId, ok: true, message: 'Saved', problems: [] },
    };
    const events = Object.entries(samples).map(([type, payload]) => ({ type, payload }) as EngineEvent);
    const principals = {
      viewTaskOnly: (await signedInUserWith(s, { viewTask: true }, 'task-viewer')).token,
      appsOnly: (await signedInUserWith(s, { viewProject: true }, 'app-viewer')).token,
      history: (await signedInUserWith(s, { viewProject: true, viewTaskStatus: true }, 'history')).token,
      owner: s.ownerKey,
    };
    /** The event types a caller hears of the samples; the owner's barrier after them says all were weighed. */
    const heard = (token: string) =>
      new Promise<string[]>((resolve) => {
        const got: string[] = [];
        let weighed = 0;
        // Weighed in order: the samples as the caller, then one more as the owner (which always passes).
        const stop = s.engine.watch(
          () => ({ token: ++weighed > events.length ? s.ownerKey : token, transport: 'http', client: 'walk' }),
          (e) => {
            if (e.type === 'report.progress' && e.payload.total === -1) {
              stop();
              return resolve(got);
            }
            got.push(e.type);
          },
        );
        for (const e of events) s.engine.services.emit(e);
        s.engine.services.emit({ type: 'report.progress', payload: { reportId, done: 0, total: -1 } });
      });
    const all = Object.keys(samples).sort();
    expect((await heard(principals.viewTaskOnly)).sort()).toEqual([]);
    expect((await heard(principals.appsOnly)).sort()).toEqual([
      'analytics.import.progress',
      'analytics.reload.changed',
      'analytics.reloaded',
      'report.progress',
      'request.changed',
      'template.synced',
    ]);
    // A backup's steps are the backups page's: tenant administrators' alone.
    expect((await heard(principals.history)).sort()).toEqual(all.filter((t) => t !== 'backup.progress'));
    expect((await heard(principals.owner)).sort()).toEqual(all);
  });

  it("a user of another organization hears nothing of this one's runs", async () => {
    const away = await signedInUserWith(s, { viewTaskStatus: true, viewProject: true }, 'away');
    await s.ok('PUT', `/api/v2/users/${away.userId}`, { type: 'organizations', value: [otherOrg] });
    const stream = await subscribe(away.token);
    const { requestId } = await mailingRun();
    const marker = await sharedApp();
    await s.ok('POST', `/api/app/analytics/${marker.id}/import`, { fileName: 'm.csv', content: 'A\n1\n' });
    await until(
      () => stream.events,
      (x) => x.some((e) => e.type === 'analytics.reloaded' && e.payload.appId === marker.appId),
    );
    expect(stream.events.filter((e) => e.payload.id === requestId)).toEqual([]);
    await stream.close();
  });
});

describe(
  covers(
    'the outbox shows what run history shows',
    'app.outbox.list',
    'app.outbox.retry',
    'app.outbox.cancel',
    'app.outbox.sendNow',
    'v2.users.invite',
  ),
  () => {
    it("lists a run's mail to those who may see the run, mail of no run to tenant administrators only", async () => {
      const { requestId } = await mailingRun();
      await s.ok('POST', '/api/v2/users/invite', { emails: [`invitee${++n}@example.com`] });
      type Mail = { id: string; requestId: string | null };
      const all = await until(
        () => s.ok<Mail[]>('GET', '/api/v1/outbox', undefined, { get_all: true }),
        (x) => x.some((m) => m.requestId === requestId) && x.some((m) => m.requestId === null),
      );
      const invitation = all.find((m) => m.requestId === null)!;
      const runMail = all.find((m) => m.requestId === requestId)!;

      const colleague = await signedInUserWith(s, { viewTaskStatus: true, runTask: true }, 'colleague');
      const away = await signedInUserWith(s, { viewTaskStatus: true, runTask: true }, 'away');
      await s.ok('PUT', `/api/v2/users/${away.userId}`, { type: 'organizations', value: [otherOrg] });
      const listed = async (token: string) =>
        (await s.call('GET', '/api/v1/outbox', { token, query: { get_all: true } })).body.data.map(
          (m: { id: string }) => m.id,
        );
      expect(await listed(colleague.token)).toContain(runMail.id);
      expect(await listed(colleague.token)).not.toContain(invitation.id);
      expect(await listed(away.token)).not.toContain(runMail.id);
      expect(await listed(away.token)).not.toContain(invitation.id);
      // What is not shown cannot be acted on either: the same 404 as an id that never was.
      expect((await s.call('POST', `/api/v1/outbox/${runMail.id}/retry`, { token: away.token })).status).toBe(404);
      expect((await s.call('POST', `/api/v1/outbox/${invitation.id}/retry`, { token: colleague.token })).status).toBe(
        404,
      );
      expect((await s.call('POST', `/api/v1/outbox/${runMail.id}/cancel`, { token: away.token })).status).toBe(404);
      expect((await s.call('POST', `/api/v1/outbox/${runMail.id}/send-now`, { token: away.token })).status).toBe(404);
      expect((await s.call('POST', `/api/v1/outbox/${invitation.id}/cancel`, { token: colleague.token })).status).toBe(
        404,
      );
      // Without runTask, seeing the mail is not acting on it.
      const watcher = await signedInUserWith(s, { viewTaskStatus: true }, 'watcher');
      expect((await s.call('POST', `/api/v1/outbox/${runMail.id}/cancel`, { token: watcher.token })).status).toBe(403);
      expect((await s.call('POST', `/api/v1/outbox/${runMail.id}/send-now`, { token: watcher.token })).status).toBe(
        403,
      );
    });
  },
);

describe(covers('a refusal stays the refusal it is', 'v1.onDemand.generate'), () => {
  it('running a report of another organization answers 404 like an id that never was, naming the field', async () => {
    const away = await signedInUserWith(s, { viewProject: true, runTask: true }, 'runner');
    await s.ok('PUT', `/api/v2/users/${away.userId}`, { type: 'organizations', value: [otherOrg] });
    const ask = (id: string) =>
      s.call('POST', '/api/v1/ondemand/requests', {
        token: away.token,
        body: { type: 'report', config: { reportId: id, outputFormat: 'Html' } },
      });
    const theirs = await ask(reportId);
    const never = await ask('7b1e0a4e-1111-4222-8333-944455556666');
    expect(theirs.status).toBe(404);
    expect(never.status).toBe(404);
    expect(theirs.body.errorDetails?.[0]?.field).toBe(never.body.errorDetails?.[0]?.field);
  });

  it('a member who may not run the report is told 403 in words, not that the report is missing or the input bad', async () => {
    const member = await signedInUserWith(s, { viewProject: true, updateProject: true }, 'member');
    const guarded = (await s.ok('POST', '/api/app/projects', { name: uniq('Guarded') })).id;
    const connectionId = (
      await s.ok('POST', '/api/app/connections', {
        projectId: guarded,
        name: 'Data',
        analyticsAppId: (await f.make.connected()).appId,
      })
    ).id;
    const report = (
      await s.ok('POST', '/api/v2/reports', {
        name: uniq('Guarded report'),
        projectID: guarded,
        type: 'Html',
        connectionID: connectionId,
      })
    ).id;
    await s.ok('PUT', `/api/v2/projects/${guarded}/permissions-mode`, undefined, { value: 'true' });
    const flags = Object.fromEntries(
      (await import('../../engine/model/members.entity.js')).PERMISSION_FLAGS.map((x) => [
        x,
        x === 'viewProject' || x === 'viewReport',
      ]),
    );
    await s.ok('PUT', `/api/v2/projects/${guarded}/permissions`, {
      members: [{ id: member.userId, type: 'user' }],
      permissions: flags,
    });
    const res = await s.call('POST', '/api/v1/ondemand/requests', {
      token: member.token,
      body: { type: 'report', config: { reportId: report, outputFormat: 'Html' } },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error).toBe('Your member permissions do not let you run this report');
  });
});
