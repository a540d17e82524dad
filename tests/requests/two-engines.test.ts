// Two engines on one data folder (SQLite in WAL), as the job kernel allows: each schedule slot
// fires once though both schedulers fire it, each request runs once though both runners look, each
// mail goes once though both outboxes send; and an engine killed with SIGKILL mid-run keeps its
// work only while its lease holds: once it has lapsed, the other engine takes the run over and
// finishes it, never before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { In } from 'typeorm';
import { startEngineProcess } from '../support/engine-process.js';
import { startTestServer, type TestServer } from '../support/test-server.js';
import { startSmtp, type TestSmtp, addLoopbackMailServer } from '../support/smtp.js';
import { until } from '../support/until.js';
import { defaults } from '../support/test-server.js';
import { ROOT_FOLDER } from '../support/samples.js';
import { Request } from '../../engine/model/requests.entity.js';
import { Outbox } from '../../engine/model/mail.entity.js';

const key = randomBytes(32);
const keys = { load: async () => key, save: async () => {} };
const LEASE_MS = 60_000;
const TASKS = 6;
const RECIPIENTS = 5;
const CUSTOMERS = 300;

let smtp: TestSmtp;
let first: TestServer;
let dataDir: string;
let projectId: string;
let letterTask: string;
/** The in-process engines' clock: real time moved on by `offset` (past a lease, past a fire time). */
let offset = 0;
const clock = () => new Date(Date.now() + offset);
const servers: TestServer[] = [];

const open = async (nodeId: string, extra: Parameters<typeof startTestServer>[0] = {}) => {
  const s = await startTestServer({
    dataDir,
    secretKeys: keys,
    keepDataDir: true,
    nodeId,
    leaseMs: LEASE_MS,
    now: clock,
    schedulerTimers: false,
    ...extra,
  });
  servers.push(s);
  return s;
};

beforeAll(async () => {
  smtp = await startSmtp();
  // The first engine runs nothing: what it queues is left to the others.
  first = await startTestServer({ secretKeys: keys, keepDataDir: true, concurrentRequests: 0, nodeId: 'first' });
  dataDir = first.dataDir;
  const rows = Array.from({ length: CUSTOMERS }, (_, i) => `Customer ${String(i).padStart(3, '0')},${i + 1}`);
  const app = await first.ok('POST', '/api/v1/analytics-apps', {
    appId: 'two-engines',
    name: 'Two engines',
    folderId: ROOT_FOLDER,
    folderPath: '/',
    allowAnalyticsSenseApp: false,
    allowMashup: false,
    defaultOpen: 'Main',
  });
  await first.ok('POST', `/api/app/analytics/${app.id}/import`, {
    fileName: 'customers.csv',
    content: `Customer,Sales\n${rows.join('\n')}\n`,
  });
  projectId = (await first.ok('POST', '/api/app/projects', { name: 'Shared folder' })).id;
  await first.ok('POST', '/api/app/connections', { projectId, name: 'Data', analyticsAppId: app.id });
  await addLoopbackMailServer(first, smtp);
  // One letter per customer: long enough to kill an engine midway.
  const customer = (await first.engine.services.analytics.meta('two-engines')).fields.find(
    (x) => x.name === 'Customer',
  )!;
  const letter = await first.ok('POST', '/api/v2/reports', { name: 'Letter', projectID: projectId, type: 'Word' });
  await first.ok('PUT', `/api/app/reports/${letter.id}/document`, {
    document: { blocks: [{ id: 'k', type: 'kpi', label: 'Sales', expression: 'Sum(Sales)' }] },
  });
  await first.ok('PUT', `/api/v2/reports/${letter.id}`, {
    name: 'Letter',
    isIteration: true,
    iterationFields: [{ fieldID: customer.id, order: 0 }],
  });
  letterTask = (await first.ok('POST', '/api/v2/tasks', { name: 'Letters', projectID: projectId })).id;
  await first.ok('PUT', `/api/v2/tasks/${letterTask}/reports`, {
    reportID: letter.id,
    format: 'Pdf',
    emailEmbedment: false,
    emailAttachment: false,
  });
}, 120_000);

afterAll(async () => {
  for (const s of servers) await s.stop().catch(() => {});
  await first.stop().catch(() => {});
  await rm(dataDir, { recursive: true, force: true });
  await smtp.close();
});

describe('two engines on one data folder', () => {
  it('lets a killed engine keep its run while its lease holds, then the other takes it over and finishes it', async () => {
    const queued = await first.ok('POST', `/api/v2/requests/${letterTask}/run`);
    await first.stop();
    const child = startEngineProcess(dataDir, key, { BROADSHEET_TEST_PROGRESS: '20', BROADSHEET_TEST_NODE: 'doomed' });
    const running = await child.running;
    expect(running).toBe(queued.id);

    // A second engine starts beside it: the run is the other's, leased, and left alone.
    const survivor = await open('survivor');
    const repo = survivor.engine.services.db.getRepository(Request);
    expect(await survivor.engine.runner.kernel.recover(false)).toBe(0);
    expect(await repo.findOneByOrFail({ id: queued.id })).toMatchObject({ status: 'running', claimedBy: 'doomed' });

    await child.kill();
    // Still within the lease: a dead engine cannot be told from a slow one yet.
    expect(await survivor.engine.runner.kernel.recover(false)).toBe(0);
    // Past it: the survivor takes the run over and makes every file anew.
    offset += LEASE_MS + 1_000;
    expect(await survivor.engine.runner.kernel.recover(false)).toBe(1);
    const done = await until(
      () => repo.findOneByOrFail({ id: queued.id }),
      (r) => ['completed', 'failed', 'aborted', 'warning'].includes(r.status),
      120_000,
    );
    expect(done).toMatchObject({ status: 'completed', attempts: 2, claimedBy: null });
    const names = readdirSync(join(dataDir, 'files', 'requests', queued.id));
    expect(names.filter((n) => n.endsWith('.pdf'))).toHaveLength(CUSTOMERS);
    expect(names.filter((n) => n.endsWith('.part'))).toEqual([]);
    const log = readFileSync(join(dataDir, 'logs', 'requests', `${queued.id}.log`), 'utf8');
    expect(log).toMatch(
      /Interrupted: the server running it \(doomed\) stopped answering for \d+ s while this request was running; started again \(attempt 2 of 2\), \d+ files? removed/,
    );
    expect(log.match(/Started \(/g)).toHaveLength(2);
  }, 240_000);

  it('fires each schedule slot once, runs each request once and sends each mail once, with both engines at work', async () => {
    const a = servers[0] ?? (await open('survivor'));
    const b = await open('second');
    const report = await a.ok('POST', '/api/v2/reports', { name: 'Note', projectID: projectId, type: 'Html' });
    const users: string[] = [];
    for (let i = 0; i < RECIPIENTS; i++)
      users.push(
        (
          await a.ok('POST', '/api/v1/users', {
            firstName: 'R',
            lastName: `${i}`,
            email: `r${i}@example.com`,
            isActive: true,
            organizations: [{ id: (await defaults(a)).orgId }],
          })
        ).id,
      );
    const fireAt = new Date(Math.ceil((Date.now() + offset + 3_600_000) / 60_000) * 60_000);
    const tasks: string[] = [];
    const triggers: string[] = [];
    for (let t = 0; t < TASKS; t++) {
      const task = await a.ok('POST', '/api/v2/tasks', { name: `Slot ${t}`, projectID: projectId });
      tasks.push(task.id);
      await a.ok('PUT', `/api/v2/tasks/${task.id}/reports`, {
        reportID: report.id,
        format: 'Html',
        emailEmbedment: false,
        emailAttachment: true,
      });
      await a.ok(
        'PUT',
        `/api/v2/tasks/${task.id}/recipients`,
        users.map((id) => ({ id, type: 'user' })),
      );
      await a.ok('PUT', `/api/v2/tasks/${task.id}/email`, {
        from: 'reports@example.com',
        subject: `Slot ${t}`,
        isActive: true,
      });
      const trigger = await a.ok('POST', `/api/v1/tasks/${task.id}/triggers/schedules`, {
        name: 'Once',
        frequency: 'Once',
        startDate: fireAt.toISOString(),
        timeZone: 'UTC',
      });
      triggers.push(trigger.id);
    }
    // Each engine watches which runs it starts.
    const startedBy = new Map<string, Set<string>>();
    for (const [name, s] of [
      ['a', a],
      ['b', b],
    ] as const)
      s.engine.on((e, from) => {
        // Its own runs only (on PostgreSQL it also hears the other engine's).
        if (!from && e.type === 'request.changed' && e.payload.status === 'running')
          startedBy.set(e.payload.id, (startedBy.get(e.payload.id) ?? new Set()).add(name));
      });
    // The fire time passes for both: both schedulers fire at once, twice over.
    offset = fireAt.getTime() - Date.now() + 30_000;
    await Promise.all([a.engine.scheduler.tick(), b.engine.scheduler.tick()]);
    await Promise.all([a.engine.scheduler.tick(), b.engine.scheduler.tick()]);
    const repo = a.engine.services.db.getRepository(Request);
    const runs = await repo.find({ where: { triggerId: In(triggers) } });
    expect(runs).toHaveLength(TASKS);
    expect(new Set(runs.map((r) => r.triggerId)).size).toBe(TASKS);
    a.engine.runner.wake();
    b.engine.runner.wake();
    const finished = await until(
      () => repo.find({ where: { triggerId: In(triggers) } }),
      (rows) => rows.every((r) => r.status === 'completed'),
      120_000,
    );
    expect(finished.every((r) => r.attempts === 1)).toBe(true);
    for (const r of finished) {
      const log = readFileSync(join(dataDir, 'logs', 'requests', `${r.id}.log`), 'utf8');
      expect(log.match(/Started \(/g)).toHaveLength(1);
      expect(startedBy.get(r.id)?.size).toBe(1);
    }
    // Both engines sent: every message once, each recipient one mail per task.
    const outbox = a.engine.services.db.getRepository(Outbox);
    await until(
      () => outbox.find({ where: { requestId: In(finished.map((r) => r.id)) } }),
      (rows) => rows.length === TASKS * RECIPIENTS && rows.every((m) => m.status === 'sent'),
      60_000,
    );
    const got = smtp.received.filter((m) => /^Slot \d$/.test(m.parsed.subject ?? ''));
    const pairs = got.flatMap((m) => m.envelopeTo.map((to) => `${m.parsed.subject} → ${to}`));
    expect(pairs).toHaveLength(TASKS * RECIPIENTS);
    expect(new Set(pairs).size).toBe(TASKS * RECIPIENTS);
    expect(new Set(got.map((m) => m.parsed.messageId)).size).toBe(got.length);
    // A later tick of either finds nothing more to fire.
    await Promise.all([a.engine.scheduler.tick(), b.engine.scheduler.tick()]);
    expect(await repo.count({ where: { triggerId: In(triggers) } })).toBe(TASKS);
    console.log(
      `two engines: runs started by a ${[...startedBy.values()].filter((x) => x.has('a')).length}, by b ${[...startedBy.values()].filter((x) => x.has('b')).length}`,
    );
  }, 240_000);

  it('has an idle engine pick up a run another engine queued, though nothing told it', async () => {
    const idle = servers[0];
    const queuer = await open('queuer', { concurrentRequests: 0 });
    // Started by one of the engines that run things (on PostgreSQL the queuer wakes them all at once).
    const seen = new Set<string>();
    for (const s of servers.filter((x) => x !== queuer))
      s.engine.on((e, from) => {
        if (!from && e.type === 'request.changed' && e.payload.status === 'running') seen.add(e.payload.id);
      });
    const queued = await queuer.ok('POST', `/api/v2/requests/${letterTask}/run`);
    const repo = idle.engine.services.db.getRepository(Request);
    const done = await until(
      () => repo.findOneByOrFail({ id: queued.id }),
      (r) => r.status === 'completed' || r.status === 'failed',
      120_000,
    );
    expect(done.status).toBe('completed');
    expect(seen.has(queued.id)).toBe(true);
  }, 180_000);
  it("runs a Serial schedule's runs of one task one after another, though both engines take work", async () => {
    // The two that run work (the queuer opened after them runs none).
    const a = servers[0] ?? (await open('survivor'));
    const b = servers[1] ?? (await open('second'));
    const customer = (await a.engine.services.analytics.meta('two-engines')).fields.find((x) => x.name === 'Customer')!;
    const page = await a.ok('POST', '/api/v2/reports', { name: 'Page', projectID: projectId, type: 'Html' });
    await a.ok('PUT', `/api/v2/reports/${page.id}`, {
      name: 'Page',
      isIteration: true,
      iterationFields: [{ fieldID: customer.id, order: 0 }],
    });
    const task = (await a.ok('POST', '/api/v2/tasks', { name: 'Pages', projectID: projectId })).id;
    await a.ok('PUT', `/api/v2/tasks/${task}/reports`, {
      reportID: page.id,
      format: 'Html',
      emailEmbedment: false,
      emailAttachment: false,
    });
    const fireAt = new Date(Math.ceil((Date.now() + offset + 3_600_000) / 60_000) * 60_000);
    const triggers: string[] = [];
    // Three Serial schedules of one task firing at once: three runs queued together.
    for (const name of ['First', 'Second', 'Third'])
      triggers.push(
        (
          await a.ok('POST', `/api/v1/tasks/${task}/triggers/schedules`, {
            name,
            frequency: 'Once',
            execution: 'Serial',
            startDate: fireAt.toISOString(),
            timeZone: 'UTC',
          })
        ).id,
      );
    offset = fireAt.getTime() - Date.now() + 30_000;
    await Promise.all([a.engine.scheduler.tick(), b.engine.scheduler.tick()]);
    a.engine.runner.wake();
    b.engine.runner.wake();
    const repo = a.engine.services.db.getRepository(Request);
    const runs = await until(
      () => repo.find({ where: { triggerId: In(triggers) }, order: { startedDate: 'ASC' } }),
      (rows) => rows.length === 3 && rows.every((r) => r.status === 'completed'),
      180_000,
    );
    // Each started once the one before had ended (both engines read the same clock).
    for (let i = 1; i < runs.length; i++)
      expect(runs[i].startedDate!.getTime()).toBeGreaterThanOrEqual(runs[i - 1].endedDate!.getTime());
    expect(runs.every((r) => r.files.length === CUSTOMERS)).toBe(true);
  }, 240_000);
});
